"""`escoba analyse`: a simulated record's rounds, for people and for
programs, and clear refusals of what is not a record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from escoba.analysis import RoundAnalysis, say_reason
from escoba.cli import app
from escoba.engine import replay, to_record

from .helpers import random_round, robot

runner = CliRunner()


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two games of a round each, at two and at three players, as the
    engine writes them (RECORD.md)."""
    path = tmp_path_factory.mktemp("analyse") / "games.jsonl"
    games = [
        to_record(random_round(2, seed=90), names=["Ana", "Beto"]),
        to_record(random_round(3, seed=91), names=["Ana", "Beto", "Carmen"]),
    ]
    path.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
    return path


def test_a_simulated_game_is_analysed(tmp_path: Path) -> None:
    """`escoba simulate --records` writes what `escoba analyse` reads: every
    round told, and the game's points given away round by round."""
    path = tmp_path / "simulated.jsonl"
    simulate = ["simulate", "--games", "1", "--seed", "5", "--target", "15"]
    done = runner.invoke(app, [*simulate, "--records", str(path)])
    assert done.exit_code == 0, done.output
    result = runner.invoke(app, ["analyse", str(path), "--worlds", "2"])
    assert result.exit_code == 0, result.output
    (rounds,) = rounds_of(path)
    assert rounds > 1
    assert [f"Round {k} " in result.stdout for k in range(1, rounds + 2)] == [True] * rounds + [
        False
    ]
    assert "Points given away, round by round" in result.stdout


def rounds_of(path: Path) -> list[int]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [len(replay(json.loads(line)).finished_rounds) for line in lines]


def test_the_json_holds_every_finished_round_of_every_game(records: Path) -> None:
    result = runner.invoke(app, ["analyse", str(records), "--json", "--worlds", "3"])
    assert result.exit_code == 0, result.output
    games = [json.loads(line) for line in result.stdout.splitlines()]
    assert [g["line"] for g in games] == [1, 2]
    assert [len(g["rounds"]) for g in games] == rounds_of(records)
    assert [g["players"] for g in games] == [["Ana", "Beto"], ["Ana", "Beto", "Carmen"]]
    for game in games:
        for data in game["rounds"]:
            analysis = RoundAnalysis.from_json(data)
            assert analysis.evaluator.settings and dict(analysis.evaluator.settings)["worlds"] == 3
        assert [s["seat"] for s in game["game"]] == list(range(len(game["players"])))


def test_the_analysis_is_printed_for_people_in_the_language_asked(records: Path) -> None:
    english = runner.invoke(app, ["analyse", str(records), "--worlds", "3"])
    assert english.exit_code == 0, english.output
    text = english.stdout
    assert "Round 1" in text and "line 1" in text and "line 2" in text
    assert "Luna would have" in text or "the best play" in text
    assert "Ana" in text and "Carmen" in text
    spanish = runner.invoke(app, ["analyse", str(records), "--worlds", "3", "--lang", "es"])
    assert spanish.exit_code == 0 and "en la mesa" in spanish.stdout
    assert "regaló" in spanish.stdout
    portuguese = runner.invoke(
        app, ["analyse", str(records), "--worlds", "3", "--lang", "pt_BR", "--deck", "spanish"]
    )
    assert portuguese.exit_code == 0 and "na mesa" in portuguese.stdout


def test_workers_give_the_same_analysis(records: Path) -> None:
    alone = runner.invoke(app, ["analyse", str(records), "--json", "--worlds", "3"])
    shared = runner.invoke(app, ["analyse", str(records), "--json", "--worlds", "3", "--jobs", "2"])
    assert shared.exit_code == 0, shared.output
    assert shared.stdout == alone.stdout


def test_a_bad_line_is_told_and_the_others_are_analysed(records: Path, tmp_path: Path) -> None:
    lines = records.read_text(encoding="utf-8").splitlines()
    broken = json.loads(lines[1])
    broken["rounds"][0]["actions"].reverse()
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join([lines[0], "{not json", json.dumps(broken), ""]), encoding="utf-8")
    result = runner.invoke(app, ["analyse", str(path), "--json", "--worlds", "3"])
    assert result.exit_code == 1
    assert "line 2: not JSON" in result.stderr
    assert "line 3: not a valid escoba-record/1 game" in result.stderr
    assert [json.loads(line)["line"] for line in result.stdout.splitlines()] == [1]


def test_standard_input_is_read_with_a_dash(records: Path) -> None:
    line = records.read_text(encoding="utf-8").splitlines()[0]
    result = runner.invoke(app, ["analyse", "-", "--json", "--worlds", "3"], input=line + "\n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["line"] == 1


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["no-such-file.jsonl"], "No such file"),
        (["{records}", "--lang", "fr"], "the languages are es, pt_BR, en"),
        (["{records}", "--deck", "tarot"], "the deck designs are french, brazilian, spanish"),
        (["{records}", "--worlds", "1"], "--worlds"),
    ],
)
def test_bad_arguments_are_refused_plainly(records: Path, args: list[str], says: str) -> None:
    result = runner.invoke(app, ["analyse", *(a.format(records=records) for a in args)])
    assert result.exit_code == 2
    assert says in result.output


@pytest.fixture(scope="module")
def greedy_records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`records`' two games played by the greedy robot: plays that give
    points away whatever the worlds drawn (Carmen's rarely do, so a test
    that needs one leant on the luck of 12 worlds)."""
    path = tmp_path_factory.mktemp("analyse") / "greedy.jsonl"
    greedy = robot("greedy")
    games = [
        to_record(random_round(2, seed=90, chooser=greedy), names=["Ana", "Beto"]),
        to_record(random_round(3, seed=91, chooser=greedy), names=["Ana", "Beto", "Carmen"]),
    ]
    path.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
    return path


def test_the_costly_plays_are_printed_with_their_reasons_and_lines(greedy_records: Path) -> None:
    records = greedy_records
    result = runner.invoke(app, ["analyse", str(records), "--worlds", "12", "--lang", "es"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    games = [json.loads(line) for line in records.read_text(encoding="utf-8").splitlines()]
    analysed = runner.invoke(app, ["analyse", str(records), "--json", "--worlds", "12"])
    steps = [
        RoundAnalysis.from_json(r).steps
        for game in map(json.loads, analysed.stdout.splitlines())
        for r in game["rounds"]
    ]
    costly = [s for round_steps in steps for s in round_steps if s.given_away > 0]
    assert len(games) == 2 and costly, "12 worlds are noisy: some play gives points away"
    assert "Why the costly plays cost" in text
    for step in costly:
        assert f"step {step.step} (" in text
        for reason in step.reasons:
            # said of the player, by name: the command line is nobody's «you»
            about = say_reason(reason, ["Ana", "Beto", "Carmen"], "es", about=step.seat)
            assert about in text
    assert not any(you in text for you in ("Dejaste", "Te llevaste", "Podías"))
    assert "by line, " in text and "seven_of_diamonds " in text and "leftover " in text
