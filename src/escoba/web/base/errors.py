"""The service's refusals: each carries a stable `code` for programs, the
HTTP `status` the API answers with, and the code and values of its words in
the catalog (`escoba.words`), never a sentence.

    Conflict("stale")                          # words: the code's own
    Conflict("table_full", words="no_free_seat")  # one API code, other words
    Conflict("not_absent", hours=settings.absence_hours)

A value a sentence takes from the settings (hours, a length) is given by the
raise site, so that the words need nothing else.
"""

from __future__ import annotations

from escoba.i18n import DEFAULT_LANG
from escoba.words import Limits, say

#: The JSON API's addresses: their refusals are JSON (`{"error", "message"}`),
#: every other address's a page in the viewer's language.
API_PREFIX = "/api/"


def speaks_json(path: str) -> bool:
    """Whether a refusal at `path` is the API's JSON (else a page): the one
    place that decides the face of an error."""
    return path.startswith(API_PREFIX)


class ServiceError(Exception):
    """A refused command: `code` is for programs (the API's `error`),
    `words` the catalog's code for people when it is not `code` itself,
    `values` what the sentence names, and `status` the HTTP status."""

    status = 400

    def __init__(self, code: str, /, words: str | None = None, **values: object) -> None:
        super().__init__(code)
        self.code = code
        self.words = words
        self.values = values

    def __str__(self) -> str:
        values = " ".join(f"{k}={v!r}" for k, v in self.values.items())
        return " ".join(filter(None, (self.code, values)))

    def text(self, lang: str = DEFAULT_LANG, limits: Limits | None = None) -> str:
        """The refusal in `lang`, as plain text."""
        return say(self.words or self.code, lang, limits=limits, **self.values)

    @property
    def message(self) -> str:
        """The Spanish sentence (the JSON API's `message`)."""
        return self.text()


class NotFound(ServiceError):
    status = 404


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    """The table moved on: a stale or repeated command."""

    status = 409


class Invalid(ServiceError):
    status = 422


class RateLimited(ServiceError):
    status = 429


class Busy(ServiceError):
    status = 503
