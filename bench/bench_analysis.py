"""The analysis of a round (issue 28): its CPU cost, the noise of its
estimate, and how often each mark fires for each robot. Figures go to
bench/RESULTS-analysis.md; `--out` keeps the run's JSON.

    .venv/bin/python bench/bench_analysis.py cpu   --rounds 4
    .venv/bin/python bench/bench_analysis.py noise --worlds 256,512 --rounds 3 --salts 6
    .venv/bin/python bench/bench_analysis.py marks --players 2 --rounds 12 --robots carmen,club

- `cpu`: rounds played by Carmen at 2, 3 and 4 players, each analysed at
  the analysis's settings (`LunaEvaluator()`); CPU time (process time, one
  core) per round and per decision.
- `noise`: every decision of rounds played by the club player, weighed
  with `--salts` different random sources (the same position, other
  worlds): the spread of the cost of the play made (against the candidate
  best on average over the sources), and how it compares with the standard
  error the analysis computes from its worlds (the noise gate's `noise`).
- `marks`: rounds where every seat is one robot (`--robots`), analysed:
  per round and seat, how often each mark fires and the points given away;
  the quantiles of the costs above the noise.
- `compare` (issue 35): the same rounds (`--rounds` per robot of
  `--robots` and per table size) analysed by the code of git revision
  `--ref` (today's: exported with `git archive` to a temporary directory)
  and by this checkout (or revision `--new`), each round in a fresh process of each (`one` mode,
  alternating which goes first): CPU per round of each and their ratio;
  the share of decisions with the same mark; the mean absolute difference
  of a step's cost; the plays moved between «blunder» and unmarked; and
  whether every figure of a step is the same.
- `luna` (issue 35): Luna's decisions at a fixed `--worlds` on the turns of
  `--rounds` rounds of Carmen, by today's code and this tree, each in a
  fresh process: CPU per decision, and whether she chooses alike.

Every round's deck and every robot's random source come from `--seed`, so
a run is the same run every time (its CPU figures aside). One process.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

from escoba.analysis import THRESHOLDS, LunaEvaluator, analyse_round, position_rng
from escoba.analysis.model import MARKS, RoundAnalysis
from escoba.bots import get_robot
from escoba.engine import GameState, Phase, RuleSet, apply, new_game, shuffled_deck, view
from escoba.engine.round_steps import recorded_action, round_states
from escoba.engine.view import View


def play(players: int, robot: str, seed: int) -> GameState:
    """One round, every seat played by `robot`."""
    rng = random.Random(f"bench-analysis:{seed}:{players}:{robot}")
    deck = shuffled_deck(random.Random(f"bench-analysis-deck:{seed}:{players}"))
    state = new_game(RuleSet(), players, deck, first_dealer=seed % players)
    player = get_robot(robot)
    while state.phase is Phase.PLAYING:
        seat = state.round.turn
        state, _ = apply(state, seat, player.choose(view(state, seat), rng))
    return state


def analyse(state: GameState, evaluator: LunaEvaluator) -> tuple[RoundAnalysis, float]:
    start = time.process_time()
    out = analyse_round(state.finished_rounds[-1], state.players, state.rules, evaluator=evaluator)
    return out, time.process_time() - start


def cpu(args: argparse.Namespace) -> dict[str, Any]:
    evaluator = LunaEvaluator(worlds=args.worlds[0])
    out: dict[str, Any] = {}
    for players in args.players:
        times, decisions = [], []
        for r in range(args.rounds):
            analysis, seconds = analyse(play(players, "carmen", args.seed + r), evaluator)
            times.append(seconds)
            decisions.append(sum(s.method != "forced" for s in analysis.steps))
            print(f"{players} players, round {r + 1}: {seconds:.1f} s", flush=True)
        out[str(players)] = {
            "rounds": len(times),
            "seconds_mean": statistics.mean(times),
            "seconds_max": max(times),
            "decisions_mean": statistics.mean(decisions),
            "ms_per_decision": 1000 * sum(times) / sum(decisions),
        }
        print(json.dumps({players: out[str(players)]}), flush=True)
    return out


def noise(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for worlds in args.worlds:
        evaluator = LunaEvaluator(worlds=worlds, pool=args.pool)
        spreads: list[float] = []
        ratios: list[float] = []
        seconds = 0.0
        for players in args.players:
            for r in range(args.rounds):
                state = play(players, "club", args.seed + r)
                summary = state.finished_rounds[-1]
                states = list(round_states(summary, players, state.rules))
                for (before, _), recorded in zip(states, summary.actions, strict=False):
                    v = view(before, recorded.seat)
                    if len(v.legal) < 2:
                        continue
                    played = v.legal.index(recorded_action(recorded))
                    start = time.process_time()
                    evals = [
                        evaluator.evaluate(v, position_rng(v, str(s))) for s in range(args.salts)
                    ]
                    seconds += time.process_time() - start
                    if evals[0].method != "search":
                        continue
                    mean = [
                        statistics.mean(e.values[i] for e in evals) for i in range(len(v.legal))
                    ]
                    best = max(range(len(mean)), key=mean.__getitem__)
                    if best == played:
                        best = sorted(range(len(mean)), key=lambda i: -mean[i])[1]
                    costs = [e.values[best] - e.values[played] for e in evals]
                    spread = statistics.stdev(costs)
                    se = statistics.mean(e.noise(best, played) for e in evals)
                    spreads.append(spread)
                    if se > 0:
                        ratios.append(spread / se)
        spreads.sort()
        ratios.sort()
        out[str(worlds)] = {
            "pool": args.pool,
            "positions": len(spreads),
            "sd_rms": statistics.mean(s * s for s in spreads) ** 0.5,
            "sd_p50": _q(spreads, 0.5),
            "sd_p95": _q(spreads, 0.95),
            "sd_max": spreads[-1],
            "sd_over_se_p50": _q(ratios, 0.5),
            "sd_over_se_p95": _q(ratios, 0.95),
            "cpu_seconds_per_evaluation": seconds / (len(spreads) * args.salts or 1),
        }
        print(json.dumps({worlds: out[str(worlds)]}), flush=True)
    return out


def _q(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    return values[min(len(values) - 1, int(q * len(values)))]


def marks(args: argparse.Namespace) -> dict[str, Any]:
    evaluator = LunaEvaluator(worlds=args.worlds[0])
    out: dict[str, Any] = {}
    for players in args.players:
        for robot in args.robots:
            counts = {m: 0 for m in MARKS}
            given: list[float] = []
            costs: list[float] = []
            decisions = 0
            seats = 0
            for r in range(args.rounds):
                analysis, seconds = analyse(play(players, robot, args.seed + r), evaluator)
                for seat in analysis.seats:
                    seats += 1
                    decisions += seat.decisions
                    given.append(seat.given_away)
                    for m in MARKS:
                        counts[m] += seat.marks.of(m)
                costs.extend(s.given_away for s in analysis.steps if s.given_away > 0)
                print(f"{players} players, {robot}, round {r + 1}: {seconds:.1f} s", flush=True)
            costs.sort()
            row = {
                "rounds": args.rounds,
                "seat_rounds": seats,
                "decisions_per_seat_round": decisions / seats,
                "per_seat_round": {m: counts[m] / seats for m in MARKS},
                "given_away_per_seat_round": statistics.mean(given),
                "costs_above_noise": len(costs),
                "cost_p50": _q(costs, 0.5),
                "cost_p90": _q(costs, 0.9),
                "cost_max": costs[-1] if costs else 0.0,
            }
            out[f"{players}:{robot}"] = row
            print(json.dumps({f"{players}:{robot}": row}), flush=True)
    return out


def one(args: argparse.Namespace) -> dict[str, Any]:
    """One round (the first of `--players`, `--robots`, `--seed`) analysed
    at the default settings (`LunaEvaluator(worlds=--worlds)`, as the web
    layer makes it), in whatever `escoba` this process imports: its CPU and
    its steps' figures."""
    players, robot = args.players[0], args.robots[0]
    state = play(players, robot, args.seed)
    summary = state.finished_rounds[-1]
    actions = json.dumps([a.to_dict() for a in summary.actions], sort_keys=True)
    analysis, seconds = analyse(state, LunaEvaluator(worlds=args.worlds[0]))
    return {
        "players": players,
        "robot": robot,
        "seed": args.seed,
        "round": hashlib.sha256(actions.encode()).hexdigest()[:16],
        "cpu": seconds,
        "evaluator": analysis.evaluator.to_json(),
        "steps": [s.to_json() for s in analysis.steps],
    }


