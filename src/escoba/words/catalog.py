"""Every code a person may read, with its Spanish source text: the parts of
the catalog put together, each code in one part only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from escoba.words.analysis import ANALYSIS
from escoba.words.coach import COACH
from escoba.words.message import Message
from escoba.words.notices import NOTICES
from escoba.words.rules import RULES
from escoba.words.scoring import SCORING
from escoba.words.site import SITE
from escoba.words.table import TABLE

PARTS: Final = (RULES, TABLE, SITE, NOTICES, ANALYSIS, COACH, SCORING)


def _gathered(parts: tuple[Mapping[str, Message], ...]) -> dict[str, Message]:
    catalog: dict[str, Message] = {}
    for part in parts:
        twice = catalog.keys() & part.keys()
        if twice:
            raise ValueError(f"codes in two parts of the catalog: {sorted(twice)}")
        catalog.update(part)
    return catalog


CATALOG: Final[Mapping[str, Message]] = _gathered(PARTS)
