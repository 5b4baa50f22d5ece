"""The duplicate tournament: pairing, statistics, records and the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from escoba.cli import app
from escoba.engine import replay
from escoba.tournament import (
    DealOutcome,
    TournamentSpec,
    chain_wins,
    lineups,
    mean_ci95,
    percentile,
    play_deal,
    run_tournament,
    summarize,
)


def test_lineups_seat_every_robot_in_every_seat() -> None:
    assert lineups("a", "b", 2) == [("a", "b"), ("b", "a")]
    assert lineups("a", "b", 4) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    three = lineups("a", "b", 3)
    assert len(three) == 6
    for seat in range(3):
        assert sorted(lu[seat] for lu in three) == ["a", "a", "a", "b", "b", "b"]
    with pytest.raises(ValueError):
        lineups("a", "b", 5)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_deal_is_replayed_with_the_same_cards_in_every_lineup(players: int) -> None:
    outcome = play_deal(0, ("greedy", "random"), players, 21, seed=4, deal=3, with_records=True)
    assert len(outcome.records) == len(lineups("greedy", "random", players))
    records = [json.loads(line) for line in outcome.records]
    first_deals = {json.dumps(r["rounds"][0]["deals"][0]) for r in records}
    assert len(first_deals) == 1  # the same hands and table, seat by seat
    assert {r["rounds"][0]["dealer"] for r in records} == {3 % players}
    for record, lineup in zip(records, lineups("greedy", "random", players), strict=True):
        assert [p["name"] for p in record["players"]] == list(lineup)
        final = replay(record)  # validates every step and the score
        assert [s.points for s in final.finished_rounds[-1].scores] == outcome.side_points[
            records.index(record)
        ]


def _outcome(deal: int, a_points: int, b_points: int) -> DealOutcome:
    """A 2-player deal where robot a scored `a_points` in both seatings."""
    return DealOutcome(
        match=0,
        deal=deal,
        side_points=[[a_points, b_points], [b_points, a_points]],
        side_escobas=[[1, 0], [0, 1]],
        times={"a": [0.001, 0.002], "b": [0.003]},
    )


def test_statistics_of_a_small_match() -> None:
    outcomes = [_outcome(0, 6, 2), _outcome(1, 4, 4), _outcome(2, 5, 1)]
    summary = summarize(("a", "b"), 2, 21, outcomes)
    a, b = summary.figures
    assert a.points_per_round == pytest.approx(5.0)
    assert b.points_per_round == pytest.approx(7 / 3)
    assert a.margin == pytest.approx(8 / 3)
    assert b.margin == pytest.approx(-8 / 3)
    m, lo, hi = mean_ci95([4, 0, 4])
    assert a.margin_ci95 == pytest.approx((lo, hi))
    assert lo < m < hi
    assert a.escobas_per_round == pytest.approx(1.0)
    assert a.decision_ms["max"] == pytest.approx(2.0)
    assert a.decisions == 6 and b.decisions == 3


def test_games_to_the_target_chain_the_deals() -> None:
    # a scores 6 a round to b's 2: a reaches 21 on the 4th round (24 - 8)
    outcomes = [_outcome(d, 6, 2) for d in range(9)]
    wins, games = chain_wins(outcomes, lineups("a", "b", 2), 21)
    assert games == 4  # two complete games per seating, 1 round left over each
    assert wins == {"a": 4, "b": 0}
    # a tie at the top goes on until someone is ahead
    tied = [_outcome(d, 11, 11) for d in range(3)] + [_outcome(3, 0, 1)]
    wins, games = chain_wins(tied, lineups("a", "b", 2), 21)
    assert (wins, games) == ({"a": 0, "b": 2}, 2)


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 95) == 95.0
    assert percentile(values, 100) == 100.0
    assert percentile([], 50) == 0.0


def test_a_tournament_is_reproducible_and_the_same_in_parallel() -> None:
    spec = TournamentSpec(robots=("tito", "greedy", "random"), players=2, deals=6, seed=8)
    one = run_tournament(spec)
    assert [m.robots for m in one.matches] == [
        ("tito", "greedy"),
        ("tito", "random"),
        ("greedy", "random"),
    ]
    two = run_tournament(TournamentSpec(**{**_fields(spec), "jobs": 2}))
    for m1, m2 in zip(one.matches, two.matches, strict=True):
        for f1, f2 in zip(m1.figures, m2.figures, strict=True):
            assert (f1.points_per_round, f1.margin, f1.win_rate) == (
                f2.points_per_round,
                f2.margin,
                f2.win_rate,
            )


def _fields(spec: TournamentSpec) -> dict[str, object]:
    return {name: getattr(spec, name) for name in spec.__slots__}


def test_the_command_prints_json_and_writes_records(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    result = CliRunner().invoke(
        app,
        [
            "tournament",
            "--bots",
            "carmen,tito",
            "--players",
            "4",
            "--deals",
            "3",
            "--seed",
            "2",
            "--records",
            str(records),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["players"] == 4 and data["deals"] == 3
    (match,) = data["matches"]
    carmen = match["results"]["carmen"]
    for key in ("points_per_round", "margin_ci95", "win_rate", "escobas_per_round"):
        assert key in carmen
    assert set(carmen["decision_ms"]) == {"p50", "p95", "max"}
    lines = records.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3 * 2
    for line in lines:
        replay(json.loads(line))


def test_the_command_refuses_unknown_robots() -> None:
    result = CliRunner().invoke(app, ["tournament", "--bots", "luna,nobody", "--deals", "1"])
    assert result.exit_code != 0
    assert "nobody" in result.output


def test_the_cheater_can_be_benchmarked_but_not_seated() -> None:
    spec = TournamentSpec(robots=("cheater", "random"), players=2, deals=2, seed=1)
    result = run_tournament(spec)
    assert result.matches[0].figures[0].decisions > 0
