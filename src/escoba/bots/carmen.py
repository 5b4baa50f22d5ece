"""Carmen, a solid club player: one move deep, with a careful eye on the
reply. She plays the action her judgement (`judge`) scores best: what it takes,
less what the next player can expect to take from the table she leaves; a
claim of her own is weighed with the best play that follows it, so she claims
when it pays."""

from __future__ import annotations

import random

from escoba.bots.base import legal_of
from escoba.bots.judge import Judge
from escoba.bots.knowledge import knowledge
from escoba.engine.actions import Action
from escoba.engine.view import View


class Carmen:
    name = "carmen"
    display_name = "Carmen"

    def choose(self, view: View, rng: random.Random) -> Action:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        judge = Judge(knowledge(view))
        best_score = -1e9
        best = legal[0]
        for action in legal:
            score = judge.score(action)
            if score > best_score + 1e-9:
                best_score = score
                best = action
        return best
