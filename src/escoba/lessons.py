"""«Aprender a jugar»: the first lesson's stages as data, and their checks.

Each stage is a prepared position of a two-player round (you at seat 0,
Tito at seat 1) written in the engine's notation, and what is asked of
you there: a play (or LLEVAR EL 15) that the engine must accept, judged
right or wrong with a reason code the pages put into words; or, for the
last stage, a question about the round summary the engine scored.

The position is built whole and legal: the 40 cards each once (hands,
table, deck and the two piles), the deck as long as the deal says, each
pile a sum of fifteens, the hands as long as the turn order says. Pure:
it knows the engine only, never the web.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from escoba.engine import (
    CARDS,
    SITE_RULES,
    VALUE,
    Action,
    Card,
    Claim,
    GameState,
    Phase,
    Play,
    apply,
    legal_actions,
    make_claim,
    make_play,
    parse_card,
    parse_cards,
)
from escoba.engine.cards import FIFTEEN, cards_str
from escoba.engine.state import ClaimWindow, Deal, RoundAction, RoundState, SideScore

YOU: Final = 0
TITO: Final = 1
PLAYERS: Final = 2
HAND: Final = 3
DEALS: Final = 6  # two players: six deals of three cards each
DEALT_AFTER_TABLE: Final = 36


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage: `key` names its words (escoba.web.rendering.lesson), `anchor` its
    paragraph of the rules page. The position: your `hand`, the `table`,
    the deal in play (`deal`, 6 is ÚLTIMAS), who dealt, the card Tito
    just left on a 15 (`left`, LLEVAR EL 15), Tito's pile when it matters
    (`tito_pile`; else the cards out of play are shared out), who captured
    last and each side's escobas. `right`: the plays judged right; `wrong`:
    plays judged wrong with their own reason; any other legal play is wrong
    with the reason `otherwise`. A stage with `question` asks about the
    summary of the round that `after` ends (the previous stage's position
    and its first right play)."""

    key: str
    anchor: str
    hand: tuple[str, ...] = ()
    table: tuple[str, ...] = ()
    deal: int = 2
    dealer: int = TITO
    left: str | None = None
    tito_pile: tuple[str, ...] = ()
    last_capturer: int | None = None
    escobas: tuple[int, int] = (0, 0)
    right: tuple[Action, ...] = ()
    wrong: tuple[tuple[Action, str], ...] = ()
    otherwise: str = ""
    question: str | None = None
    after: str | None = None
    choices: tuple[int, ...] = ()


def _play(card: str, *capture: str) -> Play:
    return make_play(parse_card(card), parse_cards(capture))


def _claim(*group: str) -> Claim:
    return make_claim(parse_cards(group))


