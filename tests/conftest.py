"""Suite-wide: the tests play far faster than any person, so the app's rate
limits are off unless a test turns them on (tests/web/test_security.py does,
with small limits of its own)."""

from __future__ import annotations

import os

os.environ.setdefault("ESCOBA_RATE_LIMITS", "false")