def luna_one(args: argparse.Namespace) -> dict[str, Any]:
    """Luna's decisions at a fixed number of worlds (`--worlds`: no clock,
    so the same choices on any machine) on every turn with a choice of
    `--rounds` rounds of Carmen at `--players`, in whatever `escoba` this
    process imports: CPU per decision and the choices made."""
    from escoba.bots.luna import Luna

    players = args.players[0]
    luna = Luna(budget=math.inf, min_worlds=args.worlds[0], max_worlds=args.worlds[0], limit=None)
    seconds = 0.0
    choices: list[str] = []
    for v in choice_views(players, args.rounds, args.seed):
        start = time.process_time()
        action = luna.choose(v, random.Random(len(choices)))
        seconds += time.process_time() - start
        choices.append(json.dumps(action.to_dict(), sort_keys=True))
    return {"decisions": len(choices), "cpu": seconds, "choices": choices}


def choice_views(players: int, rounds: int, seed: int) -> Iterator[View]:
    """The view of the seat on turn at every turn with a choice of `rounds`
    rounds of Carmen at `players` (seeds `seed`, `seed + 1`…): the positions
    Luna's benchmarks decide."""
    for r in range(rounds):
        final = play(players, "carmen", seed + r)
        summary = final.finished_rounds[-1]
        for before, _ in list(round_states(summary, players, final.rules))[:-1]:
            seen = view(before, before.round.turn)
            if len(seen.legal) >= 2:
                yield seen