STAGES: Final[tuple[Stage, ...]] = (
    # 1. make 15: the 7 of hearts takes the queen (8); nothing else adds up
    Stage(
        key="fifteen",
        anchor="turno",
        hand=("7H", "10S", "6C"),
        table=("8S", "4D", "2H"),
        right=(_play("7H", "8S"),),
        otherwise="fifteen_missed",
    ),
    # 2. choose among two groups: the 5 takes the king alone, or the 7 of
    # diamonds and the 3 (more cards, and the siete de oros)
    Stage(
        key="groups",
        anchor="turno",
        hand=("5C", "4H", "1S"),
        table=("10H", "7D", "3S"),
        right=(_play("5C", "7D", "3S"),),
        wrong=((_play("5C", "10H"), "groups_fewer"),),
        otherwise="groups_missed",
    ),
    # 3. sweep the table: the 6 takes 2 + 3 + 4; the king takes only 2 + 3
    Stage(
        key="escoba",
        anchor="escoba",
        hand=("6H", "10C", "1D"),
        table=("2S", "3D", "4C"),
        right=(_play("6H", "2S", "3D", "4C"),),
        wrong=((_play("10C", "2S", "3D"), "escoba_partial"),),
        otherwise="escoba_missed",
    ),
    # 4. LLEVAR EL 15: Tito left the 7 of hearts, which made 15 with 3 + 5
    Stage(
        key="claim",
        anchor="llevar-el-15",
        hand=("2D", "9S", "1C"),
        table=("3C", "5S", "7H"),
        deal=3,
        dealer=YOU,
        left="7H",
        right=(_claim("3C", "5S"),),
        otherwise="claim_missed",
    ),
    # 5. leave the card that leaves the table hardest to sweep: nothing
    # makes 15; with the king the table sums 16 and nobody can sweep it
    Stage(
        key="leave",
        anchor="turno",
        hand=("1H", "3S", "10C"),
        table=("4S", "2C"),
        deal=4,
        right=(_play("10C"),),
        otherwise="leave_sweepable",
    ),
    # 6. ÚLTIMAS: the last card of the round; Tito captured last, so what
    # stays on the table is his unless you capture now
    Stage(
        key="ultimas",
        anchor="ultimas",
        hand=("5D",),
        table=("4H", "6S", "10C"),
        deal=DEALS,
        dealer=YOU,
        tito_pile=(
            *("7H", "7S", "7C", "1D", "2D", "8H", "9H", "10H"),
            *("1H", "2H", "3H", "3C"),
        ),
        last_capturer=TITO,
        escobas=(1, 2),
        right=(_play("5D", "4H", "6S"), _play("5D", "10C")),
        otherwise="ultimas_left",
    ),
    # 7. read a round's points: the summary of the round stage 6 ended
    Stage(
        key="points",
        anchor="puntos",
        question="points",
        after="ultimas",
        choices=tuple(range(7)),
    ),
)

BY_KEY: Final = {stage.key: stage for stage in STAGES}


def stage_at(number: int) -> Stage | None:
    """The stage by its number in the lesson (1-based), None past either end."""
    return STAGES[number - 1] if 1 <= number <= len(STAGES) else None


# --------------------------------------------------------------------------
# The positions


def _residue(cards: Sequence[Card]) -> int:
    return sum(VALUE[c] for c in cards) % FIFTEEN


TRIES: Final = 10_000


def _share_out(
    stage: Stage, rest: list[Card], hidden: int, tito_pile: list[Card]
) -> tuple[list[Card], list[Card], list[Card]]:
    """The cards out of sight (Tito's hand and the deck: `hidden` of them)
    and the two piles, each a sum of fifteens as captures make them: the
    first order of `rest` that allows it, shuffled by the stage's own seed
    (the same on every run). With `tito_pile` given, your pile is the rest."""
    rng = random.Random(stage.key)
    cards = list(rest)
    for _ in range(TRIES):
        rng.shuffle(cards)
        out, piles = cards[:hidden], cards[hidden:]
        if _residue(piles):
            continue
        if tito_pile:
            return out, piles, tito_pile
        half = len(piles) // 2
        if not _residue(piles[:half]):
            return out, piles[:half], piles[half:]
    raise ValueError("no way to share the cards out")  # pragma: no cover - the data test


