"""`escoba analyse record.jsonl`: the analysis of every finished round of
every game of a file of escoba-record/1 lines (shared/RECORD.md: what
`escoba simulate --records` and `escoba tournament --records` write, or a
game downloaded from a table), printed for people (rich) or, with `--json`,
one JSON line per game for programs.

An operator's tool: its help, headings and figures are in English, like
the other commands; the sentences about the plays are the players' words
(`escoba.words`), in `--lang` and named in `--deck`'s design.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from escoba.analysis.evaluator import WORLDS, LunaEvaluator
from escoba.analysis.model import MARKS, RoundAnalysis, StepAnalysis
from escoba.analysis.rounds import Progress as StepProgress
from escoba.analysis.rounds import analyse_round, game_summary
from escoba.analysis.wording import say_mark, say_move, say_reason, say_seat
from escoba.engine import RecordError, replay
from escoba.i18n import LANGUAGES, parse_lang
from escoba.names import Design, chosen_design


@dataclass(frozen=True, slots=True)
class _Game:
    """One line of the file: its number, its record and its players' names."""

    line: int
    record: dict[str, Any]
    names: tuple[str, ...]
    rounds: int  # finished rounds


def _games(lines: Iterator[str], errors: list[str]) -> list[_Game]:
    """The file's games, each replayed by the engine; a line that is no
    game record is told in `errors` (with its number) and left out."""
    out = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            record = json.loads(text)
            final = replay(record)
        except json.JSONDecodeError as err:
            errors.append(f"line {number}: not JSON ({err.msg}, column {err.colno})")
            continue
        except RecordError as err:
            errors.append(f"line {number}: not a valid escoba-record/1 game: {err}")
            continue
        names = tuple(_name(p, seat) for seat, p in enumerate(record["players"]))
        out.append(_Game(number, record, names, len(final.finished_rounds)))
    return out


def _name(player: Any, seat: int) -> str:
    """A player's name in a record (RECORD.md: `players[seat].name`)."""
    name = player.get("name") if isinstance(player, dict) else None
    return name if isinstance(name, str) and name.strip() else f"Player {seat + 1}"


def _analyse_one(task: tuple[dict[str, Any], int, int]) -> dict[str, Any]:
    """A worker's task: round `index` of a record at `worlds` worlds, as
    JSON (what crosses between processes)."""
    record, index, worlds = task
    final = replay(record)
    summary = final.finished_rounds[index]
    evaluator = LunaEvaluator(worlds=worlds)
    return analyse_round(summary, final.players, final.rules, evaluator=evaluator).to_json()


def _analyse_all(
    games: list[_Game], worlds: int, jobs: int, console: Console
) -> list[list[RoundAnalysis]]:
    """Every round of every game, with a progress bar on standard error:
    step by step in this process, round by round with `jobs` workers."""
    tasks = [(g.record, i, worlds) for g in games for i in range(g.rounds)]
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
    done: list[RoundAnalysis] = []
    with bar:
        if jobs > 1:
            task = bar.add_task("rounds", total=len(tasks))
            with Pool(jobs) as pool:
                for data in pool.imap(_analyse_one, tasks):
                    done.append(RoundAnalysis.from_json(data))
                    bar.advance(task)
        else:
            evaluator = LunaEvaluator(worlds=worlds)
            for g in games:
                final = replay(g.record)
                for summary in final.finished_rounds:
                    task = bar.add_task(f"line {g.line}, round {summary.number}", total=None)
                    done.append(
                        analyse_round(
                            summary,
                            final.players,
                            final.rules,
                            evaluator=evaluator,
                            progress=_advance(bar, task),
                        )
                    )
                    bar.remove_task(task)
    out: list[list[RoundAnalysis]] = []
    it = iter(done)
    for g in games:
        out.append([next(it) for _ in range(g.rounds)])
    return out


def _advance(bar: Progress, task: Any) -> Callable[[StepProgress], None]:
    def report(p: StepProgress) -> None:
        bar.update(task, completed=p.done, total=p.total)

    return report


def _step_row(
    step: StepAnalysis, names: tuple[str, ...], lang: str, design: Design, robot: str
) -> list[str]:
    """#, the play (and the robot's, when better), the expected margins of
    the play and of the best, the cost (± its noise; the hindsight's below)
    and the mark."""
    play = escape(say_move(step.played, names[step.seat], lang, design))
    if step.method == "forced":
        return [str(step.step), play, "[dim]forced[/]", "", ""]
    if not step.is_best:
        play += "\n[dim]" + escape(say_move(step.best, robot, lang, design, best=True)) + "[/]"
    expected = f"{step.played_value:+.2f}"
    if not step.is_best:
        expected += f"\n[dim]{step.best_value:+.2f}[/]"
    if step.method == "exact":
        expected += " [dim]exact[/]"
    cost = f"{step.cost:.2f}" + (f" ±{step.noise:.2f}" if step.noise else "")
    if step.hindsight is not None:
        cost += f"\n[dim]hindsight {step.hindsight.cost:.0f}[/]"
    mark = "" if step.mark is None else f"[bold]{escape(say_mark(step.mark, lang))}[/]"
    return [str(step.step), play, expected, cost, mark]