def luna(args: argparse.Namespace) -> dict[str, Any]:
    """`luna_one` by today's code (`--ref`) and this tree (or `--new`), each
    in a fresh process, per table size: CPU per decision and whether every
    choice is the same (then her strength is the same, deal for deal)."""
    out: dict[str, Any] = {"ref": args.ref, "new": args.new, "load_before": os.getloadavg()}
    with tempfile.TemporaryDirectory() as tmp:
        ref = _ref_tree(args.ref, Path(tmp) / "ref")
        here = Path(__file__).resolve().parents[1] / "src"
        if args.new:
            here = _ref_tree(args.new, Path(tmp) / "new")
        for players in args.players:
            got = {}
            for name, src in (("old", ref), ("new", here)):
                argv = ["luna_one", "--players", str(players), "--rounds", str(args.rounds)]
                argv += ["--seed", str(args.seed), "--worlds", str(args.worlds[0])]
                got[name] = _run_in(src, argv)
            old, new = got["old"], got["new"]
            row = {
                "decisions": old["decisions"],
                "ms_per_decision_old": 1000 * old["cpu"] / old["decisions"],
                "ms_per_decision_new": 1000 * new["cpu"] / new["decisions"],
                "ratio": new["cpu"] / old["cpu"],
                "same_choices": sum(
                    a == b for a, b in zip(old["choices"], new["choices"], strict=True)
                )
                / old["decisions"],
            }
            out[str(players)] = row
            print(json.dumps({players: row}), flush=True)
    out["load_after"] = os.getloadavg()
    return out


def _ref_tree(rev: str, into: Path) -> Path:
    """The `src` of git revision `rev`, exported under `into`."""
    root = Path(__file__).resolve().parents[1]
    into.mkdir(parents=True)
    archive = into / "src.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", rev, "src"], cwd=root, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def _run_in(src: Path, argv: list[str]) -> dict[str, Any]:
    """This script with `argv` in a fresh process that imports `escoba`
    from `src`: the JSON it prints last."""
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run(
        [sys.executable, __file__, *argv], env=env, check=True, capture_output=True, text=True
    )
    return cast(dict[str, Any], json.loads(done.stdout.splitlines()[-1]))


def _one_in(src: Path, players: int, robot: str, seed: int, worlds: int) -> dict[str, Any]:
    """`one` in a fresh process that imports `escoba` from `src`."""
    argv = ["one", "--players", str(players), "--robots", robot]
    return _run_in(src, [*argv, "--seed", str(seed), "--worlds", str(worlds)])


