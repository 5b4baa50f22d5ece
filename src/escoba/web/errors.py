"""The service's refusals: each carries a stable `code` for programs, the
HTTP `status` the API answers with, and a message for people."""

from __future__ import annotations

STALE = "La mesa cambió desde que la viste: mira cómo quedó y vuelve a jugar."
NAME_TAKEN = "Ya hay alguien en la mesa con ese nombre o uno que se le parece: elige otro."


class ServiceError(Exception):
    """A refused command: `message` is for people, `code` for programs and
    `status` is the HTTP status the API answers with."""

    status = 400

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


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
