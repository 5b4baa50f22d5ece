"""What the rules page (`/reglas`) shows, computed from the engine so that
its numbers and examples cannot drift from the rules the app plays: the
cards' values (`VALUE`), the groups a card takes (`capture_groups`), the
deals of a round (`HAND_SIZE`, `TABLE_SIZE`), the points of each scoring
line and la setenta's table (`score_round`, `SETENTA_WORTH`), the targets
(`TARGETS`), and two worked rounds scored by `score_round` and shown by the
round summary's own table and reasons (`board.round_table`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Final

from markupsafe import Markup

from escoba.engine.captures import Group, capture_groups
from escoba.engine.cards import (
    CARDS,
    FIFTEEN,
    IS_DIAMOND,
    NOTATION,
    SEVEN_OF_DIAMONDS,
    VALUE,
    Card,
    parse_cards,
)
from escoba.engine.rules import (
    HAND_SIZE,
    SETENTA_WORTH,
    SITE_RULES,
    SITE_TARGETS,
    TABLE_SIZE,
    TARGETS,
    RuleSet,
)
from escoba.engine.scoring import score_round, setenta
from escoba.engine.state import Leftover, RoundSummary
from escoba.i18n import translations
from escoba.names import Design, and_list, the_card, the_cards, words
from escoba.web.rendering.board import RoundTable, round_table

DECK_SIZE: Final = len(CARDS)


@dataclass(frozen=True, slots=True)
class Example:
    """A card played on a table, and the groups it may take (the engine's)."""

    card: Card
    table: tuple[Card, ...]
    groups: tuple[Group, ...]

    @property
    def sweeps(self) -> bool:
        """Some group takes the whole table: ¡ESCOBA!"""
        return any(len(g) == len(self.table) for g in self.groups)


def _example(card: str, table: str) -> Example:
    (played,) = parse_cards([card])
    cards = parse_cards(table.split())
    return Example(played, cards, capture_groups(played, cards))


# The worked examples of «Tu turno», «La escoba» and LLEVAR EL 15: the cards
# are chosen here, what they take is the engine's.
TAKE: Final = _example("7H", "5S 3C 9D")  # a 7 takes a 5 and a 3
CHOOSE: Final = _example("5H", "10C 4S 6D 1C")  # the king, or the 4 and the 6
LEAVE: Final = _example("2S", "10D 6H 4C")  # a 2 makes 15 with nothing here
SWEEP: Final = _example("9S", "4D 2H")  # 9 + 4 + 2: the table empties
CLAIM: Final = _example("7C", "8S")  # the 7 left beside an 8: LLEVAR EL 15
DEAL_15: Final = parse_cards(["1C", "2S", "5H", "7C"])
DEAL_30: Final = parse_cards(["10H", "9S", "7C", "4D"])


def _probe(pile: list[Card], rules: RuleSet = SITE_RULES, escobas: int = 0) -> int:
    """The engine's points for side 0 of a two-player round where side 0
    took `pile` and side 1 everything else: the line under test is read by
    the caller (`points` below)."""
    rest = [c for c in CARDS if c not in pile]
    return score_round([pile, rest], [escobas, 0], 2, rules)[0].points


def _line(pile: list[Card], rules: RuleSet = SITE_RULES) -> dict[str, int]:
    rest = [c for c in CARDS if c not in pile]
    s = score_round([pile, rest], [0, 0], 2, rules)[0]
    return {
        "cards": s.points_cards,
        "diamonds": s.points_diamonds,
        "sevens": s.points_sevens,
        "seven_of_diamonds": s.points_seven_of_diamonds,
    }


@lru_cache(maxsize=1)
def points() -> dict[str, int]:
    """Each scoring line's points, as the engine scores them: asked of
    `score_round` with piles made to show each case."""
    plain = [c for c in CARDS if not IS_DIAMOND[c] and VALUE[c] != 7]
    diamonds = [c for c in CARDS if IS_DIAMOND[c] and c != SEVEN_OF_DIAMONDS]
    sevens = [c for c in CARDS if VALUE[c] == 7 and c != SEVEN_OF_DIAMONDS]
    # 21 cards against 19: most cards, nothing else
    most_cards = _line(plain[:21])["cards"]
    # 31 against 9: most cards, the other side under 10
    all_cards = _line(
        [*plain, *diamonds[:3], *sevens[:1]]  # 27 + 3 + 1 = 31
    )["cards"]
    most_diamonds = _line([*diamonds[:6], *plain[:4]])["diamonds"]
    all_diamonds = _line([*diamonds, SEVEN_OF_DIAMONDS])["diamonds"]
    most_sevens = _line([*sevens[:3]])["sevens"]
    all_sevens = _line([*sevens, SEVEN_OF_DIAMONDS])["sevens"]
    seven_of_diamonds = _line([SEVEN_OF_DIAMONDS])["seven_of_diamonds"]
    escoba = _probe([], escobas=1) - _probe([])
    # the highest setenta: the 7 of each suit against a side with no 7
    setenta_point = _line([*sevens, SEVEN_OF_DIAMONDS], RuleSet(setenta=True))["sevens"]
    return {
        "escoba": escoba,
        "most_cards": most_cards,
        "all_cards": all_cards,
        "most_diamonds": most_diamonds,
        "all_diamonds": all_diamonds,
        "most_sevens": most_sevens,
        "all_sevens": all_sevens,
        "seven_of_diamonds": seven_of_diamonds,
        "setenta": setenta_point,
    }


def deals(players: int) -> int:
    """How many deals a round has with `players`: the deck less the first
    table, three cards a hand."""
    return (DECK_SIZE - TABLE_SIZE) // (HAND_SIZE * players)


@dataclass(frozen=True, slots=True)
class RulesPage:
    design: Design
    values: tuple[tuple[Card, int], ...]  # one suit, its cards and their values
    take: Example
    choose: Example
    leave: Example
    sweep: Example
    claim: Example
    deal_15: tuple[Card, ...]
    deal_30: tuple[Card, ...]
    deals: tuple[tuple[int, int], ...]  # players → deals in a round
    points: dict[str, int]
    setenta_table: tuple[tuple[Card, int], ...]  # by worth, a card of each value
    site_targets: tuple[int, ...]
    other_targets: tuple[int, ...]
    worked: RoundTable  # a round under the site's rules
    worked_setenta: RoundTable  # the same kind of round under two house rules
    worked_piles: tuple[tuple[Card, ...], ...]  # the first worked round's piles
    setenta_example: tuple[tuple[tuple[Card, ...], int | None], ...]  # best cards, sum


WORKED_NAMES: Final = (Markup("Ana"), Markup("Luna"))
#: The worked round: Ana 22 cards (6 diamonds, 3 sevens with the 7 of
#: diamonds), Luna 18; one escoba each side's; the 4 and the 6 left at the
#: end went to Ana, who took last.
_ANA: Final = "1D 2D 3D 5D 7D 10D 7H 7S 1H 1S 1C 2H 2S 3H 4C 5S 6S 6H 8H 9S 10C 10H"
_ANA_HOUSE: Final = "1H 2H 3H 4H 5H 6H 7H 8H 9H 10H 1D 2D 3D 4D 5D 1S 2S 3S 4S 1C"


def _worked(
    ana: str, escobas: tuple[int, int], rules: RuleSet, leftover: Leftover, lang: str
) -> tuple[RoundTable, tuple[tuple[Card, ...], ...]]:
    pile = parse_cards(ana.split())
    rest = tuple(c for c in CARDS if c not in pile)
    scores = score_round([pile, rest], list(escobas), 2, rules)
    summary = RoundSummary(
        number=1,
        dealer=0,
        deals=(),
        table_take=None,
        actions=(),
        leftover=leftover,
        scores=scores,
        totals=tuple(s.points for s in scores),
    )
    return round_table(summary, 2, rules, WORKED_NAMES, lang=lang), (pile, rest)


def _best_by_suit(pile: tuple[Card, ...]) -> tuple[tuple[Card, ...], int | None]:
    """A side's setenta as the page shows it: its best card of each suit."""
    best: dict[int, Card] = {}
    for c in pile:
        suit = c % 4
        if suit not in best or SETENTA_WORTH[VALUE[c]] > SETENTA_WORTH[VALUE[best[suit]]]:
            best[suit] = c
    return tuple(best[s] for s in sorted(best)), setenta(pile)


def rules_page(design: Design, lang: str = "es") -> RulesPage:
    diamonds = [c for c in CARDS if IS_DIAMOND[c]]
    worked, piles = _worked(_ANA, (1, 2), SITE_RULES, Leftover(0, parse_cards(["4C", "6S"])), lang)
    house = replace(SITE_RULES, setenta=True, ties="each")
    worked_house, house_piles = _worked(_ANA_HOUSE, (0, 1), house, Leftover(None, ()), lang)
    by_worth = sorted({VALUE[c]: c for c in diamonds}.items(), key=lambda kv: -SETENTA_WORTH[kv[0]])
    return RulesPage(
        design=design,
        values=tuple((c, VALUE[c]) for c in diamonds),
        take=TAKE,
        choose=CHOOSE,
        leave=LEAVE,
        sweep=SWEEP,
        claim=CLAIM,
        deal_15=DEAL_15,
        deal_30=DEAL_30,
        deals=tuple((n, deals(n)) for n in (2, 3, 4)),
        points=points(),
        setenta_table=tuple((c, SETENTA_WORTH[v]) for v, c in by_worth),
        site_targets=SITE_TARGETS,
        other_targets=tuple(t for t in TARGETS if t not in SITE_TARGETS),
        worked=worked,
        worked_setenta=worked_house,
        worked_piles=piles,
        setenta_example=tuple(_best_by_suit(p) for p in house_piles),
    )


def page_words(design: Design, lang: str = "es") -> dict[str, Any]:
    """The rules page's small helpers, in the viewer's language and deck:
    card names with their articles, the sums of the examples («7 + 5 + 3 =
    15»), the targets («21 o 31»), each scoring line's points marked for
    the numbers' test (`data-points`)."""
    tr = translations(lang)
    _ = tr.gettext
    w = words(design, lang)

    def values_sum(cards: Sequence[Card]) -> str:
        return " + ".join(str(VALUE[c]) for c in cards) + f" = {sum(VALUE[c] for c in cards)}"

    def targets_text(targets: Sequence[int]) -> str:
        head, last = targets[:-1], targets[-1]
        if not head:
            return str(last)
        return _("%(some)s o %(last)s") % {"some": ", ".join(map(str, head)), "last": last}

    def face_name(card: Card) -> str:
        value = VALUE[card]
        name = w.ranks[value]
        name = name[:1].upper() + name[1:]
        return f"{name} ({value})" if value >= 8 else name

    return {
        "suit_names": and_list(list(w.suits), lang),
        "suit_names_list": w.suits,
        "the_card": lambda card: the_card(card, design, lang),
        "the_cards": lambda cards: the_cards(list(cards), design, lang),
        "sum_text": lambda card, group: values_sum((card, *group)),
        "values_sum": values_sum,
        "notation": lambda card: NOTATION[card],
        "value_of": lambda card: VALUE[card],
        "need": lambda example: FIFTEEN - VALUE[example.card],
        "face_name": face_name,
        "setenta_sum": lambda cards: " + ".join(str(SETENTA_WORTH[VALUE[c]]) for c in cards),
        "targets_text": targets_text,
        "pt": lambda value, key: Markup('<span data-points="{}">{}</span>').format(key, value),
    }