@cache
def position(stage: Stage) -> GameState:
    """The stage's position, you (seat 0) on turn; for a question, the
    finished round it asks about."""
    if stage.after is not None:
        before = BY_KEY[stage.after]
        state, _ = apply(position(before), YOU, before.right[0])
        return state
    hand = parse_cards(stage.hand)
    table = tuple(sorted(parse_cards(stage.table)))
    # you play after Tito in this deal when you dealt: he holds one card fewer
    tito_hand_size = len(hand) - (1 if stage.dealer == YOU else 0)
    deck_size = DEALT_AFTER_TABLE - PLAYERS * HAND * stage.deal
    used = set(hand) | set(table)
    rest = [c for c in CARDS if c not in used]
    tito_pile = list(parse_cards(stage.tito_pile))
    rest = [c for c in rest if c not in tito_pile]
    hidden, yours, tito_pile = _share_out(stage, rest, tito_hand_size + deck_size, tito_pile)
    tito_hand = tuple(sorted(hidden[:tito_hand_size]))
    deck = tuple(hidden[tito_hand_size:])
    claim = None
    history: tuple[RoundAction, ...] = ()
    if stage.left is not None:
        card = parse_card(stage.left)
        claim = ClaimWindow(card=card, seat=YOU)
        history = (RoundAction(seat=TITO, kind="play", card=card, cards=(), escoba=False),)
    last = stage.last_capturer
    if last is None:
        last = TITO if tito_pile else YOU
    hands = (hand, tito_hand)
    deals = tuple(Deal(hands=((), ()), table=(), last=n == DEALS) for n in range(1, stage.deal + 1))
    round_state = RoundState(
        number=1,
        dealer=stage.dealer,
        hands=hands,
        table=table,
        deck=deck,
        deals=deals,
        captured=(tuple(sorted(yours)), tuple(sorted(tito_pile))),
        escobas=stage.escobas,
        turn=YOU,
        last_capturer=last,
        claim=claim,
        table_take=None,
        history=history,
    )
    return GameState(
        rules=SITE_RULES,
        players=PLAYERS,
        first_dealer=TITO,
        phase=Phase.PLAYING,
        round=round_state,
        totals=(0, 0),
        finished_rounds=(),
        result=None,
    )


# --------------------------------------------------------------------------
# The checks


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the pages say of an answer: `right` or not, the reason's code
    (`<stage>_right` when right) and its values, in the engine's notation
    (cards as `7D`, lists of them, numbers)."""

    right: bool
    code: str
    values: dict[str, object]
    action: Action | None = None


def _table_sum(cards: Sequence[Card]) -> int:
    return sum(VALUE[c] for c in cards)


def judge(stage: Stage, action: Action) -> Verdict:
    """The player's play at the stage, which the engine accepted (the
    caller has checked it with `escoba.engine.verify`)."""
    state = position(stage)
    table = state.round.table
    after, _ = apply(state, YOU, action)
    if isinstance(action, Play):
        card: object = str(action.card)
        taken: object = cards_str(action.capture)
        left = [c for c in after.round.table] if after.phase is Phase.PLAYING else []
    else:
        card, taken, left = stage.left, cards_str(action.group), list(after.round.table)
    values: dict[str, object] = {"card": card, "cards": taken, "left": cards_str(left)}
    if action in stage.right:
        if stage.key == "leave":
            values["sum"] = _table_sum(after.round.table)
        if stage.key == "ultimas" and isinstance(action, Play):
            values["left"] = cards_str(c for c in table if c not in action.capture)
        return Verdict(True, f"{stage.key}_right", values, action)
    code = next((why for wrong, why in stage.wrong if wrong == action), stage.otherwise)
    best = stage.right[0]
    if isinstance(best, Play):
        values["best"] = str(best.card)
        values["best_cards"] = cards_str(best.capture)
    if code == "leave_sweepable":
        total = _table_sum(after.round.table)
        values["sum"] = total
        values["value"] = FIFTEEN - total
    if code == "ultimas_left":
        values["n"] = len(table) + 1
    return Verdict(False, code, values, action)


def classify(stage: Stage) -> dict[Action, Verdict]:
    """Every legal action of the stage's position, judged (the data test's
    and the pages' one source)."""
    state = position(stage)
    return {action: judge(stage, action) for action in legal_actions(state)}


def summary_scores(stage: Stage) -> tuple[SideScore, ...]:
    """The scores of the round a question stage shows."""
    state = position(stage)
    summary = state.last_summary
    if summary is None:  # pragma: no cover - the data test
        raise ValueError("a question stage follows a round's end")
    return summary.scores


def answer_of(stage: Stage) -> int:
    """The right answer of a question stage: your points in the round."""
    return summary_scores(stage)[YOU].points


def judge_answer(stage: Stage, answer: int) -> Verdict:
    score = summary_scores(stage)[YOU]
    values: dict[str, object] = {"n": answer, "points": score.points}
    right = answer == score.points
    return Verdict(right, "points_right" if right else "points_wrong", values)
