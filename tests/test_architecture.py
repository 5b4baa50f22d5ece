"""The import rules of [tool.importlinter] (pyproject.toml) bite: the test
command runs `lint-imports` on the tree as it is; here the same contracts
run on a copy of the package with one wrong arrow added, and must fail."""

from __future__ import annotations

import ast
import os
import re
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
        ("web/table/command_path.py", "from escoba.web.table import play", "No import circle"),
        # the engine reaching up into the web app
        ("engine/cards.py", "from escoba.web.html import routes", "The layers"),
        # a robot on the database
        ("bots/simple.py", "import sqlalchemy", "are pure"),
        # the command path calling the live streams by name: a room reaching up
        ("web/table/play.py", "from escoba.web.live import streams", "The rooms of the web app"),
        # the base reaching into the table
        ("web/base/db.py", "from escoba.web.table import store", "The rooms of the web app"),
        # the notices leaning on the live streams above them
        ("web/notices/dispatch.py", "from escoba.web.live import bridges", "The rooms"),
        # two rooms of one layer: the notices leaning on the devices
        ("web/notices/dispatch.py", "from escoba.web.devices import my_tables", "The rooms"),
        # the table reaching up into a browser's devices
        ("web/table/reads.py", "from escoba.web.devices import transfers", "The rooms"),
        # a device's list on the web framework
        ("web/devices/my_tables.py", "import fastapi", "know no web framework"),
        # the table's storage on the web framework
        ("web/table/store.py", "import starlette.requests", "know no web framework"),
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
    its parts are about (as words/ and web/api/schema/ are)."""
    long = {
        str(path.relative_to(ROOT)): n
        for path in (ROOT / "src").rglob("*.py")
        if (n := len(path.read_text().splitlines())) > 600
    }
    assert long == {}


WEB = ROOT / "src" / "escoba" / "web"


def _rooms() -> list[Path]:
    return sorted(p.parent for p in WEB.rglob("__init__.py") if p.parent != WEB)


def test_every_room_says_what_it_owns_and_what_it_may_import() -> None:
    """Each package of escoba.web opens with what it owns and, in a
    paragraph of its own, «May import:» the rooms it leans on; the rooms it
    really imports (lazy ones included) are among those it names."""
    import grimp

    graph = grimp.build_graph("escoba", cache_dir=None)
    names = {p.name for p in WEB.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    for room in _rooms():
        package = ".".join(room.relative_to(ROOT / "src").parts)
        doc = ast.get_docstring(ast.parse((room / "__init__.py").read_text())) or ""
        owns, sep, may = doc.partition("\n\nMay import:")
        assert owns.strip() and sep, f"{package}: no «May import:» paragraph after what it owns"
        named = {n for n in names if re.search(rf"\b{n}\b", may)}
        top = package.split(".")[2]
        used = {
            dep.split(".")[2]
            for module in graph.find_descendants(package) | {package}
            for dep in graph.find_modules_directly_imported_by(module)
            if dep.startswith("escoba.web.") and dep.split(".")[2] in names
        } - {top}
        assert used <= named, f"{package} imports {sorted(used - named)}, not in «May import:»"
