"""Properties over whole random games (seeded random players): the
conformance checks of STYLE.md after every step."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from engine_positions import all_cards_of, play_random_game, random_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from escoba.engine import (
    Claim,
    GameState,
    Phase,
    RecordError,
    end_game,
    replay,
    to_record,
    view,
)
from escoba.engine.cards import FIFTEEN, VALUE, parse_card
from escoba.engine.events import CardPlayed, FifteenClaimed, TableTaken
from escoba.engine.state import EndReason

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.sampled_from([2, 3, 4])


def json_strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in json_strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in json_strings(v)]
    return []


def leftover_of(state: GameState) -> tuple[int, ...]:
    """Cards a round left to nobody: they leave the state with the summary."""
    summary = state.last_summary
    if state.phase is Phase.PLAYING or summary is None or summary.leftover.seat is not None:
        return ()
    return tuple(summary.leftover.cards)


def check_views_hide(state: GameState, public: set[int]) -> None:
    rs = state.round
    for seat in range(state.players):
        hidden = {int(c) for c in rs.deck}
        for other in range(state.players):
            if other != seat:
                hidden |= {int(c) for c in rs.hands[other]}
        hidden -= public
        shown = json_strings(json.loads(json.dumps(view(state, seat).to_dict())))
        leaked = {s for s in shown if _is_card(s) and int(parse_card(s)) in hidden}
        assert not leaked, f"seat {seat} sees {leaked}"


def _is_card(text: str) -> bool:
    try:
        parse_card(text)
    except ValueError:
        return False
    return True


@SETTINGS
@given(seed=seeds, players=player_counts)
def test_random_games_keep_every_rule_at_every_step(seed: int, players: int) -> None:
    public: set[int] = set()  # cards shown this round (and the last round's leftover)
    steps = 0
    final: GameState | None = None
    for before, seat, action, after, events in random_game(seed, players, target=15):
        steps += 1
        final = after
        # 40 cards at every step (a leftover nobody took is in the summary)
        assert sorted([*all_cards_of(after), *leftover_of(after)]) == list(range(40))
        if seat is None:  # a new round: the deal passes on, the next seat starts
            assert after.round.dealer == (before.round.dealer + 1) % players
            assert after.round.turn == (after.round.dealer + 1) % players
            public = {int(c) for c in before.round.table}
            public |= {int(c) for s in before.finished_rounds for c in s.leftover.cards}
        else:
            assert seat == before.round.turn
            assert action is not None
            if isinstance(action, Claim):
                assert after.round.turn == seat  # the claimer still plays
            elif after.phase is Phase.PLAYING:
                assert after.round.turn == (seat + 1) % players
        for event in events:
            if isinstance(event, CardPlayed) and event.capture:
                assert VALUE[event.card] + sum(VALUE[c] for c in event.capture) == FIFTEEN
            elif isinstance(event, FifteenClaimed):
                assert sum(VALUE[c] for c in event.cards) == FIFTEEN
            elif isinstance(event, TableTaken):
                assert sum(VALUE[c] for c in event.cards) == FIFTEEN * event.escobas or (
                    event.escobas == 1 and after.rules.thirty_is_double is False
                )
        if after.phase is not Phase.PLAYING and seat is not None:
            summary = after.finished_rounds[-1]
            assert sum(VALUE[c] for c in summary.leftover.cards) % FIFTEEN == 10
            assert not any(after.round.hands)  # every dealt card was played
            expected = (
                len(summary.deals) == (40 - 4) // (3 * players)
                and summary.deals[-1].last
                and not any(d.last for d in summary.deals[:-1])
            )
            assert expected
        rs = after.round
        public |= {int(c) for c in rs.table}
        public |= {int(c) for a in rs.history for c in (a.card, *a.cards)}
        if rs.table_take is not None:
            public |= {int(c) for c in rs.table_take.cards}
        check_views_hide(after, public)
    assert final is not None and final.phase is Phase.GAME_OVER
    assert steps > 0


@SETTINGS
@given(seed=seeds, players=player_counts)
def test_record_replays_to_the_same_final_state(seed: int, players: int) -> None:
    final = play_random_game(seed, players)
    record = to_record(final)
    assert replay(record) == final
    through_json = json.loads(json.dumps(record))
    assert through_json == record
    assert replay(through_json) == final
    assert final.result is not None
    assert record["result"] == {"winners": list(final.result.winners), "reason": "target"}
    assert record["rounds"][-1]["totals"] == list(final.totals)


@SETTINGS
@given(seed=seeds, players=player_counts, cut=st.integers(min_value=0, max_value=300))
def test_a_game_cut_short_replays(seed: int, players: int, cut: int) -> None:
    state: GameState | None = None
    for i, (_, _, _, after, _) in enumerate(random_game(seed, players, target=15)):
        if after.phase is Phase.GAME_OVER:
            break
        state = after
        if i >= cut:
            break
    assert state is not None
    rng = random.Random(seed)
    reason = rng.choice([EndReason.ABANDON, EndReason.ABSENCE, EndReason.EXPIRED])
    loser = None if reason is EndReason.EXPIRED else rng.randrange(players)
    end, _ = end_game(state, reason, loser)
    record = json.loads(json.dumps(to_record(end)))
    again = replay(record)
    assert again.result == end.result
    assert to_record(again) == to_record(end)


def _tamper_card(record: dict[str, Any], rng: random.Random) -> None:
    """Change the card of one play to another card."""
    plays = [a for r in record["rounds"] for a in r["actions"] if a["type"] == "play"]
    play = rng.choice(plays)
    old = parse_card(play["card"])
    play["card"] = str(parse_card(f"{old.value % 10 + 1}{old.suit}"))


def _tamper_escoba(record: dict[str, Any], rng: random.Random) -> None:
    actions = [a for r in record["rounds"] for a in r["actions"]]
    action = rng.choice(actions)
    action["escoba"] = not action["escoba"]


def _tamper_score(record: dict[str, Any], rng: random.Random) -> None:
    rnd = rng.choice(record["rounds"])
    side = rng.choice(rnd["score"]["sides"])
    key = rng.choice(["points", "cards", "escobas", "diamonds", "sevens"])
    side[key] += 1


def _tamper_total(record: dict[str, Any], rng: random.Random) -> None:
    rnd = rng.choice(record["rounds"])
    rnd["totals"][rng.randrange(len(rnd["totals"]))] -= 1


def _tamper_deal(record: dict[str, Any], rng: random.Random) -> None:
    """Swap a card between two seats' hands in one deal."""
    rnd = rng.choice(record["rounds"])
    deal = rng.choice(rnd["deals"])
    a, b = rng.sample(sorted(deal["hands"]), 2)
    i, j = rng.randrange(3), rng.randrange(3)
    deal["hands"][a][i], deal["hands"][b][j] = deal["hands"][b][j], deal["hands"][a][i]


