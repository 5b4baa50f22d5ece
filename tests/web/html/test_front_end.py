"""A server without the front-end packages (no `npm ci`) would serve pages
whose htmx never loads: every move a dead button, and no word to the
operator. So `escoba serve` refuses to start, naming the fix, and the ASGI
app (`uvicorn escoba.web.asgi:app`, gunicorn) fails its start-up loudly."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from escoba.cli import app as cli
from escoba.web.app import create_app
from escoba.web.base.assets import (
    REDOC_BUNDLE,
    VENDOR_FILES,
    FrontEndMissing,
    missing_front_end,
    require_front_end,
    vendor_shelf,
)
from escoba.web.base.db import migrate
from escoba.web.base.settings import Settings

#: What `npm ci` installed in this checkout, before the tests.
INSTALLED = Path(__file__).resolve().parents[3] / "node_modules"
#: Every file the app serves from node_modules, as `missing_front_end` names them.
EVERY_FILE = [*VENDOR_FILES.values(), REDOC_BUNDLE]
SSE = "htmx-ext-sse/dist/sse.min.js"


def _tree(root: Path, leave_out: str | None = None) -> Path:
    """A node_modules with the installed front-end files, but `leave_out`."""
    for parts in EVERY_FILE:
        name = "/".join(parts)
        if name == leave_out:
            continue
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(INSTALLED / name, root / name)
    return root


@pytest.fixture
def without_sse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """ESCOBA_NODE_MODULES: a tree where htmx's SSE extension is missing.
    An app started meanwhile reads the files once for the process (its
    shelf): that shelf, without the extension, is forgotten after, or the
    next test's pages in this worker would link a file that is not served."""
    tree = _tree(tmp_path / "node_modules", leave_out=SSE)
    monkeypatch.setenv("ESCOBA_NODE_MODULES", str(tree))
    yield tree
    vendor_shelf.cache_clear()


def test_the_check_names_the_missing_file_and_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, without_sse: Path
) -> None:
    assert missing_front_end() == [SSE]
    with pytest.raises(FrontEndMissing) as refused:
        require_front_end()
    message = str(refused.value)
    assert SSE in message and str(without_sse) in message
    assert "npm ci" in message and "bash dev.sh run" in message

    monkeypatch.setenv("ESCOBA_NODE_MODULES", str(_tree(tmp_path / "whole")))
    assert missing_front_end() == []
    require_front_end()
    monkeypatch.setenv("ESCOBA_NODE_MODULES", str(tmp_path / "nothing"))
    assert len(missing_front_end()) == len(EVERY_FILE)


def test_escoba_serve_refuses_to_start_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, without_sse: Path
) -> None:
    database = tmp_path / "escoba.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    result = CliRunner().invoke(cli, ["serve", "--port", "1"])
    assert result.exit_code == 1, result.output
    assert "not started" in result.stderr and SSE in result.stderr
    assert "npm ci" in result.stderr
    assert not database.exists()  # refused before the migrations


def test_the_asgi_app_fails_its_start_up(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, without_sse: Path
) -> None:
    """The serving app raises at start-up (its lifespan), so uvicorn exits
    with its start-up failure; an app made in a test may go without."""
    serving = create_app(settings, serving=True)
    with pytest.raises(FrontEndMissing, match="npm ci"), TestClient(serving):
        pass
    with TestClient(create_app(settings)) as client:
        assert client.get("/health/live").status_code == 200


def test_uvicorn_exits_with_the_error_in_its_log(tmp_path: Path, without_sse: Path) -> None:
    """Under plain uvicorn: its start-up failure (exit status 3, which also
    stops `--workers N` from restarting the processes), the fix logged."""
    url = f"sqlite:///{tmp_path / 'escoba.db'}"
    migrate(url)
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "ESCOBA_SECRET_KEY": "test",
        "ESCOBA_ROBOT_PROCESSES": "0",
        "ESCOBA_PUSH_PROCESSES": "0",
    }
    done = subprocess.run(
        [sys.executable, "-m", "uvicorn", "escoba.web.asgi:app", "--port", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 3, done.stderr[-2000:]
    assert "the front-end packages are not installed" in done.stderr
    assert SSE in done.stderr and "npm ci" in done.stderr
