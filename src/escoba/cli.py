"""The `escoba` command. Each sub-command lives beside what it drives; this
module only gathers them. An operator's tool: its help and its output are in
English, like the code (the game's own words, such as ¡ESCOBA!, stay
Spanish); the players' words are `escoba.words`'."""

from __future__ import annotations

import random

import typer
from rich.console import Console

from escoba.analysis.cli import analyse
from escoba.engine import Phase, RuleSet, apply, legal_actions, new_game, shuffled_deck
from escoba.engine.cards import NOTATION
from escoba.simulate import simulate
from escoba.tournament import tournament_command
from escoba.web.cli import expire, migrate_command, serve, worker

app = typer.Typer(
    name="escoba",
    help=(
        "Escoba del 15: simulate games, run robot tournaments, analyse recorded games"
        " and serve the web app."
    ),
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _root() -> None:
    """Escoba del 15."""


app.command()(simulate)
app.command()(serve)
app.command()(worker)
app.command(name="migrate")(migrate_command)
app.command()(expire)


@app.command()
def demo(seed: int = typer.Option(None, help="Seed for a reproducible deal.")) -> None:
    """Print one round of a simulated 2-player game, play by play."""
    console = Console()
    rng = random.Random(seed)
    state = new_game(RuleSet(), 2, shuffled_deck(rng))
    console.print(f"[bold]Round {state.round.number}[/] — player {state.round.dealer + 1} deals")
    while state.phase is Phase.PLAYING:
        seat = state.round.turn
        action = rng.choice(legal_actions(state))
        state, _ = apply(state, seat, action)
        done = state.round.history[-1]
        line = f"Player {seat + 1}: {action}"
        if done.escoba:
            line += "  [bold green]¡ESCOBA![/]"
        console.print(line)
    summary = state.finished_rounds[-1]
    left = summary.leftover
    if left.cards:
        who = "nobody" if left.seat is None else f"player {left.seat + 1}"
        console.print(f"Left on the table {' '.join(NOTATION[c] for c in left.cards)}: to {who}")
    for side, score in enumerate(summary.scores):
        console.print(
            f"Player {side + 1}: {score.points} points "
            f"(escobas {score.escobas}, cards {score.cards}, diamonds {score.diamonds}, "
            f"sevens {score.sevens}, 7 of diamonds {'yes' if score.seven_of_diamonds else 'no'})"
        )


app.command("tournament")(tournament_command)
app.command()(analyse)


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
