"""Typed errors whose messages a player understands (in Spanish, the site's
language); `code` is stable for programs."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules do not allow in this state. The state is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class RecordError(ValueError):
    """A game record that is malformed or describes an illegal game."""
