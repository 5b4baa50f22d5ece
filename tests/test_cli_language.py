"""The command line speaks one language: English, like the code and the
README (an operator's tool). Only the game's own words stay Spanish."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from escoba.cli import app

runner = CliRunner()

#: Spanish words the command line used to print beside English ones.
SPANISH = re.compile(
    r"\b(jugadores|jugador|partidas?|semilla|cuántas|escribe|puntos|meta|ronda|rondas|"
    r"reparte|sietes|oros|cartas|mesa|registros|tiempo|por|nadie|sí)\b",
    re.IGNORECASE,
)
ACCENTED = re.compile(r"[áéíóúñ¿]", re.IGNORECASE)
COMMANDS = ("simulate", "serve", "worker", "migrate", "expire", "demo", "tournament", "analyse")


def _spanish(text: str) -> list[str]:
    return SPANISH.findall(text) + ACCENTED.findall(text.replace("¡ESCOBA!", ""))


def test_every_command_is_in_the_gathering() -> None:
    names = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    assert set(COMMANDS) == names


@pytest.mark.parametrize("args", [["--help"], *([name, "--help"] for name in COMMANDS)])
def test_help_is_english(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert _spanish(result.output) == []


def test_simulate_and_demo_print_english() -> None:
    simulate = runner.invoke(app, ["simulate", "--games", "2", "--seed", "1"])
    assert simulate.exit_code == 0 and "games per second" in simulate.output
    demo = runner.invoke(app, ["demo", "--seed", "4"])
    assert demo.exit_code == 0 and "Round 1" in demo.output
    assert _spanish(simulate.output + demo.output) == []
    refused = runner.invoke(app, ["simulate", "--target", "20"])
    assert refused.exit_code != 0 and "the target is 15, 21, 30 or 31 points" in refused.output
