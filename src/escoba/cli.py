"""The `escoba` command. Each sub-command lives beside what it drives; this
module only gathers them."""

from __future__ import annotations

import random

import typer
from rich.console import Console

from escoba.engine import Phase, RuleSet, apply, legal_actions, new_game, shuffled_deck
from escoba.engine.cards import NOTATION
from escoba.simulate import simulate
from escoba.tournament import tournament_command
from escoba.web.cli import expire, migrate_command, serve

app = typer.Typer(
    name="escoba",
    help="Escoba del 15: simulate games, run robot tournaments and serve the web app.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _root() -> None:
    """Escoba del 15."""


app.command()(simulate)
app.command()(serve)
app.command(name="migrate")(migrate_command)
app.command()(expire)


@app.command()
def demo(seed: int = typer.Option(None, help="Seed for a reproducible deal.")) -> None:
    """Print one round of a simulated 2-player game, play by play."""
    console = Console()
    rng = random.Random(seed)
    state = new_game(RuleSet(), 2, shuffled_deck(rng))
    console.print(
        f"[bold]Ronda {state.round.number}[/] — reparte el jugador {state.round.dealer + 1}"
    )
    while state.phase is Phase.PLAYING:
        seat = state.round.turn
        action = rng.choice(legal_actions(state))
        state, _ = apply(state, seat, action)
        done = state.round.history[-1]
        line = f"Jugador {seat + 1}: {action}"
        if done.escoba:
            line += "  [bold green]¡ESCOBA![/]"
        console.print(line)
    summary = state.finished_rounds[-1]
    left = summary.leftover
    if left.cards:
        who = "nadie" if left.seat is None else f"jugador {left.seat + 1}"
        console.print(f"Quedan en la mesa {' '.join(NOTATION[c] for c in left.cards)}: para {who}")
    for side, score in enumerate(summary.scores):
        console.print(
            f"Jugador {side + 1}: {score.points} puntos "
            f"(escobas {score.escobas}, cartas {score.cards}, oros {score.diamonds}, "
            f"sietes {score.sevens}, siete de oros {'sí' if score.seven_of_diamonds else 'no'})"
        )


app.command("tournament")(tournament_command)


def main() -> None:  # pragma: no cover - console entry point
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
