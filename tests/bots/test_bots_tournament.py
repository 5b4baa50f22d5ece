"""The duplicate tournament: pairing, statistics, records and the command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from escoba.bots import SEATABLE
from escoba.bots.luna import Luna
from escoba.cli import app
from escoba.engine import RuleSet, replay
from escoba.engine.seats import side_of
from escoba.tournament import (
    BENCHMARK_ONLY,
    FROZEN,
    DealOutcome,
    TournamentSpec,
    chain_wins,
    compare,
    contribution,
    default_out_name,
    lineup_match,
    lineups,
    mean_ci95,
    pair_match,
    parse_seeds,
    percentile,
    play_deal,
    rotations,
    run_tournament,
    summarize,
)

runner = CliRunner()


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
    match = pair_match("greedy", "random", players)
    outcome = play_deal(0, match, RuleSet(), seed=4, deal=3, with_records=True)
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


def _outcome(deal: int, a_points: int, b_points: int, seed: int = 0) -> DealOutcome:
    """A 2-player deal where robot a scored `a_points` in both seatings."""
    return DealOutcome(
        match=0,
        deal=deal,
        side_points=[[a_points, b_points], [b_points, a_points]],
        side_escobas=[[1, 0], [0, 1]],
        times={"a": [0.001, 0.002], "b": [0.003]},
        seed=seed,
    )


AB = pair_match("a", "b", 2)


def test_statistics_of_a_small_match() -> None:
    outcomes = [_outcome(0, 6, 2), _outcome(1, 4, 4), _outcome(2, 5, 1)]
    summary = summarize(AB, 21, outcomes)
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
    wins, games = chain_wins(outcomes, AB, 21)
    assert games == 4  # two complete games per seating, 1 round left over each
    assert wins == (4, 0)
    # a tie at the top goes on until someone is ahead
    tied = [_outcome(d, 11, 11) for d in range(3)] + [_outcome(3, 0, 1)]
    wins, games = chain_wins(tied, AB, 21)
    assert (wins, games) == ((0, 2), 2)


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 95) == 95.0
    assert percentile(values, 100) == 100.0
    assert percentile([], 50) == 0.0


def test_a_tournament_is_reproducible_and_the_same_in_parallel() -> None:
    spec = TournamentSpec(robots=("tito", "greedy", "random"), players=2, deals=6, seeds=(8,))
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
    result = runner.invoke(
        app,
        [
            "tournament",
            "--out",
            str(tmp_path / "figures.json"),
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
    result = runner.invoke(app, ["tournament", "--bots", "luna,nobody", "--deals", "1"])
    assert result.exit_code == 2
    assert "nobody" in result.output


def test_the_cheater_can_be_benchmarked_but_not_seated() -> None:
    spec = TournamentSpec(robots=("cheater", "random"), players=2, deals=2, seeds=(1,))
    result = run_tournament(spec)
    assert result.matches[0].figures[0].decisions > 0


def test_luna_of_2026_12_plays_in_benchmarks_and_is_never_seated() -> None:
    """The frozen Luna (issue 27's mark) is an entrant like any robot, with
    her own settings, and no table can seat her."""
    frozen = FROZEN["luna-2026-12"]()
    assert isinstance(frozen, Luna)
    assert (frozen.budget, frozen.max_worlds, frozen.beta, frozen.limit) == (0.15, 64, 25.0, 0.4)
    assert "luna-2026-12" in BENCHMARK_ONLY and "luna-2026-12" not in SEATABLE
    spec = TournamentSpec(robots=("luna-2026-12", "carmen"), players=2, deals=1, seeds=(1,))
    result = run_tournament(spec)
    assert result.matches[0].figures[0].decisions > 0
    unknown = runner.invoke(app, ["tournament", "--bots", "luna-2027,carmen", "--deals", "1"])
    assert unknown.exit_code == 2 and "luna-2026-12" in unknown.output


# --------------------------------------------------------------------------
# Lineups at 3 and 4 (a robot against two others, a robot as a partner)


@pytest.mark.parametrize("lineup", [("l", "c"), ("l", "c", "c"), ("l", "c", "d", "e")])
def test_a_lineup_rotates_every_robot_through_every_seat(lineup: tuple[str, ...]) -> None:
    n = len(lineup)
    seatings = rotations(lineup)
    assert seatings[0] == lineup and len(seatings) == n
    for position in range(n):
        assert sorted((seatings.index(s) + position) % n for s in seatings) == list(range(n))
        # robot `position` of the lineup sits at seat position + k in rotation k
        for k, seating in enumerate(seatings):
            assert seating[(position + k) % n] == lineup[position]
    if n == 4:  # partners stay partners: the first robot always sits with the third
        for seating in seatings:
            first, third = seating.index("l"), seating.index("d")
            assert side_of(first, 4) == side_of(third, 4)


def test_lineup_teams_are_the_first_robots_side_against_the_rest() -> None:
    three = lineup_match(("luna", "carmen", "carmen"))
    assert three.teams == ("luna", "carmen,carmen")
    assert three.players == 3 and len(three.seatings) == 3
    for seating, owners in zip(three.seatings, three.team_of, strict=True):
        assert [seating[s] for s in range(3) if owners[s] == 0] == ["luna"]
    four = lineup_match(("luna", "carmen", "carmen", "carmen"))
    assert four.teams == ("luna+carmen", "carmen+carmen")
    for seating, owners in zip(four.seatings, four.team_of, strict=True):
        hero_side = owners.index(0)
        assert sorted(seating[s] for s in range(4) if side_of(s, 4) == hero_side) == [
            "carmen",
            "luna",
        ]
    base = lineup_match(("carmen",) * 4, kind="baseline")
    assert base.teams == ("carmen+carmen", "carmen+carmen (other side)")
    assert lineup_match(("a", "b")).seatings == tuple(lineups("a", "b", 2))
    with pytest.raises(ValueError):
        lineup_match(("a",))


@pytest.mark.parametrize(
    "lineup", [("greedy", "random", "random"), ("random", "greedy", "greedy", "greedy")]
)
def test_a_lineup_deal_is_the_same_cards_in_every_rotation(lineup: tuple[str, ...]) -> None:
    match = lineup_match(lineup)
    outcome = play_deal(0, match, RuleSet(), seed=3, deal=2, with_records=True)
    records = [json.loads(line) for line in outcome.records]
    assert len(records) == len(lineup)
    assert len({json.dumps(r["rounds"][0]["deals"][0]) for r in records}) == 1
    for li, record in enumerate(records):
        assert [p["name"] for p in record["players"]] == list(match.seatings[li])
        assert record["tournament"]["match"] == match.label
        final = replay(record)
        assert [s.points for s in final.finished_rounds[-1].scores] == outcome.side_points[li]
    summary = summarize(match, 21, [outcome])
    hero = summary.figures[0]
    # the hero's points: its side's, averaged over the rotations
    players = len(lineup)
    expected = sum(outcome.side_points[k][side_of(k, players)] for k in range(players)) / players
    assert hero.points_per_round == pytest.approx(expected)
    field = [
        sum(p for sd, p in enumerate(outcome.side_points[k]) if sd != side_of(k, players))
        / (len(outcome.side_points[k]) - 1)
        for k in range(players)
    ]
    assert hero.margin == pytest.approx(expected - sum(field) / players)


def test_a_deterministic_baseline_scores_nothing_and_the_contribution_is_the_margin() -> None:
    spec = TournamentSpec(
        lineup_list=(("random", "greedy", "greedy", "greedy"),),
        baseline="greedy",
        deals=4,
        seeds=(1, 2),
    )
    result = run_tournament(spec)
    main, base = result.matches
    assert main.match.kind == "lineup" and base.match.kind == "baseline"
    assert base.match.lineup == ("greedy",) * 4
    # four greedy robots (no randomness) play every rotation alike
    assert base.figures[0].margin == 0.0
    assert main.contribution is not None
    assert main.contribution.margin == pytest.approx(main.figures[0].margin)
    assert main.contribution.deals == 8
    assert len(main.contribution_by_seed) == 2
    data = result.to_dict()
    assert data["matches"][0]["contribution"]["robot"] == "random"
    assert data["matches"][0]["contribution"]["instead_of"] == "greedy"
    assert set(data["matches"][0]["contribution"]["per_seed"]) == {"1", "2"}


def test_the_contribution_is_the_mean_difference_deal_by_deal() -> None:
    match = lineup_match(("a", "b"))
    base_match = lineup_match(("b", "b"), kind="baseline")
    main = summarize(match, 21, [_outcome(0, 6, 2), _outcome(1, 3, 3)])  # margins 4, 0
    base_outcomes = [_outcome(0, 5, 3), _outcome(1, 1, 3)]  # margins 2, -2
    for o in base_outcomes:
        o.times = {team: [0.001] for team in base_match.teams}
    base = summarize(base_match, 21, base_outcomes)
    c = contribution(main, base)
    assert c.margin == pytest.approx(2.0)  # (4 - 2 + 0 + 2) / 2
    _, lo, hi = mean_ci95([2.0, 2.0])
    assert c.margin_ci95 == pytest.approx((lo, hi))


# --------------------------------------------------------------------------
# Several seeds pooled


def test_pooled_seeds_are_one_sample_of_every_deal_pair() -> None:
    seed_one = [_outcome(0, 6, 2, seed=1), _outcome(1, 4, 4, seed=1)]  # margins 4, 0
    seed_two = [_outcome(0, 5, 1, seed=2), _outcome(1, 2, 3, seed=2), _outcome(2, 3, 3, seed=2)]
    pooled = summarize(AB, 21, seed_one + seed_two)  # margins 4, 0, 4, -1, 0
    m, lo, hi = mean_ci95([4, 0, 4, -1, 0])
    assert pooled.figures[0].margin == pytest.approx(m)
    assert pooled.figures[0].margin_ci95 == pytest.approx((lo, hi))
    assert pooled.deals == 5 and pooled.seeds == (1, 2)
    assert set(pooled.margins) == {(1, 0), (1, 1), (2, 0), (2, 1), (2, 2)}
    # each seed's deals are chained into games on their own
    wins, games = chain_wins([_outcome(d, 11, 0, seed=s) for s in (1, 2) for d in range(3)], AB, 21)
    assert (wins, games) == ((4, 0), 4)  # 22 after two rounds, per seating and seed


def test_a_run_of_several_seeds_pools_the_runs_of_each() -> None:
    both = run_tournament(TournamentSpec(robots=("greedy", "tito"), deals=5, seeds=(3, 4)))
    (res,) = both.matches
    assert [s.seeds for s in res.by_seed] == [(3,), (4,)]
    for s in (3, 4):
        alone = run_tournament(TournamentSpec(robots=("greedy", "tito"), deals=5, seeds=(s,)))
        mine, theirs = res.by_seed[(3, 4).index(s)], alone.matches[0]
        for f1, f2 in zip(mine.figures, theirs.figures, strict=True):
            assert {**f1.to_dict(), "decision_ms": 0} == {**f2.to_dict(), "decision_ms": 0}
    margins = [s.figures[0].margin for s in res.by_seed]
    assert res.figures[0].margin == pytest.approx(sum(margins) / 2)
    data = both.to_dict()
    assert data["seeds"] == [3, 4]
    assert set(data["matches"][0]["per_seed"]) == {"3", "4"}


def test_seeds_and_file_names() -> None:
    assert parse_seeds("2026,7, 11") == (2026, 7, 11)
    for bad in ("", "1,x", "1,1", "1.5"):
        with pytest.raises(ValueError):
            parse_seeds(bad)
    spec = TournamentSpec(robots=("luna", "carmen"), deals=100, seeds=(2026, 7))
    assert default_out_name(spec) == "tournament_luna-carmen_2p_100deals_seeds-2026-7.json"
    house = TournamentSpec(
        lineup_list=(("luna", "carmen", "carmen"),),
        deals=10,
        rules=RuleSet(target=31, setenta=True),
    )
    assert default_out_name(house) == (
        "tournament_lineup-luna-carmen-carmen_10deals_seeds-1_to31-setenta.json"
    )


def test_compare_gives_the_change_of_each_margin() -> None:
    old = {
        "matches": [
            {"robots": ["a", "b"], "results": {"a": {"margin": 0.5, "margin_ci95": [0.4, 0.6]}}}
        ]
    }
    new = {
        "matches": [
            {
                "label": "a vs b",
                "results": {"a": {"margin": 0.8, "margin_ci95": [0.5, 1.1]}},
            },
            {"label": "a vs c", "results": {"a": {"margin": 1.0, "margin_ci95": [0.9, 1.1]}}},
        ]
    }
    (change,) = compare(old, new)
    assert (change.label, change.team) == ("a vs b", "a")
    assert change.change == pytest.approx(0.3)
    half = (0.1**2 + 0.3**2) ** 0.5
    assert change.change_ci95 == pytest.approx((0.3 - half, 0.3 + half))


# --------------------------------------------------------------------------
# The command's options


def _run(*args: str) -> Any:
    return runner.invoke(app, ["tournament", *args])


def test_the_command_writes_its_figures_beside_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = _run("--bots", "greedy,random", "--deals", "3", "--seeds", "5,6")
    assert result.exit_code == 0, result.output
    path = tmp_path / "tournament_greedy-random_2p_3deals_seeds-5-6.json"
    assert path.name in " ".join(result.output.split()) or "figures:" in result.output
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "escoba-tournament/2"
    assert data["seeds"] == [5, 6] and data["deals"] == 3
    assert data["rules"] == RuleSet().to_dict() and data["rules_in_words"] == "site rules"
    (match,) = data["matches"]
    assert match["deals"] == 6 and set(match["per_seed"]) == {"5", "6"}
    for seed in ("5", "6", "all"):
        assert seed in result.output
    # a second run compared with the first: every change is zero
    again = _run(
        "--bots",
        "greedy,random",
        "--deals",
        "3",
        "--seeds",
        "5,6",
        "--compare",
        str(path),
        "--out",
        str(tmp_path / "again.json"),
    )
    assert again.exit_code == 0, again.output
    assert "Margins against" in again.output and "+0.000 ± " in again.output


def test_the_command_plays_under_the_house_rules(tmp_path: Path) -> None:
    records = tmp_path / "rounds.jsonl"
    out = tmp_path / "figures.json"
    result = _run(
        "--bots", "greedy,random", "--deals", "2", "--players", "3", "--target", "15",
        "--setenta", "--ties", "each", "--compulsory", "--thirty-single",
        "--records", str(records), "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    rules = RuleSet(
        target=15, setenta=True, ties="each", compulsory_capture=True, thirty_is_double=False
    )
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["rules"] == rules.to_dict() and data["target"] == 15
    assert "setenta" in data["rules_in_words"]
    assert "house rules: setenta, ties_each" in " ".join(result.output.split())
    lines = records.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 * 6
    for line in lines:
        record = json.loads(line)
        assert record["rules"] == rules.to_dict()
        assert replay(record).rules == rules


def test_the_command_plays_lineups_with_a_baseline(tmp_path: Path) -> None:
    out = tmp_path / "lineups.json"
    result = _run(
        "--lineup", "random,greedy,greedy", "--lineup", "random,greedy,greedy,greedy",
        "--baseline", "greedy", "--deals", "2", "--out", str(out), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data == json.loads(out.read_text(encoding="utf-8"))
    assert data["lineups"] == [
        ["random", "greedy", "greedy"],
        ["random", "greedy", "greedy", "greedy"],
    ]
    kinds = [(m["kind"], m["players"], m["plays_per_deal"]) for m in data["matches"]]
    assert kinds == [("lineup", 3, 3), ("baseline", 3, 3), ("lineup", 4, 4), ("baseline", 4, 4)]
    three, _, four, _ = data["matches"]
    assert three["teams"] == ["random", "greedy,greedy"]
    assert four["teams"] == ["random+greedy", "greedy+greedy"]
    for match in (three, four):
        lo, hi = match["contribution"]["margin_ci95"]
        assert lo <= match["contribution"]["margin"] <= hi
        assert (
            match["results"][match["teams"][0]]["margin"]
            == -match["results"][match["teams"][1]]["margin"]
        )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ties", "both"], "'nobody' or to 'each'"),
        (["--target", "20"], "the target is 15, 21, 30 or 31"),
        (["--players", "5"], "2, 3 or 4 players"),
        (["--seeds", "1,x"], "whole numbers"),
        (["--seeds", "7,7"], "different"),
        (["--seed", "1", "--seeds", "2,3"], "not both"),
        (["--deals", "0"], "at least one deal"),
        (["--lineup", "luna"], "2, 3 or 4 robots"),
        (["--lineup", "carmen,carmen,carmen,carmen,carmen"], "2, 3 or 4 robots"),
        (["--lineup", "carmen,nobody"], "nobody"),
        (["--lineup", "carmen,greedy", "--players", "3"], "lineup's length"),
        (["--baseline", "carmen"], "give a lineup"),
        (["--lineup", "carmen,greedy", "--baseline", "nobody"], "nobody"),
        (["--bots", "carmen,carmen"], "two different robots"),
        (["--compare", "/nonexistent/old.json"], "--compare"),
    ],
)
def test_the_command_refuses_bad_values_with_a_usage_error(
    args: list[str], message: str, tmp_path: Path
) -> None:
    result = _run("--deals", "1", "--out", str(tmp_path / "x.json"), *args)
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.replace("│", " ").split())
    assert not (tmp_path / "x.json").exists()


def test_with_json_the_comparison_goes_to_stderr(tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    args = ["--bots", "greedy,random", "--deals", "2", "--json"]
    assert _run(*args, "--out", str(first)).exit_code == 0
    result = _run(*args, "--out", str(tmp_path / "second.json"), "--compare", str(first))
    assert result.exit_code == 0, result.output
    now, before = json.loads(result.stdout), json.loads(first.read_text(encoding="utf-8"))
    assert (
        now["matches"][0]["results"]["greedy"]["margin"]
        == (before["matches"][0]["results"]["greedy"]["margin"])
    )
    assert "Margins against" in result.stderr and "greedy vs random" in result.stderr
