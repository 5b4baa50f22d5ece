"""Scoring a round and deciding a game (RULES.md «Scoring a round», «Winning»,
and the results of leaving and absence in «The table around the game»)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from escoba.engine.cards import IS_DIAMOND, SEVEN_OF_DIAMONDS, VALUE, Card
from escoba.engine.rules import SETENTA_WORTH, SITE_RULES, RuleSet, Ties
from escoba.engine.seats import side_count, side_of
from escoba.engine.state import EndReason, Result, SideScore


def _most(counts: Sequence[int]) -> int | None:
    """The side with strictly more than every other, or None on a tie."""
    best = max(counts)
    leaders = [i for i, c in enumerate(counts) if c == best]
    return leaders[0] if len(leaders) == 1 else None


def _leaders(counts: Sequence[int | None], ties: Ties) -> tuple[int, ...]:
    """The sides that score «the most» of something: the one strictly ahead;
    on a tie at the top nobody, or every tied side when ties give each. A side
    with none of it (or no setenta, None) never has the most."""
    present = [c for c in counts if c]
    if not present:
        return ()
    best = max(present)
    leaders = tuple(i for i, c in enumerate(counts) if c == best)
    return leaders if len(leaders) == 1 or ties == "each" else ()


def setenta(pile: Iterable[Card]) -> int | None:
    """The side's setenta: its best card of each suit by `SETENTA_WORTH`,
    summed; None («coja») when the side took no card of some suit."""
    best = [0, 0, 0, 0]
    for c in pile:
        worth = SETENTA_WORTH[VALUE[c]]
        if worth > best[c % 4]:
            best[c % 4] = worth
    return None if 0 in best else sum(best)


def leftover_check(cards: Iterable[Card]) -> tuple[int, int]:
    """The players' check of the cards left at a round's end: their sum, and
    how many fifteens it holds over 10 (the sum is always 10 + 15·k, since the
    deck sums 220 and every capture takes a multiple of 15)."""
    total = sum(VALUE[c] for c in cards)
    return total, (total - 10) // 15


def score_round(
    captured_by_seat: Sequence[Sequence[Card]],
    escobas_by_seat: Sequence[int],
    players: int,
    rules: RuleSet = SITE_RULES,
) -> tuple[SideScore, ...]:
    """Each side's counts and points under `rules`; partners pool captures
    and escobas."""
    n_sides = side_count(players)
    piles: list[list[Card]] = [[] for _ in range(n_sides)]
    escobas = [0] * n_sides
    for seat in range(players):
        piles[side_of(seat, players)].extend(captured_by_seat[seat])
        escobas[side_of(seat, players)] += escobas_by_seat[seat]

    cards = [len(p) for p in piles]
    diamonds = [sum(1 for c in p if IS_DIAMOND[c]) for p in piles]
    sevens = [sum(1 for c in p if VALUE[c] == 7) for p in piles]
    seven_d = [SEVEN_OF_DIAMONDS in p for p in piles]
    setentas = [setenta(p) for p in piles] if rules.setenta else [None] * n_sides

    pts_cards = [0] * n_sides
    pts_diamonds = [0] * n_sides
    pts_sevens = [0] * n_sides
    # a point shared by tied sides (ties give each) is always 1: the doubles
    # (every other side under 10 cards, all ten diamonds, all four sevens)
    # reward a side alone at the top
    tops = _leaders(cards, rules.ties)
    for top in tops:
        others_under_ten = all(cards[s] < 10 for s in range(n_sides) if s != top)
        pts_cards[top] = 2 if others_under_ten and len(tops) == 1 else 1
    for top in _leaders(diamonds, rules.ties):
        pts_diamonds[top] = 2 if diamonds[top] == 10 else 1
    if rules.setenta:
        for top in _leaders(setentas, rules.ties):
            pts_sevens[top] = 1
    else:
        for top in _leaders(sevens, rules.ties):
            pts_sevens[top] = 2 if sevens[top] == 4 else 1

    out = []
    for s in range(n_sides):
        score = SideScore(
            escobas=escobas[s],
            cards=cards[s],
            diamonds=diamonds[s],
            sevens=sevens[s],
            seven_of_diamonds=seven_d[s],
            points=0,
            points_escobas=escobas[s],
            points_cards=pts_cards[s],
            points_diamonds=pts_diamonds[s],
            points_seven_of_diamonds=1 if seven_d[s] else 0,
            points_sevens=pts_sevens[s],
            setenta_rule=rules.setenta,
            setenta=setentas[s],
        )
        # the round's points are the sum of its lines, as the summary shows them
        out.append(replace(score, points=sum(score.line_points)))
    return tuple(out)


def winner_on_points(totals: Sequence[int], target: int) -> int | None:
    """The side that has reached the target with strictly more points than every
    other side; None while nobody has, or while the top is tied."""
    best = max(totals)
    if best < target:
        return None
    return _most(totals)


def result_of_leaving(
    loser_seat: int, totals: Sequence[int], players: int, reason: EndReason
) -> Result:
    """ABANDONAR, SALIR DEL JUEGO or TERMINAR POR AUSENCIA: the loser's side
    loses. With pairs the other pair wins; otherwise the other player with the
    most points wins, and players tied there share the win."""
    loser = side_of(loser_seat, players)
    others = [s for s in range(side_count(players)) if s != loser]
    best = max(totals[s] for s in others)
    winners = tuple(s for s in others if totals[s] == best)
    return Result(winners=winners, reason=reason, loser_seat=loser_seat)
