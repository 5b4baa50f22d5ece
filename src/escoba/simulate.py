"""`escoba simulate`: whole games between random players, for statistics, for
checking the engine at scale and for producing escoba-record/1 files.

Every game draws its own seed from the run's seed, so a run with `--seed` is
the same run every time (only the wall time differs), and one game of it can
be replayed alone from the seed kept in its record.

The rules are the site's unless options choose the house rules of RULES.md
(«Scoring a round», *Variants*): `--setenta`, `--ties each`, `--compulsory`,
`--thirty-single`, and `--target` 15, 21, 30 or 31. The summary names them,
and every record carries them in `rules` (RECORD.md), so it replays under
them. `escoba tournament` takes the same options (`rules_from_options`).
"""

from __future__ import annotations

import json
import random
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from escoba.engine import (
    Action,
    GameState,
    Phase,
    RuleSet,
    apply,
    legal_actions,
    new_game,
    shuffled_deck,
    side_count,
    start_next_round,
    to_record,
)
from escoba.engine.rules import TARGETS, TIES

#: round summary items, as (SideScore attribute, label in the summary)
CATEGORIES: tuple[tuple[str, str], ...] = (
    ("points_escobas", "escobas"),
    ("points_cards", "cards"),
    ("points_diamonds", "diamonds"),
    ("points_seven_of_diamonds", "7 of diamonds"),
    ("points_sevens", "sevens"),
)


def rules_from_options(
    target: int, setenta: bool, ties: str, compulsory: bool, thirty_single: bool
) -> RuleSet:
    """The rule set the command-line options name; a bad value is a usage
    error (typer's message, exit status 2) naming the option."""
    if target not in TARGETS:
        raise typer.BadParameter("the target is 15, 21, 30 or 31 points", param_hint="--target")
    if ties not in TIES:
        raise typer.BadParameter(
            "a tie for the most goes to 'nobody' or to 'each' tied side", param_hint="--ties"
        )
    return RuleSet(
        target=target,
        thirty_is_double=not thirty_single,
        compulsory_capture=compulsory,
        setenta=setenta,
        ties="each" if ties == "each" else "nobody",
    )


def describe_rules(rules: RuleSet) -> str:
    """The rules in a few words: «site rules» or the house rules in force."""
    variants = rules.variants()
    return "house rules: " + ", ".join(variants) if variants else "site rules"


def random_action(state: GameState, rng: random.Random) -> Action:
    """The built-in random player: any legal action, uniformly."""
    return rng.choice(legal_actions(state))


def play_game(rules: RuleSet, players: int, rng: random.Random) -> GameState:
    """One whole game, from the first deal to a result on points, with every
    shuffle and every choice drawn from `rng`."""
    state = new_game(rules, players, shuffled_deck(rng), first_dealer=rng.randrange(players))
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.ROUND_OVER:
            state, _ = start_next_round(state, shuffled_deck(rng))
            continue
        state, _ = apply(state, state.round.turn, random_action(state, rng))
    return state


@dataclass
class Stats:
    """What a run adds up: per finished round, the points of every side by item."""

    seed: int
    sides: int
    rules: RuleSet = field(default_factory=RuleSet)
    games: int = 0
    rounds: int = 0
    points: dict[str, int] = field(default_factory=lambda: {k: 0 for k, _ in CATEGORIES})
    escobas: int = 0
    table_escobas: int = 0  # of those, the dealer's table takes
    seconds: float = 0.0

    def add(self, final: GameState) -> None:
        self.games += 1
        for summary in final.finished_rounds:
            self.rounds += 1
            if summary.table_take is not None:
                self.table_escobas += summary.table_take.escobas
            for side in summary.scores:
                self.escobas += side.escobas
                for key, _ in CATEGORIES:
                    self.points[key] += getattr(side, key)

    def per_round(self, amount: int) -> float:
        return amount / self.rounds if self.rounds else 0.0


