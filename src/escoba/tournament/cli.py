"""The command `escoba tournament`: its options, the progress bar, and the
figures as rich tables."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

from escoba.simulate import describe_rules, rules_from_options
from escoba.tournament.entrants import entrant
from escoba.tournament.files import (
    MarginChange,
    _half,
    _run_settings,
    compare,
    default_out_name,
)
from escoba.tournament.runs import TournamentResult, TournamentSpec, run_tournament
from escoba.tournament.stats import Contribution, MatchSummary


def render_table(result: TournamentResult) -> Any:
    from rich.table import Table

    spec = result.spec
    seeds = ", ".join(str(s) for s in spec.seeds)
    table = Table(
        title=(
            f"Duplicate tournament: {spec.deals} deals per seed, "
            f"seed{'s' if len(spec.seeds) > 1 else ''} {seeds}; to {spec.rules.target}, "
            f"{describe_rules(spec.rules)}"
        )
    )
    for col in ("match", "seed", "team", "pts/round", "margin ± 95% CI"):
        table.add_column(col, justify="left" if col in ("match", "team") else "right")
    for col in (f"wins to {spec.rules.target}", "escobas/round", "p50 ms", "p95 ms", "max ms"):
        table.add_column(col, justify="right")
    for res in result.matches:
        m = res.match
        label = f"{m.label} ({m.players}p)"
        rows: list[tuple[str, MatchSummary]] = []
        if len(res.by_seed) > 1:
            rows.extend((str(s.seeds[0]), s) for s in res.by_seed)
            rows.append(("all", res.pooled))
        else:
            rows.append((seeds, res.pooled))
        for seed_label, summary in rows:
            for f in summary.figures:
                half = (f.margin_ci95[1] - f.margin_ci95[0]) / 2
                table.add_row(
                    label,
                    seed_label,
                    f.name,
                    f"{f.points_per_round:.3f}",
                    f"{f.margin:+.3f} ± {half:.3f}",
                    f"{100 * f.win_rate:.1f}% of {f.games}",
                    f"{f.escobas_per_round:.3f}",
                    f"{f.decision_ms['p50']:.2f}",
                    f"{f.decision_ms['p95']:.2f}",
                    f"{f.decision_ms['max']:.2f}",
                )
                label = ""
                seed_label = ""
        if res.contribution is not None:
            c = res.contribution
            label = f"{c.lineup[0]} instead of {c.baseline[0]}"
            crow: list[tuple[str, Contribution]] = []
            if len(spec.seeds) > 1:
                crow.extend(
                    zip((str(s) for s in spec.seeds), res.contribution_by_seed, strict=True)
                )
                crow.append(("all", c))
            else:
                crow.append((seeds, c))
            for seed_label, x in crow:
                table.add_row(
                    label,
                    seed_label,
                    "contribution",
                    "",
                    f"{x.margin:+.3f} ± {_half(x.margin_ci95):.3f}",
                )
                label = ""
        table.add_section()
    return table


def render_comparison(changes: Sequence[MarginChange], old_path: str) -> Any:
    from rich.table import Table

    table = Table(title=f"Margins against {old_path}")
    for col in ("match", "team", "old", "new", "change ± 95% CI"):
        table.add_column(col, justify="left" if col in ("match", "team") else "right")
    for c in changes:
        half = (c.change_ci95[1] - c.change_ci95[0]) / 2
        table.add_row(
            c.label, c.team, f"{c.old:+.3f}", f"{c.new:+.3f}", f"{c.change:+.3f} ± {half:.3f}"
        )
    return table


def _names(text: str) -> tuple[str, ...]:
    return tuple(n.strip().lower() for n in text.split(",") if n.strip())


def parse_seeds(text: str) -> tuple[int, ...]:
    """`2026,7,11` → (2026, 7, 11); ValueError on anything else."""
    try:
        seeds = tuple(int(s) for s in text.split(",") if s.strip())
    except ValueError:
        raise ValueError(f"seeds are whole numbers separated by commas, not {text!r}") from None
    if not seeds:
        raise ValueError("name at least one seed")
    if len(set(seeds)) != len(seeds):
        raise ValueError("the seeds must be different from one another")
    return seeds


def tournament_command(
    bots: str | None = typer.Option(
        None, help="Robots, comma separated; every pair plays (default luna,carmen)."
    ),
    lineup: list[str] | None = typer.Option(
        None,
        help=(
            "A table, one robot per seat in play order (2-4; seats 0 and 2 are partners "
            "at 4), played in every rotation: the first robot's side against the others. "
            "E.g. luna,carmen,carmen. May be repeated."
        ),
    ),
    baseline: str | None = typer.Option(
        None,
        help=(
            "Play each lineup again with its first robot replaced by this one, and report "
            "the first robot's contribution (e.g. --lineup luna,carmen,carmen,carmen "
            "--baseline carmen: Luna as Carmen's partner)."
        ),
    ),
    players: int | None = typer.Option(
        None, help="Players at the table for --bots: 2, 3 or 4 (default 2)."
    ),
    deals: int = typer.Option(1000, help="Deals per match and seed (each in every seating)."),
    seed: int | None = typer.Option(None, help="Seed of the decks and robots (default 1)."),
    seeds: str | None = typer.Option(
        None, help="Several seeds, comma separated (2026,7,11): each has its row, and all pooled."
    ),
    target: int = typer.Option(21, help="Points of a game (15, 21, 30 or 31), for the win rate."),
    setenta: bool = typer.Option(False, "--setenta", help="House rule: la setenta."),
    ties: str = typer.Option("nobody", help="A tie for the most: nobody|each."),
    compulsory: bool = typer.Option(
        False, "--compulsory", help="House rule: capture is compulsory."
    ),
    thirty_single: bool = typer.Option(
        False, "--thirty-single", help="House rule: a first table of 30 is one escoba."
    ),
    jobs: int = typer.Option(1, help="Worker processes."),
    records: str = typer.Option("", help="Write every played round as escoba-record/1 lines here."),
    out: Path | None = typer.Option(
        None, help="Write the figures as JSON here (default: a name stating the run, in .)."
    ),
    compare_with: Path | None = typer.Option(
        None, "--compare", help="An earlier run's JSON: print how each margin changed."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as one JSON object."),
) -> None:
    """Play duplicate matches between robots and print their figures.

    --bots a,b,c: every pair plays, at --players seats. --lineup
    luna,carmen,carmen: one robot per seat, played in every rotation, the
    first robot's side against the others; --baseline carmen plays the same
    deals with carmen in the first robot's seat and reports the first
    robot's contribution. --seeds pools several seeds. The figures are also
    written as JSON (--out); --compare an earlier file to see what moved.
    """
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    rules = rules_from_options(target, setenta, ties, compulsory, thirty_single)
    lineups_given = tuple(_names(lu) for lu in lineup or ())
    if bots is None and not lineups_given:
        bots = "luna,carmen"
    names = _names(bots) if bots is not None else ()
    if players is None:
        players = 2
    elif not names:
        raise typer.BadParameter(
            "--players is for --bots; a lineup's length is its number of players",
            param_hint="--players",
        )
    if players not in (2, 3, 4):
        raise typer.BadParameter("Escoba is played by 2, 3 or 4 players", param_hint="--players")
    if deals < 1:
        raise typer.BadParameter("at least one deal", param_hint="--deals")
    if seed is not None and seeds is not None:
        raise typer.BadParameter("give --seed or --seeds, not both", param_hint="--seeds")
    try:
        seed_list = parse_seeds(seeds) if seeds is not None else (1 if seed is None else seed,)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--seeds") from None
    old: dict[str, Any] | None = None
    if compare_with is not None:
        try:
            old = json.loads(compare_with.read_text(encoding="utf-8"))
            if not isinstance(old, dict) or not isinstance(old.get("matches"), list):
                raise ValueError("not the JSON of a tournament")
        except (OSError, ValueError) as err:
            raise typer.BadParameter(f"{compare_with}: {err}", param_hint="--compare") from None
    spec = TournamentSpec(
        robots=names,
        players=players,
        deals=deals,
        seeds=seed_list,
        rules=rules,
        jobs=max(1, jobs),
        with_records=bool(records),
        lineup_list=lineups_given,
        baseline=baseline.strip().lower() if baseline is not None else None,
    )
    named = (
        ("--bots", names),
        ("--lineup", tuple(n for lu in lineups_given for n in lu)),
        ("--baseline", (spec.baseline,) if spec.baseline is not None else ()),
    )
    for option, group in named:
        try:
            for name in group:
                entrant(name)
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint=option) from None
    try:
        spec.check()
    except ValueError as err:
        if "lineup" in str(err):
            hint = "--lineup" if lineups_given else "--baseline"
        else:
            hint = "--bots" if names else "--lineup"
        raise typer.BadParameter(str(err), param_hint=hint) from None
    total = deals * len(spec.matches()) * len(seed_list)
    err_console = Console(stderr=True)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        "left",
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
    ) as bar:
        task = bar.add_task("deals", total=total)
        result = run_tournament(spec, progress=lambda: bar.advance(task))
    if records:
        with open(records, "w", encoding="utf-8") as fh:
            for line in result.records:
                fh.write(line + "\n")
    data = result.to_dict()
    path = out if out is not None else Path(default_out_name(spec))
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    if as_json:  # stdout is the JSON alone; a comparison goes to stderr
        print(json.dumps(data))
        console = err_console
    else:
        console = Console()
        if not console.is_terminal:
            console = Console(width=160)
        console.print(render_table(result))
        console.print(f"figures: {path}", soft_wrap=True)
    if old is not None:
        if _run_settings(old) != _run_settings(data):
            console.print(
                f"note: the earlier run used other rules, deals or seeds: {_run_settings(old)}",
                soft_wrap=True,
            )
        console.print(render_comparison(compare(old, data), str(compare_with)))
