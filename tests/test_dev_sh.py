"""dev.sh's two set-ups, without the network: in a copy of the repository's
set-up files, with stand-ins on PATH for python3 (its venv's pip, escoba,
ruff, mypy and pytest), npm, apt-get and `id` (root, so the browser
packages would be installed if asked for). `run` installs what serving needs
and says so; only `test` installs the tests' tools and the browser packages."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FILES = (
    "dev.sh",
    "pyproject.toml",
    "requirements.lock",
    "package.json",
    "package-lock.json",
    ".npmrc",
)
#: the commands dev.sh uses besides bash's own and the stand-ins
TOOLS = ("cat", "cut", "dirname", "sha256sum")

LOGGER = '#!/bin/bash\necho "{name} $*" >> "$STUB_LOG"\n'
VENV = """#!/bin/bash
echo "python3 $*" >> "$STUB_LOG"
[ "$1 $2" = "-m venv" ] || exit 1
/bin/mkdir -p "$3/bin"
for tool in python escoba ruff mypy lint-imports pytest; do
  printf '#!/bin/bash\\necho "%s $*" >> "$STUB_LOG"\\n' "$tool" > "$3/bin/$tool"
  /bin/chmod +x "$3/bin/$tool"
done
"""
NPM = '#!/bin/bash\necho "npm $*" >> "$STUB_LOG"\n/bin/mkdir -p node_modules\n'
ROOT_ID = "#!/bin/bash\necho 0\n"


def _script(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    for name in FILES:
        shutil.copyfile(ROOT / name, repo / name)
    stubs = tmp_path / "bin"
    stubs.mkdir()
    for tool in TOOLS:
        found = shutil.which(tool)
        assert found is not None, tool
        (stubs / tool).symlink_to(found)
    _script(stubs / "python3", VENV)
    _script(stubs / "npm", NPM)
    _script(stubs / "apt-get", LOGGER.format(name="apt-get"))
    _script(stubs / "id", ROOT_ID)
    return repo


def _dev_sh(repo: Path, *args: str) -> tuple[list[str], str]:
    """Run `bash dev.sh …` in `repo`: the commands it ran, and its stderr."""
    log = repo.parent / "calls.log"
    log.write_text("")
    env = {
        "PATH": str(repo.parent / "bin"),
        "HOME": str(repo.parent),
        "STUB_LOG": str(log),
        "PYTHON": "python3",
        "ESCOBA_CHROMIUM": str(repo / "no-chromium"),  # as on a machine without it
    }
    bash = shutil.which("bash")
    assert bash is not None
    done = subprocess.run(
        [bash, "dev.sh", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return log.read_text().splitlines(), done.stderr


def test_run_installs_what_serving_needs_and_says_so(checkout: Path) -> None:
    calls, said = _dev_sh(checkout, "run", "--port", "9000")
    # npm runs in the background meanwhile: its line may come anywhere before serving
    python = [c for c in calls if not c.startswith("npm ")]
    assert python[0] == "python3 -m venv .venv"
    installs = [c for c in calls if c.startswith("python -m pip install") and "-e" in c]
    assert len(installs) == 1 and installs[0].endswith("-c requirements.lock -e .")
    assert "npm ci --no-audit --no-fund --loglevel=error --omit=dev --omit=peer" in calls
    assert not any(c.startswith("apt-get") for c in calls)  # no browser packages
    assert not any(c.split()[0] in ("ruff", "mypy", "lint-imports", "pytest") for c in calls)
    assert calls[-1] == "escoba serve --port 9000"
    assert sorted(said.splitlines()) == [
        "dev.sh: creating the virtualenv (.venv)",
        "dev.sh: installing the app's Python packages (requirements.lock)",
        "dev.sh: installing the front-end packages (npm ci --omit=dev)",
    ]
    # the second time there is nothing to do, and nothing is said
    calls, said = _dev_sh(checkout, "run")
    assert calls == ["escoba serve"] and said == ""


def test_test_adds_the_tests_tools_and_the_browser_packages(checkout: Path) -> None:
    _dev_sh(checkout, "run")
    calls, said = _dev_sh(checkout, "test", "-q")
    installs = [c for c in calls if c.startswith("python -m pip install") and "-e" in c]
    assert len(installs) == 1 and installs[0].endswith("-c requirements.lock -e .[dev]")
    assert "npm ci --no-audit --no-fund --loglevel=error" in calls  # devDependencies too
    assert any(c.startswith("apt-get install") and "chromium" in c for c in calls)
    # the checks, then the suite: lint, format, types, who imports whom
    assert [c.split()[0] for c in calls[-5:]] == ["ruff", "ruff", "mypy", "lint-imports", "pytest"]
    assert calls[-1] == "pytest -q"
    assert "dev.sh: installing chromium" in said
    # what `test` installed serves too: `run` has nothing to add
    calls, said = _dev_sh(checkout, "run")
    assert calls == ["escoba serve"] and said == ""


def test_test_of_one_room_runs_its_tests_alone_without_the_whole_trees_checks(
    checkout: Path,
) -> None:
    """`bash dev.sh test tests/engine` (a folder, a file, a test's node id):
    those tests in seconds; the checks of the whole tree are the full run's."""
    (checkout / "tests" / "engine").mkdir(parents=True)
    (checkout / "tests" / "engine" / "test_cards.py").write_text("")
    for args in (
        ["tests/engine", "-q"],
        ["-x", "tests/engine/test_cards.py"],
        ["tests/engine/test_cards.py::test_one"],
    ):
        calls, _ = _dev_sh(checkout, "test", *args)
        assert not any(c.split()[0] in ("ruff", "mypy", "lint-imports") for c in calls), calls
        assert calls[-1] == "pytest " + " ".join(args)
    # options alone, or a path that is none: the whole run
    calls, _ = _dev_sh(checkout, "test", "-q", "-k", "tests/nowhere")
    assert [c.split()[0] for c in calls[-5:]] == ["ruff", "ruff", "mypy", "lint-imports", "pytest"]


def test_run_without_npm_says_what_is_missing(checkout: Path) -> None:
    (checkout.parent / "bin" / "npm").unlink()
    env = {
        "PATH": str(checkout.parent / "bin"),
        "STUB_LOG": os.devnull,
        "PYTHON": "python3",
    }
    bash = shutil.which("bash")
    assert bash is not None
    done = subprocess.run(
        [bash, "dev.sh", "run"], cwd=checkout, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "npm is needed for the front-end packages" in done.stderr
