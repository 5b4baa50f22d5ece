"""The rule set of a table: the site's default rules plus the simple variants
of RULES.md, as one value chosen when the table is created."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

TARGETS: Final = (15, 21, 30, 31)
SITE_TARGETS: Final = (21, 31)
#: Cards dealt to each seat on every deal, and face up to the table on the
#: first deal of a round: the same under every rule set.
HAND_SIZE: Final = 3
TABLE_SIZE: Final = 4


@dataclass(frozen=True, slots=True)
class RuleSet:
    """`target`: points to win (21 or 31 on the site; 15 and 30 are variants).
    `thirty_is_double`: a first table of 30 is ¡ESCOBA DOBLE! (2 escobas); the
    variant counts it as one. `compulsory_capture`: the variant where a player
    who can make 15 with any card of the hand must capture."""

    target: int = 21
    thirty_is_double: bool = True
    compulsory_capture: bool = False

    def __post_init__(self) -> None:
        if self.target not in TARGETS:
            raise ValueError(f"target must be one of {TARGETS}, not {self.target}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "thirty_is_double": self.thirty_is_double,
            "compulsory_capture": self.compulsory_capture,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        return cls(
            target=int(data.get("target", 21)),
            thirty_is_double=bool(data.get("thirty_is_double", True)),
            compulsory_capture=bool(data.get("compulsory_capture", False)),
        )


SITE_RULES: Final = RuleSet()
