"""Suite-wide: the tests play far faster than any person, so the app's rate
limits are off unless a test turns them on (tests/web/frame/test_security.py does,
with small limits of its own); and the rounds' analyses weigh each play in 16
worlds, not 512 (a round's analysis in a fraction of a second: the tests are
about where it goes, not how well it weighs; tests/analysis weighs)."""

from __future__ import annotations

import os

os.environ.setdefault("ESCOBA_RATE_LIMITS", "false")
os.environ.setdefault("ESCOBA_ANALYSIS_WORLDS", "16")
