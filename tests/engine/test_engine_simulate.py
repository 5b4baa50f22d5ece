"""`escoba simulate`, through the command line as a user runs it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from escoba.cli import app
from escoba.engine import Phase, RuleSet, replay, to_record
from escoba.simulate import play_game

runner = CliRunner()


def stable_lines(output: str) -> list[str]:
    """The summary without the wall-clock lines."""
    return [
        line
        for line in output.splitlines()
        if not line.startswith(("time:", "games per second:", "records:"))
    ]


@pytest.mark.parametrize(("players", "target"), [(2, 15), (3, 21), (4, 31)])
def test_simulate_writes_one_valid_record_per_game(
    tmp_path: Path, players: int, target: int
) -> None:
    out = tmp_path / "games.jsonl"
    result = runner.invoke(
        app,
        [
            "simulate",
            "--players",
            str(players),
            "--games",
            "6",
            "--seed",
            "5",
            "--target",
            str(target),
            "--records",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6
    for number, line in enumerate(lines, 1):
        record = json.loads(line)
        assert record["format"] == "escoba-record/1"
        assert record["target"] == target
        assert len(record["players"]) == players
        final = replay(record)
        assert final.phase is Phase.GAME_OVER
        assert final.result is not None and final.result.winners
        assert max(final.totals) >= target
        # the seed kept in the record plays the same game again
        assert record["simulation"]["game"] == number
        again = play_game(
            RuleSet(target=target), players, random.Random(record["simulation"]["seed"])
        )
        assert {**to_record(again), "simulation": record["simulation"]} == record
    assert "6 games" in result.output
    assert "escobas per round" in result.output


def test_simulate_with_a_seed_is_reproducible(tmp_path: Path) -> None:
    runs = []
    for name in ("a.jsonl", "b.jsonl"):
        path = tmp_path / name
        result = runner.invoke(
            app,
            ["simulate", "--players", "4", "--games", "5", "--seed", "42", "--records", str(path)],
        )
        assert result.exit_code == 0, result.output
        runs.append((stable_lines(result.output), path.read_text(encoding="utf-8")))
    assert runs[0] == runs[1]
    other = runner.invoke(app, ["simulate", "--players", "4", "--games", "5", "--seed", "43"])
    assert other.exit_code == 0
    assert stable_lines(other.output) != runs[0][0]


def test_simulate_summary_adds_up(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    result = runner.invoke(
        app, ["simulate", "--players", "2", "--games", "4", "--seed", "9", "--records", str(path)]
    )
    assert result.exit_code == 0
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    rounds = sum(len(r["rounds"]) for r in records)
    escobas = sum(
        s["escobas"] for r in records for rnd in r["rounds"] for s in rnd["score"]["sides"]
    )
    assert f"rounds: {rounds} " in result.output
    assert f"escobas per round: {escobas / rounds:.3f}" in result.output


@pytest.mark.parametrize(
    "args",
    [["--players", "5"], ["--players", "1"], ["--target", "20"], ["--games", "0"]],
)
def test_simulate_refuses_bad_options(args: list[str]) -> None:
    result = runner.invoke(app, ["simulate", *args])
    assert result.exit_code != 0


def test_simulate_plays_under_the_house_rules_it_is_given(tmp_path: Path) -> None:
    out = tmp_path / "house.jsonl"
    result = runner.invoke(
        app,
        [
            "simulate",
            "--players",
            "3",
            "--games",
            "4",
            "--seed",
            "11",
            "--target",
            "30",
            "--setenta",
            "--ties",
            "each",
            "--compulsory",
            "--thirty-single",
            "--records",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    rules = RuleSet(
        target=30, setenta=True, ties="each", compulsory_capture=True, thirty_is_double=False
    )
    # the summary names the rules, and la setenta's line replaces the sevens'
    assert "house rules: setenta, ties_each, compulsory_capture, thirty_single" in " ".join(
        result.output.split()
    )
    assert "setenta" in result.output
    for line in out.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        assert record["rules"] == rules.to_dict()
        assert replay(record).rules == rules
        for rnd in record["rounds"]:
            assert all("setenta" in s for s in rnd["score"]["sides"])
        # the seed kept in the record plays the same game under the same rules
        again = play_game(rules, 3, random.Random(record["simulation"]["seed"]))
        assert {**to_record(again), "simulation": record["simulation"]} == record


@pytest.mark.parametrize(
    ("flag", "rules"),
    [
        ("--setenta", RuleSet(setenta=True)),
        ("--compulsory", RuleSet(compulsory_capture=True)),
        ("--thirty-single", RuleSet(thirty_is_double=False)),
    ],
)
def test_each_house_rule_flag_alone(tmp_path: Path, flag: str, rules: RuleSet) -> None:
    out = tmp_path / "g.jsonl"
    result = runner.invoke(
        app, ["simulate", "--games", "2", "--seed", "3", flag, "--records", str(out)]
    )
    assert result.exit_code == 0, result.output
    for line in out.read_text(encoding="utf-8").splitlines():
        assert json.loads(line)["rules"] == rules.to_dict()


def test_simulate_names_the_site_rules_by_default() -> None:
    result = runner.invoke(app, ["simulate", "--games", "2", "--seed", "3"])
    assert result.exit_code == 0
    assert "site rules" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ties", "some"], "'nobody' or to 'each'"),
        (["--ties", ""], "'nobody' or to 'each'"),
        (["--target", "20"], "the target is 15, 21, 30 or 31 points"),
        (["--setenta", "yes"], "unexpected extra argument"),
    ],
)
def test_simulate_refuses_bad_rule_options_with_a_usage_error(
    args: list[str], message: str
) -> None:
    result = runner.invoke(app, ["simulate", "--games", "1", *args])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split()).lower()
