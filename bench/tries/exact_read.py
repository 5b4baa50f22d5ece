"""Carmen read exactly (a try of issue 27). Luna weighs a world by how
likely Carmen's plays of this deal were with its hand: a softened Carmen,
`exp(beta * score)`, scored as if Carmen could not see her own hand (once
per card, not per hand: `inference`). Carmen plays her rule to the letter,
and knows her hand. Here a hand is kept as it is when Carmen's rule, with
that hand known to her, would have made each of her plays of the deal, and
weighed `eps` when not (a little room for a player who is not quite
Carmen); the answer to each candidate is hers exactly (`exact_reply`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from escoba.bots.inference import PastPlay, PosteriorSampler, past_plays
from escoba.bots.judge import Judge
from escoba.bots.knowledge import Knowledge
from escoba.engine.view import View
from tries.exact_reply import LunaExactReply


def consistent(play: PastPlay, hand: Sequence[int]) -> bool:
    """Whether Carmen, holding `hand` now, would have made `play`: no play
    of the hand she held then scores better by her judgement, with her
    hand known to her."""
    k = play.know
    held = set(hand)
    judge = Judge(replace(k, unseen=tuple(c for c in k.unseen if c not in held)))
    table = list(k.table)
    observed = judge.play_score(play.card, list(play.capture), table)
    return all(
        judge.play_score(c, list(g), table) <= observed + 1e-9
        for c, g in Judge._plays(table, [*hand, *play.own])
    )


class ExactPosterior(PosteriorSampler):
    """Worlds weighed 1 where Carmen would have made each of the plays
    seen this deal with the world's hand, `eps` a play where not."""

    def __init__(
        self, know: Knowledge, plays: list[PastPlay], rng: random.Random, eps: float
    ) -> None:
        self.plays = plays
        self.eps = eps
        self.memo: dict[tuple[int, tuple[int, ...]], bool] = {}
        super().__init__(know, [], rng)

    def evidence(self) -> bool:
        return bool(self.plays)

    def weighed(self, w: float, seat: int, hand: list[int]) -> float:
        key = tuple(sorted(hand))
        for j, play in enumerate(self.plays):
            if play.know.seat == seat:
                ok = self.memo.get((j, key))
                if ok is None:
                    ok = self.memo[(j, key)] = consistent(play, hand)
                if not ok:
                    w *= self.eps
        return w


class LunaExactRead(LunaExactReply):
    def __init__(self, eps: float = 0.05, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.eps = eps

    def posterior(self, view: View, know: Knowledge, rng: random.Random) -> PosteriorSampler:
        return ExactPosterior(know, past_plays(view, know), rng, self.eps)
