"""Duplicate robot tournaments: `escoba tournament --bots luna,carmen`.

In a duplicate match every deal (a round, from a shuffled deck) is played
again with the seats rotated, so that each robot holds each hand and the luck
of the cards cancels. A match has two *teams*, and each side of each seating
belongs to one of them. There are two kinds of match:

**Pairs of robots** (`--bots a,b,c`: every pair plays, at `--players` seats):

- 2 players: A B, then B A;
- 4 players (pairs 0+2 against 1+3): A B A B, then B A B A (a robot partners
  itself);
- 3 players: the three rotations of A B B and of B A A (six plays a deal:
  one A against two Bs, and two As against one B, mixed in one figure).

**A lineup** (`--lineup luna,carmen,carmen`: one robot per seat, 2 to 4 of
them, the seat count is the lineup's length). The lineup is played in each of
its rotations: rotation k seats the lineup's robot i at seat (i + k) mod n, so
every robot sits in every seat, and partners (seats 0 and 2 with four) stay
partners. The first robot's side is the *hero* team, the other sides the
*field*: `--lineup luna,carmen,carmen` is Luna against two Carmens (the
field's points are the mean of the two Carmens'), and `--lineup
luna,carmen,carmen,carmen` is a Luna–Carmen pair (seats 0 and 2) against a
Carmen pair. `--baseline carmen` plays the same deals once more with the
first robot replaced (`carmen,carmen,carmen,carmen`), and reports the
**contribution**: deal by deal, the hero's margin with the first robot minus
the margin with the baseline in its seat, with its interval. So
`--lineup luna,carmen,carmen,carmen --baseline carmen` measures what Luna
brings as Carmen's partner instead of another Carmen.

A team's points in a deal are the mean, over the deal's seatings, of the
points of the side(s) it held; the margin is the team's points minus the
other team's, deal by deal, and its 95% interval is the mean ± 1.96 standard
errors of those per-deal differences. The deal number k is dealt by seat
k mod players. `--seeds 2026,7,11` plays every match on each seed's deals:
each seed has its own row, and the pooled row is the same statistic over all
the deal pairs of all the seeds.

Win rate to the target: for each seating (and seed), the deals are chained in
order into games, adding each round's points to running totals until the
engine's rule (`winner_on_points`: the target reached with strictly more
points than every other side) names a winner; then a new game starts from
zero. A team's win rate is the share of those completed games won by a side
it held (the last, unfinished game of each chain is not counted).

The rules are the site's unless the options choose house rules (`--setenta`,
`--ties each`, `--compulsory`, `--thirty-single`, `--target`), as in
`escoba simulate`; the output and the records name them. Every run writes
its figures as JSON (`--out FILE`, by default a name stating the matches,
seeds and rules, in the current directory), and `--compare OLD.json` prints
each margin's change against an earlier run.

The package, one concern a module: `entrants` (who plays: a robot from its
seat's view, or the cheater), `matches` (seatings, decks, one deal played in
every seating), `stats` (a match's figures and a lineup's contribution),
`runs` (what to play, playing it, the results), `files` (a run's file name
and the comparison with an earlier run) and `cli` (the command and its
tables). Every name is importable from here.
"""

from escoba.tournament.cli import (
    parse_seeds,
    render_comparison,
    render_table,
    tournament_command,
)
from escoba.tournament.entrants import BENCHMARK_ONLY, FROZEN, entrant
from escoba.tournament.files import MarginChange, compare, default_out_name
from escoba.tournament.matches import (
    DealOutcome,
    Match,
    MatchKind,
    deal_deck,
    lineup_match,
    lineups,
    pair_match,
    play_deal,
    rotations,
)
from escoba.tournament.runs import (
    FORMAT,
    MatchResult,
    TournamentResult,
    TournamentSpec,
    run_outcomes,
    run_tournament,
)
from escoba.tournament.stats import (
    Contribution,
    MatchSummary,
    RobotFigures,
    TeamFigures,
    chain_wins,
    contribution,
    mean_ci95,
    percentile,
    summarize,
    team_points,
)

__all__ = [
    "BENCHMARK_ONLY",
    "FORMAT",
    "FROZEN",
    "Contribution",
    "DealOutcome",
    "MarginChange",
    "Match",
    "MatchKind",
    "MatchResult",
    "MatchSummary",
    "RobotFigures",
    "TeamFigures",
    "TournamentResult",
    "TournamentSpec",
    "chain_wins",
    "compare",
    "contribution",
    "deal_deck",
    "default_out_name",
    "entrant",
    "lineup_match",
    "lineups",
    "mean_ci95",
    "pair_match",
    "parse_seeds",
    "percentile",
    "play_deal",
    "render_comparison",
    "render_table",
    "rotations",
    "run_outcomes",
    "run_tournament",
    "summarize",
    "team_points",
    "tournament_command",
]
