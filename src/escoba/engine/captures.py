"""Which table cards make 15 with a card: the one search every rule leans on.

`capture_groups` runs inside robot search millions of times. Cards sort by
value (see `cards`), so a sorted table has sorted values; the subset-sum over
those values is memoised (tables share value patterns far more often than
cards), and its answer, positions in the sorted table, maps straight back to
card groups that are already in canonical order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from escoba.engine.cards import FIFTEEN, VALUE, Card

Group = tuple[Card, ...]
IndexGroups = tuple[tuple[int, ...], ...]

_MEMO_LIMIT: Final = 500_000
_SUMS_UP_TO_15: Final = (1 << (FIFTEEN + 1)) - 1
# (target, sorted values of the table) -> positions in the table, each group
# ascending and the groups in lexicographic order
_memo: dict[tuple[int, tuple[int, ...]], IndexGroups] = {}


def _solve(target: int, values: tuple[int, ...]) -> IndexGroups:
    """Every set of positions in ascending `values` that sums to `target`.

    An explicit stack instead of recursion (function calls are what a cold
    search spends its time on in CPython); a branch is pushed only when the
    next value can still fit, and the ascending order ends a scan early."""
    n = len(values)
    out: list[tuple[int, ...]] = []
    add = out.append
    stack: list[tuple[int, int, tuple[int, ...]]] = [(0, target, ())]
    push = stack.append
    pop = stack.pop
    while stack:
        start, remaining, chosen = pop()
        for i in range(start, n):
            v = values[i]
            if v >= remaining:
                if v > remaining:
                    break  # ascending: nothing further fits
                add((*chosen, i))
                continue
            rest = remaining - v
            following = i + 1
            if following < n and values[following] <= rest:
                push((following, rest, (*chosen, i)))
    out.sort()
    return tuple(out)


def index_groups(target: int, values: tuple[int, ...]) -> IndexGroups:
    key = (target, values)
    found = _memo.get(key)
    if found is None:
        found = _solve(target, values)
        if len(_memo) >= _MEMO_LIMIT:
            _memo.clear()
        _memo[key] = found
    return found


def capture_groups(card: int, table: Iterable[Card]) -> tuple[Group, ...]:
    """All groups of table cards that make 15 with `card`, each group in
    canonical (card-number) order and the groups sorted. Empty when the card
    takes nothing."""
    tbl = sorted(table)
    if not tbl:
        return ()
    idx = index_groups(FIFTEEN - VALUE[card], tuple([VALUE[c] for c in tbl]))
    if not idx:
        return ()
    get = tbl.__getitem__
    return tuple([tuple(map(get, g)) for g in idx])


def groups_for_hand(
    hand: Sequence[Card], table: Iterable[Card]
) -> list[tuple[Card, tuple[Group, ...]]]:
    """`capture_groups` for each card of a hand, sorting the table once."""
    tbl = sorted(table)
    values = tuple([VALUE[c] for c in tbl])
    get = tbl.__getitem__
    out = []
    for card in hand:
        idx = index_groups(FIFTEEN - VALUE[card], values) if tbl else ()
        out.append((card, tuple([tuple(map(get, g)) for g in idx])))
    return out


def can_capture(card: int, table: Sequence[Card]) -> bool:
    """Whether `card` makes 15 with some group of `table` (cheaper than listing):
    bit s of `reachable` says that some group of the cards seen sums to s."""
    target = FIFTEEN - VALUE[card]
    reachable = 1
    for c in table:
        reachable |= (reachable << VALUE[c]) & _SUMS_UP_TO_15
    return target > 0 and bool(reachable >> target & 1)
