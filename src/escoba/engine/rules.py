"""The rule set of a table: the site's default rules plus the simple variants
of RULES.md, as one value chosen when the table is created."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

TARGETS: Final = (15, 21, 30, 31)
SITE_TARGETS: Final = (21, 31)
#: Cards dealt to each seat on every deal, and face up to the table on the
#: first deal of a round: the same under every rule set.
HAND_SIZE: Final = 3
TABLE_SIZE: Final = 4
#: La setenta's worth of each capture value (RULES.md, *Variants*): 7 = 21,
#: 6 = 18, ace = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12, the figures 10.
SETENTA_WORTH: Final[dict[int, int]] = {
    7: 21,
    6: 18,
    1: 16,
    5: 15,
    4: 14,
    3: 13,
    2: 12,
    8: 10,
    9: 10,
    10: 10,
}
#: How a tie for the most cards, diamonds or sevens (setenta) is scored:
#: the site gives the point to nobody, the house rule to every tied side.
Ties = Literal["nobody", "each"]
TIES: Final[tuple[Ties, ...]] = ("nobody", "each")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """`target`: points to win (21 or 31 on the site; 15 and 30 are variants).
    `thirty_is_double`: a first table of 30 is ¡ESCOBA DOBLE! (2 escobas); the
    variant counts it as one. `compulsory_capture`: the variant where a player
    who can make 15 with any card of the hand must capture. `setenta`: la
    setenta replaces «most sevens». `ties`: who scores a tie for the most
    (RULES.md «Scoring a round», *Variants*)."""

    target: int = 21
    thirty_is_double: bool = True
    compulsory_capture: bool = False
    setenta: bool = False
    ties: Ties = "nobody"

    def __post_init__(self) -> None:
        if self.target not in TARGETS:
            raise ValueError(f"target must be one of {TARGETS}, not {self.target}")
        if self.ties not in TIES:
            raise ValueError(f"ties must be one of {TIES}, not {self.ties!r}")

    @property
    def is_site(self) -> bool:
        """The site's rules (any target of the site): no house rule in force."""
        return self.target in SITE_TARGETS and self.variants() == ()

    def variants(self) -> tuple[str, ...]:
        """The house rules in force, by their record names, in a fixed order."""
        out: list[str] = []
        if self.setenta:
            out.append("setenta")
        if self.ties == "each":
            out.append("ties_each")
        if self.compulsory_capture:
            out.append("compulsory_capture")
        if not self.thirty_is_double:
            out.append("thirty_single")
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "thirty_is_double": self.thirty_is_double,
            "compulsory_capture": self.compulsory_capture,
            "setenta": self.setenta,
            "ties": self.ties,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """The rules as a record names them (absent keys: the site's); a value
        of the wrong type or out of range is a `ValueError`."""
        target = data.get("target", 21)
        flags = {
            key: data.get(key, default)
            for key, default in (
                ("thirty_is_double", True),
                ("compulsory_capture", False),
                ("setenta", False),
            )
        }
        ties = data.get("ties", "nobody")
        if type(target) is not int or any(type(v) is not bool for v in flags.values()):
            raise ValueError("the target is a number and each option true or false")
        return cls(target=target, ties=ties, **flags)


SITE_RULES: Final = RuleSet()
