"""Tries at a stronger Luna (issue 27) that did not pay, kept runnable so
that their figures in bench/RESULTS-bots.md can be made again. Never
seatable: the tournament and the paired bench reach them by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tries.deal_exact import LunaDealExact
from tries.endplay import LunaEndplay
from tries.exact_earlier import LunaExactEarlier
from tries.exact_read import LunaExactRead
from tries.exact_reply import LunaExactReply
from tries.ismcts import LunaIsmcts
from tries.racing import LunaRacing
from tries.twostep import LunaTwoStep

#: The tries by name, each made with Luna's settings and its own.
TRIES: dict[str, Callable[..., Any]] = {
    "deal_exact": LunaDealExact,
    "endplay": LunaEndplay,
    "exact_earlier": LunaExactEarlier,
    "exact_read": LunaExactRead,
    "exact_reply": LunaExactReply,
    "ismcts": LunaIsmcts,
    "racing": LunaRacing,
    "twostep": LunaTwoStep,
}
