"""The catalog's sentences: a `Message` is one sentence (its Spanish source,
the gettext msgid, and its plural), made by `sentence` or `counted`, the two
keywords babel.cfg extracts; `Limits` are the settings a sentence may quote."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Protocol


class Limits(Protocol):
    """The settings a sentence may quote (`escoba.web.base.settings.Settings`)."""

    @property
    def absence_hours(self) -> float: ...

    @property
    def expiry_days(self) -> float: ...

    @property
    def name_max_length(self) -> int: ...

    @property
    def chat_max_length(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Message:
    """One sentence of the catalog: its Spanish source (the msgid), and its
    plural when a number or a list in it picks the form."""

    text: str
    plural: str | None = None
    #: the value whose number (or length) picks singular or plural
    by: str | None = None
    #: value name → the `Limits` field it comes from
    settings: Mapping[str, str] = field(default_factory=dict)


def sentence(text: str, *, settings: Mapping[str, str] | None = None) -> Message:
    """A sentence with one form. (A keyword of babel.cfg: extracted.)"""
    return Message(text, settings=settings or {})


def counted(
    singular: str, plural: str, *, by: str, settings: Mapping[str, str] | None = None
) -> Message:
    """A sentence whose form follows the number (or list) `by`. (A keyword
    of babel.cfg: both forms are extracted as one plural entry.)"""
    return Message(singular, plural, by, settings or {})


HOURS: Final = {"hours": "absence_hours"}
DAYS: Final = {"days": "expiry_days"}