def run(
    players: int,
    games: int,
    seed: int | None,
    rules: RuleSet,
    records: IO[str] | None = None,
    progress: Progress | None = None,
) -> Stats:
    """Play `games` games under `rules` and add them up; each record goes to
    `records` as one JSON line as soon as its game ends."""
    run_seed = seed if seed is not None else secrets.randbits(64)
    seeder = random.Random(run_seed)
    stats = Stats(seed=run_seed, sides=side_count(players), rules=rules)
    task = progress.add_task("Games", total=games) if progress is not None else None
    start = time.perf_counter()
    for number in range(1, games + 1):
        game_seed = seeder.getrandbits(64)
        final = play_game(rules, players, random.Random(game_seed))
        stats.add(final)
        if records is not None:
            record: dict[str, Any] = to_record(final)
            record["simulation"] = {"game": number, "seed": game_seed}
            records.write(json.dumps(record, ensure_ascii=False) + "\n")
        if progress is not None and task is not None:
            progress.advance(task)
    stats.seconds = time.perf_counter() - start
    return stats


def summary_table(stats: Stats) -> Table:
    """Average points per finished round, item by item: for all sides together
    and for one side (under la setenta its line replaces the sevens')."""
    table = Table()
    table.add_column("points per round")
    table.add_column("all sides", justify="right")
    table.add_column("per side", justify="right")
    rows = [
        ("setenta" if key == "points_sevens" and stats.rules.setenta else label, stats.points[key])
        for key, label in CATEGORIES
    ]
    rows.append(("total", sum(stats.points.values())))
    for label, amount in rows:
        per_round = stats.per_round(amount)
        table.add_row(label, f"{per_round:.3f}", f"{per_round / stats.sides:.3f}")
    return table


def simulate(
    players: int = typer.Option(2, "--players", min=2, max=4, help="Players: 2, 3 or 4."),
    games: int = typer.Option(100, "--games", min=1, help="How many games to play."),
    seed: int | None = typer.Option(None, "--seed", help="Seed: the same seed, the same games."),
    target: int = typer.Option(21, "--target", help="Points to win: 15, 21, 30 or 31."),
    setenta: bool = typer.Option(
        False, "--setenta", help="House rule: la setenta replaces «most sevens»."
    ),
    ties: str = typer.Option(
        "nobody", "--ties", help="A tie for the most cards, diamonds or sevens: nobody|each."
    ),
    compulsory: bool = typer.Option(
        False, "--compulsory", help="House rule: a player who can make 15 must capture."
    ),
    thirty_single: bool = typer.Option(
        False, "--thirty-single", help="House rule: a first table of 30 is one escoba, not two."
    ),
    records: Path | None = typer.Option(
        None, "--records", help="Write every game as escoba-record/1, one per line."
    ),
) -> None:
    """Play whole games between random players and print what they scored."""
    rules = rules_from_options(target, setenta, ties, compulsory, thirty_single)
    out = Console()
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with bar:
        if records is None:
            stats = run(players, games, seed, rules, progress=bar)
        else:
            with records.open("w", encoding="utf-8") as sink:
                stats = run(players, games, seed, rules, records=sink, progress=bar)
    out.print(
        f"{stats.games} games · {players} players · to {target} points · "
        f"{describe_rules(rules)} · seed {stats.seed}"
    )
    out.print(summary_table(stats))
    out.print(f"rounds: {stats.rounds} ({stats.rounds / stats.games:.2f} per game)")
    out.print(
        f"escobas per round: {stats.per_round(stats.escobas):.3f} "
        f"({stats.per_round(stats.table_escobas):.3f} from the table at the deal)"
    )
    if records is not None:
        out.print(f"records: {records}", soft_wrap=True)  # a path stays whole
    out.print(f"time: {stats.seconds:.2f} s")
    rate = stats.games / stats.seconds if stats.seconds > 0 else float("inf")
    out.print(f"games per second: {rate:.1f}")
