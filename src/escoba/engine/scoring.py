"""Scoring a round and deciding a game (RULES.md «Scoring a round», «Winning»,
and the results of leaving and absence in «The table around the game»)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from escoba.engine.cards import IS_DIAMOND, SEVEN_OF_DIAMONDS, VALUE, Card
from escoba.engine.seats import side_count, side_of
from escoba.engine.state import EndReason, Result, SideScore


def _most(counts: Sequence[int]) -> int | None:
    """The side with strictly more than every other, or None on a tie."""
    best = max(counts)
    leaders = [i for i, c in enumerate(counts) if c == best]
    return leaders[0] if len(leaders) == 1 else None


def score_round(
    captured_by_seat: Sequence[Sequence[Card]],
    escobas_by_seat: Sequence[int],
    players: int,
) -> tuple[SideScore, ...]:
    """Each side's counts and points; partners pool captures and escobas."""
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

    pts_cards = [0] * n_sides
    pts_diamonds = [0] * n_sides
    pts_sevens = [0] * n_sides
    top = _most(cards)
    if top is not None:
        others_under_ten = all(cards[s] < 10 for s in range(n_sides) if s != top)
        pts_cards[top] = 2 if others_under_ten else 1
    top = _most(diamonds)
    if top is not None:
        pts_diamonds[top] = 2 if diamonds[top] == 10 else 1
    top = _most(sevens)
    if top is not None:
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
