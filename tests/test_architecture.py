"""The import rules of [tool.importlinter] (pyproject.toml) bite: the test
command runs `lint-imports` on the tree as it is; here the same contracts
run on a copy of the package with one wrong arrow added, and must fail."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")

pytestmark = pytest.mark.skipif(not LINT.exists(), reason="import-linter is not installed")


def _lint(tmp_path: Path, wrong: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """lint-imports over a copy of src/escoba, with `wrong` lines appended
    to the modules named (paths under escoba/)."""
    src = tmp_path / "src"
    shutil.copytree(
        ROOT / "src" / "escoba", src / "escoba", ignore=shutil.ignore_patterns("__pycache__")
    )
    for module, line in wrong.items():
        path = src / "escoba" / module
        path.write_text(path.read_text() + f"\n\ndef _wrong() -> None:\n    {line}\n")
    shutil.copyfile(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    env = {**os.environ, "PYTHONPATH": str(src)}
    return subprocess.run(
        [str(LINT), "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True
    )


def test_the_tree_keeps_its_import_rules(tmp_path: Path) -> None:
    done = _lint(tmp_path, {})
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        # a lazy import that closes a circle between two modules
        ("web/command_path.py", "from escoba.web import play", "No import circle"),
        # the engine reaching up into the web app
        ("engine/cards.py", "from escoba.web import routes", "The layers"),
        # a robot on the database
        ("bots/simple.py", "import sqlalchemy", "are pure"),
        # the command path calling the live streams by name
        ("web/play.py", "from escoba.web import live", "never reach"),
    ],
)
def test_a_wrong_arrow_fails(tmp_path: Path, module: str, line: str, broken: str) -> None:
    done = _lint(tmp_path, {module: line})
    assert done.returncode != 0
    # the contract named broke, and says where
    report = done.stdout.replace("\n", " ")
    assert broken in report.split("Broken contracts")[1]


def test_the_picture_of_the_architecture_is_up_to_date() -> None:
    """docs/architecture.md's import graph is the code's, now."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "import_graph.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_python_module_in_src_is_over_600_lines() -> None:
    """A module a reader can hold in mind: past 600 lines, split it by what
    its parts are about (as words/ and web/api_schema/ are)."""
    long = {
        str(path.relative_to(ROOT)): n
        for path in (ROOT / "src").rglob("*.py")
        if (n := len(path.read_text().splitlines())) > 600
    }
    assert long == {}
