"""Keeps the translation catalogs in step with the source strings.

    .venv/bin/python tools/update_catalogs.py

extracts the Spanish source strings (babel.cfg) into messages.pot, merges them
into each language's .po (new strings arrive untranslated; translate them in
the .po; strings gone from the source leave it; es_AR's translates only the
strings whose voseo differs, tests/web_ui/test_voseo.py names them) and compiles the .mo files that the app loads.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from escoba.i18n import CATALOGS, LOCALE_DIR, compile_all, po_path  # noqa: E402


def main() -> int:
    pot = LOCALE_DIR / "messages.pot"
    pybabel = str(Path(sys.executable).with_name("pybabel"))
    pot_args = ["--omit-header", "--sort-output", "-o", str(pot), "."]
    subprocess.run(
        [pybabel, "extract", "-F", "babel.cfg", "-k", "N_", "--no-location", *pot_args],
        cwd=ROOT,
        check=True,
    )
    for lang in CATALOGS:
        po = po_path(lang)
        if po.exists():
            # a string gone from the source goes from the .po (git keeps its history)
            cmd = ["update", "-i", str(pot), "-l", lang, "-o", str(po)]
            cmd += ["--no-fuzzy-matching", "--ignore-obsolete"]
        else:
            po.parent.mkdir(parents=True, exist_ok=True)
            cmd = ["init", "-i", str(pot), "-l", lang, "-o", str(po)]
        subprocess.run([pybabel, *cmd], cwd=ROOT, check=True)
    for path in compile_all():
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
