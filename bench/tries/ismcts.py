"""Information-set Monte Carlo tree search (a try of issue 27): single-observer
ISMCTS after Cowling, Powley & Whitehouse (2012), rebuilt runnable (the
first build, 2026-12-02, lived in a branch that was not kept).

One tree over Luna's information sets: a node is the sequence of moves
played since her decision, as she would see them (every move in Escoba is
seen: the card played and what it took). Each iteration samples a new
world from her weighed posterior (what the other players' plays of this
deal say of their hands, as Luna's own search weighs them), descends the
tree by UCB1 among the moves legal *in that world* (the availability
count of Cowling et al.: a move's exploration term counts the iterations
in which it could be played, not its parent's visits), adds one node, plays
the rest out by Carmen's rule (`careful`, Luna's playouts) and backs up each
node's value for the side that moved into it. Statistics are shared across
worlds, so the other player's replies deeper in the tree are chosen without
seeing Luna's cards (no strategy fusion at her own later moves either).

The iterations are the playouts Luna spends (`max_worlds` per candidate);
`root="paired"` plays every candidate in each world, as Luna does (common
random numbers where the choice is made), the tree shared below. The
choice is hers: each candidate's mean value plus Carmen's judgement
(`prior`).
`expand="policy"` grows the tree only by the moves Carmen's rule makes
in the iteration's world (the standard algorithm adds an untried move at
random: with a new hand in every world, the other player's answer is then
a random move in most iterations). `reply="carmen"` keeps the other
player's answer to the candidate Carmen's, as Luna has it, and grows the
tree from there.

Against today's Luna on the same 500 deals (bench/RESULTS-bots.md, «The
information-set tree, rebuilt»): the standard algorithm −0.661 ± 0.145;
grown by Carmen's rule −0.543 ± 0.145; the root paired −0.278 ± 0.111, and
grown by Carmen's rule −0.098 ± 0.105, her answers Carmen's −0.059 ± 0.099.
Not kept.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from escoba.bots.judge import Judge
from escoba.bots.knowledge import Knowledge
from escoba.bots.luna import side_value
from escoba.bots.policy import careful_move, unplayed_of
from escoba.bots.reply import CarmenReply
from escoba.bots.sim import RoundSim, SimMove
from escoba.engine.actions import Action
from research_luna import TunableLuna, combined


class Node:
    """The moves after a node, each with its own statistics: `visits`, the
    `total` value for the side that made it, and `avail`, the iterations in
    which it was legal."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[SimMove, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


class LunaIsmcts(TunableLuna):
    def __init__(
        self,
        c: float = 2.0,
        reply: str = "tree",
        root: str = "ucb",
        expand: str = "random",
        **kwargs: object,
    ) -> None:
        """`c`: UCB1's exploration constant, in round points; `reply`:
        `tree` (the other player's answer to a candidate searched like every
        later move) or `carmen` (answered by Carmen's rule, as Luna does); `root`: `ucb`
        (the candidates chosen by UCB1 like every move) or `paired` (every
        candidate played in each world, as Luna plays them: common random
        numbers at the root, the tree shared below); `expand`: `random` (a
        move not yet in the tree, at random: the standard algorithm) or
        `policy` (only the move Carmen's rule makes in this world, if not yet
        in the tree; else UCB1 among those that are)."""
        super().__init__(**kwargs)  # type: ignore[arg-type]
        if (
            reply not in ("tree", "carmen")
            or root not in ("ucb", "paired")
            or expand not in ("random", "policy")
        ):
            raise ValueError(f"unknown {reply=}, {root=} or {expand=}")
        self.c = c
        self.reply = reply
        self.root = root
        self.expand = expand

    def weigh(
        self,
        know: Knowledge,
        legal: Sequence[Action],
        moves: Sequence[SimMove],
        sample: Callable[[random.Random], RoundSim],
        rng: random.Random,
        **kw: Any,
    ) -> Action:
        """Luna's `weigh` (its keywords), the candidates valued by the tree."""
        if kw["one_world"]:  # nothing hidden: Luna's exact endgame, as today
            return super().weigh(know, legal, moves, sample, rng, **kw)
        root = self.tree(know, moves, sample, rng)
        stats = [root.children[m] for m in moves]
        means = [s.total / s.visits for s in stats]  # each candidate is tried
        judge = Judge(know, kw["odds"]) if self.prior else None
        return combined(means, 1, legal, judge, self.prior, kw["exact"])

    def tree(
        self,
        know: Knowledge,
        moves: Sequence[SimMove],
        sample: Callable[[random.Random], RoundSim],
        rng: random.Random,
    ) -> Node:
        """The tree of a decision among `moves`, grown over `max_worlds`
        iterations per candidate, each in a new world `sample` draws."""
        root = Node()
        for move in moves:
            root.children[move] = Node()
        answer = CarmenReply(know, moves) if self.reply == "carmen" else None
        index = {move: i for i, move in enumerate(moves)}
        if self.root == "paired":
            for _ in range(self.max_worlds):
                world = sample(rng)
                for move in moves:
                    self._iterate(root, world.copy(), rng, answer, index, move)
        else:
            for _ in range(self.max_worlds * len(moves)):
                self._iterate(root, sample(rng), rng, answer, index)
        return root

    def _iterate(
        self,
        root: Node,
        sim: RoundSim,
        rng: random.Random,
        answer: CarmenReply | None,
        index: dict[SimMove, int],
        candidate: SimMove | None = None,
    ) -> None:
        """One iteration in the world `sim` (changed in place), through
        `candidate` if given."""
        path: list[tuple[Node, int]] = []  # each node entered, and the side that moved into it
        node = root
        first = True
        while not sim.over:
            actor = sim.side[sim.turn]
            legal = sim.legal_moves()
            fresh = [m for m in legal if m not in node.children]
            if fresh and self.expand == "policy":
                chosen = careful_move(sim, *unplayed_of(sim))
                fresh = [chosen] if chosen in fresh else []
            for m in legal:
                child = node.children.get(m)
                if child is not None:
                    child.avail += 1
            if fresh:
                move = fresh[rng.randrange(len(fresh))]
                child = node.children[move] = Node()
                child.avail = 1
                sim.apply(move)
                path.append((child, actor))
                break
            if first and candidate is not None:
                move = candidate
            else:
                tried = [m for m in legal if m in node.children]
                move = max(tried, key=lambda m: self._ucb(node.children[m]))
            node = node.children[move]
            sim.apply(move)
            path.append((node, actor))
            if first and answer is not None and not sim.over:
                answer(sim, index[move])  # Carmen's answer, as Luna has it; then the tree
                node = _through(node, sim)
            first = False
        if not sim.over:
            self.rollout(sim)
        values: dict[int, float] = {}
        for node, side in path:
            if side not in values:
                values[side] = side_value(sim, side)
            node.visits += 1
            node.total += values[side]

    def _ucb(self, node: Node) -> float:
        if not node.visits:
            return math.inf
        return node.total / node.visits + self.c * math.sqrt(
            math.log(max(node.avail, 1)) / node.visits
        )


def _through(node: Node, sim: RoundSim) -> Node:
    """Below a candidate answered by Carmen's rule: the tree goes on under the
    table and tallies her answer left (what Luna will have seen), one node
    per answer, unscored (the answer is not chosen by the tree)."""
    key: SimMove = (True, -1 - len(sim.table), tuple(sim.table) + tuple(sim.cards))
    child = node.children.get(key)
    if child is None:
        child = node.children[key] = Node()
    return child