TAMPERS = [_tamper_card, _tamper_escoba, _tamper_score, _tamper_total, _tamper_deal]


@SETTINGS
@given(seed=seeds, players=player_counts, tamper=st.sampled_from(TAMPERS))
def test_replay_refuses_a_tampered_record(seed: int, players: int, tamper: Any) -> None:
    record = to_record(play_random_game(seed, players))
    bad = copy.deepcopy(record)
    tamper(bad, random.Random(seed))
    assert bad != record
    with pytest.raises(RecordError):
        replay(bad)


@SETTINGS
@given(seed=seeds, players=player_counts)
def test_replay_refuses_a_claim_of_another_card(seed: int, players: int) -> None:
    record = to_record(play_random_game(seed, players))
    claims = [a for r in record["rounds"] for a in r["actions"] if a["type"] == "claim"]
    if not claims:
        return
    claim = random.Random(seed).choice(claims)
    left = parse_card(claim["cards"][0])
    # the same value in another suit that is not among the cards taken
    others = [f"{left.value}{s}" for s in "DHSC" if f"{left.value}{s}" not in claim["cards"]]
    if not others:  # every card of that value was taken: nothing to swap in
        return
    claim["cards"][0] = others[0]
    with pytest.raises(RecordError):
        replay(record)


def test_random_players_reach_claims_and_leftovers() -> None:
    """The random players do reach claims and leftovers (the properties above
    would pass vacuously otherwise)."""
    kinds: set[str] = set()
    for seed in range(20):
        final = play_random_game(seed, 2 + seed % 3)
        for summary in final.finished_rounds:
            kinds |= {a.kind for a in summary.actions}
            if summary.leftover.cards:
                kinds.add("leftover")
            if summary.table_take is not None:
                kinds.add("table_take")
    assert {"play", "claim", "leftover"} <= kinds
