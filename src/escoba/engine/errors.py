"""Typed errors that carry a code and its values, never a sentence.

The engine keeps no words a player reads: a refusal is a stable `code` (for
programs, and the key of the catalog) and `params`, the plain values a
sentence about it needs — card notations such as "7D", sums, counts. One
place, `escoba.words`, turns them into the viewer's language.
"""

from __future__ import annotations

from typing import Any


class _Coded:
    """A code and its values, shown as `code key=value …` for debugging."""

    code: str
    params: dict[str, Any]

    def __str__(self) -> str:
        values = " ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{self.code} {values}" if values else self.code


class IllegalAction(_Coded, Exception):
    """An action the rules do not allow in this state. The state is unchanged.
    `str()` is the code and its values (for logs and tracebacks)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


class InputError(_Coded, ValueError):
    """Input that names no card or no action (a form, an API body): `code`
    and `params` as `IllegalAction`'s, and `str()` too."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


class RecordError(ValueError):
    """A game record that is malformed or describes an illegal game (for the
    people who write records: in English, like the code)."""