def _judged(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """How the two analyses of a round judge alike: over its decisions
    (steps with a choice), the same mark, the cost's absolute difference,
    plays moved between «blunder» and unmarked, steps whose every figure is
    the same."""
    same = moved = identical = decisions = 0
    diffs: list[float] = []
    for a, b in zip(old["steps"], new["steps"], strict=True):
        if a["method"] == "forced":
            continue
        decisions += 1
        same += a["mark"] == b["mark"]
        diffs.append(abs(a["cost"] - b["cost"]))
        moved += {a["mark"], b["mark"]} == {None, "blunder"}
        identical += a == b
    return {
        "decisions": decisions,
        "same_mark": same,
        "abs_cost_diff": diffs,
        "moved": moved,
        "identical": identical,
    }


def compare(args: argparse.Namespace) -> dict[str, Any]:
    worlds = args.worlds[0]
    out: dict[str, Any] = {"ref": args.ref, "new": args.new, "load_before": os.getloadavg()}
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        ref = _ref_tree(args.ref, Path(tmp) / "ref")
        here = Path(__file__).resolve().parents[1] / "src"
        if args.new:
            here = _ref_tree(args.new, Path(tmp) / "new")
        k = 0
        for players in args.players:
            for robot in args.robots:
                for r in range(args.rounds):
                    seed = args.seed + r
                    pair = [("old", ref), ("new", here)]
                    if k % 2:
                        pair.reverse()  # which goes first alternates
                    k += 1
                    got = {name: _one_in(src, players, robot, seed, worlds) for name, src in pair}
                    old, new = got["old"], got["new"]
                    if old["round"] != new["round"]:
                        raise RuntimeError("the two codes played different rounds")
                    row = {
                        "players": players,
                        "robot": robot,
                        "seed": seed,
                        "cpu_old": old["cpu"],
                        "cpu_new": new["cpu"],
                        **_judged(old, new),
                    }
                    rows.append(row)
                    print(
                        f"{players} players, {robot}, seed {seed}: {old['cpu']:.1f} s → "
                        f"{new['cpu']:.1f} s, {row['identical']}/{row['decisions']} steps "
                        f"identical, load {os.getloadavg()[0]:.1f}",
                        flush=True,
                    )
        out["evaluator_old"] = old["evaluator"]
        out["evaluator_new"] = new["evaluator"]
    out["load_after"] = os.getloadavg()
    for players in args.players:
        mine = [r for r in rows if r["players"] == players]
        old_cpu = sum(r["cpu_old"] for r in mine)
        new_cpu = sum(r["cpu_new"] for r in mine)
        decisions = sum(r["decisions"] for r in mine)
        diffs = [d for r in mine for d in r["abs_cost_diff"]]
        out[str(players)] = {
            "rounds": len(mine),
            "cpu_old_per_round": old_cpu / len(mine),
            "cpu_new_per_round": new_cpu / len(mine),
            "ratio": new_cpu / old_cpu,
            "ratio_per_round_min_max": [
                min(r["cpu_new"] / r["cpu_old"] for r in mine),
                max(r["cpu_new"] / r["cpu_old"] for r in mine),
            ],
            "decisions": decisions,
            "same_mark": sum(r["same_mark"] for r in mine) / decisions,
            "mean_abs_cost_diff": statistics.mean(diffs),
            "blunder_unmarked_moves": sum(r["moved"] for r in mine),
            "identical_steps": sum(r["identical"] for r in mine) / decisions,
        }
        print(json.dumps({players: out[str(players)]}), flush=True)
    out["rounds"] = rows
    return out


MODES: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "cpu": cpu,
    "noise": noise,
    "marks": marks,
    "compare": compare,
    "one": one,
    "luna": luna,
    "luna_one": luna_one,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=sorted(MODES))
    parser.add_argument("--players", default="2,3,4", help="comma separated")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--worlds", default=str(LunaEvaluator().worlds), help="comma separated")
    parser.add_argument("--salts", type=int, default=6)
    parser.add_argument(
        "--pool", type=int, default=LunaEvaluator().pool, help="noise: the posterior's pool"
    )
    parser.add_argument("--robots", default="luna,carmen,club,greedy,tito")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--ref", default="main", help="compare: the git revision of today's code")
    parser.add_argument(
        "--new", default="", help="compare: the git revision of the new code (default: this tree)"
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    args.players = [int(p) for p in args.players.split(",")]
    args.worlds = [int(w) for w in args.worlds.split(",")]
    args.robots = args.robots.split(",")
    if args.mode in ("one", "luna_one"):
        print(json.dumps(MODES[args.mode](args)))
        return
    result = {
        "mode": args.mode,
        "seed": args.seed,
        "thresholds": THRESHOLDS.to_json(),
        "figures": MODES[args.mode](args),
    }
    if args.out is not None:
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