def _print_round(
    console: Console, a: RoundAnalysis, names: tuple[str, ...], lang: str, design: Design
) -> None:
    robot = a.evaluator.display_name
    settings = dict(a.evaluator.settings)
    worlds = f"{'up to ' if settings.get('se') else ''}{settings.get('worlds', '?')}"
    table = Table(
        title=(
            f"Round {a.round} · {names[a.dealer]} deals · weighed by {robot}"
            f" ({worlds} worlds; expected round points:"
            " the side's margin over the others)"
        ),
        title_justify="left",
    )
    table.add_column("#", justify="right")
    table.add_column(f"play [dim]({robot}'s, when better)[/]")
    table.add_column("expected", justify="right")
    table.add_column("cost", justify="right")
    table.add_column("mark")
    for step in a.steps:
        table.add_row(*_step_row(step, names, lang, design, robot))
    console.print(table)
    _print_reasons(console, a, names, lang, design)
    for seat in a.seats:
        marks = ", ".join(f"{say_mark(m, lang)} {seat.marks.of(m)}" for m in MARKS)
        costliest = ", ".join(str(s) for s in seat.costliest) or "none"
        console.print(
            escape(say_seat(seat, names, lang, a.steps))
            + f"  [dim]({escape(marks)}; costliest steps: {costliest})[/]"
        )


def _print_reasons(
    console: Console, a: RoundAnalysis, names: tuple[str, ...], lang: str, design: Design
) -> None:
    """Why each play that gave points away cost them: its reasons in the
    players' words, then each scoring line's expected points of the mover's
    side, the play made's → the best's, and the line's share of the cost."""
    costly = [s for s in a.steps if s.given_away > 0]
    if not costly:
        return
    console.print("[bold]Why the costly plays cost[/]")
    for step in costly:
        mark = "" if step.mark is None else f"{say_mark(step.mark, lang)}, "
        # said of the player, by name: the command line is nobody's «you»
        why = " ".join(say_reason(r, names, lang, design, about=step.seat) for r in step.reasons)
        console.print(
            f"  step {step.step} ({escape(mark)}{step.cost:.2f}): {escape(why) or '[dim]—[/]'}",
            soft_wrap=True,
        )
        if step.lines:
            side = step.side
            lines = " · ".join(
                f"{x.line} {x.played[side]:.2f}→{x.best[side]:.2f} ({x.cost:+.2f})"
                for x in step.lines
            )
            console.print(
                f"    [dim]by line, {escape(names[step.seat])}'s side: {lines}[/]",
                soft_wrap=True,
            )


def _print_game(
    console: Console, rounds: list[RoundAnalysis], names: tuple[str, ...], lang: str
) -> None:
    table = Table(title="Points given away, round by round", title_justify="left")
    table.add_column("player")
    for a in rounds:
        table.add_column(f"round {a.round}", justify="right")
    table.add_column("total", justify="right")
    table.add_column("costliest (round/step)")
    for summary in game_summary(rounds):
        table.add_row(
            escape(names[summary.seat]),
            *(f"{points:.2f}" for _, points in summary.given_away),
            f"{summary.total:.2f}",
            ", ".join(
                f"{c.round}/{c.step} ({c.given_away:.2f}"
                + ("" if c.mark is None else f", {escape(say_mark(c.mark, lang))}")
                + ")"
                for c in summary.costliest
            ),
        )
    console.print(table)


def analyse(
    records: str = typer.Argument(
        ..., help="A file of escoba-record/1 games, one JSON object per line ('-': standard input)."
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print the analyses as JSON, one line per game."
    ),
    lang: str = typer.Option("en", "--lang", help="Language of the sentences: es, pt_BR or en."),
    deck: str = typer.Option(
        "french", "--deck", help="Deck design the cards are named in: french, brazilian, spanish."
    ),
    worlds: int = typer.Option(
        WORLDS,
        "--worlds",
        min=2,
        help="The most worlds sampled per decision (fewer: faster, noisier).",
    ),
    jobs: int = typer.Option(1, "--jobs", min=1, help="Worker processes (one round each)."),
) -> None:
    """Weigh every play of every finished round of recorded games: what each
    cost against the best play Luna finds, from what its player could see."""
    language = parse_lang(lang)
    if language is None:
        raise typer.BadParameter(f"the languages are {', '.join(LANGUAGES)}", param_hint="--lang")
    design = chosen_design(deck)
    if design is None:
        raise typer.BadParameter(
            f"the deck designs are {', '.join(d.value for d in Design)}", param_hint="--deck"
        )
    errors: list[str] = []
    try:
        if records == "-":
            games = _games(iter(sys.stdin), errors)
        else:
            with open(records, encoding="utf-8") as fh:
                games = _games(iter(fh), errors)
    except OSError as err:
        raise typer.BadParameter(f"{records}: {err.strerror}", param_hint="RECORDS") from None
    except UnicodeDecodeError:
        raise typer.BadParameter(f"{records}: not UTF-8 text", param_hint="RECORDS") from None
    err_console = Console(stderr=True)
    for error in errors:
        err_console.print(f"[red]{error}[/]", soft_wrap=True)
    analysed = _analyse_all(games, worlds, jobs, err_console)
    out = Console()
    for game, rounds in zip(games, analysed, strict=True):
        if as_json:
            print(
                json.dumps(
                    {
                        "line": game.line,
                        "players": list(game.names),
                        "rounds": [a.to_json() for a in rounds],
                        "game": [s.to_json() for s in game_summary(rounds)],
                    },
                    ensure_ascii=False,
                )
            )
            continue
        out.rule(f"line {game.line}: {', '.join(game.names)}")
        if not rounds:
            out.print("No finished round to analyse.")
        for a in rounds:
            _print_round(out, a, game.names, language, design)
        if len(rounds) > 1:
            _print_game(out, rounds, game.names, language)
    if errors:
        raise typer.Exit(1)
