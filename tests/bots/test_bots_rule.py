"""«Robots never see a game state», as a rule on imports: every module of
escoba.bots is read (not run) and may import from the engine only what a
seat's view is made of (see the package docstring)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import escoba.bots

PACKAGE = Path(escoba.bots.__file__).parent

#: Engine modules a robot may import from: the view's type and its values.
ALLOWED_ENGINE = {
    "escoba.engine.actions",
    "escoba.engine.captures",
    "escoba.engine.cards",
    "escoba.engine.errors",
    "escoba.engine.rules",
    "escoba.engine.seats",
    "escoba.engine.view",
}
#: Of `escoba.engine.view`, only the types: `view()` reads a whole state.
ALLOWED_FROM_VIEW = {"View", "SeatInfo"}


def imports_of(path: Path) -> list[tuple[str, str | None, int]]:
    """(module, name imported from it or None, line) for every import in the
    file, at any depth (inside functions too), relative ones resolved."""
    try:
        package = ".".join(["escoba", "bots", *path.parent.relative_to(PACKAGE).parts])
    except ValueError:  # a file of the rule's own tests: read as if it were here
        package = "escoba.bots"
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[tuple[str, str | None, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((alias.name, None, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            out.extend((base, alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in ("__import__", "import_module"):
                out.append(("<dynamic import>", None, node.lineno))
    return out


def violation(module: str, name: str | None) -> str | None:
    """Why importing `name` from `module` breaks the rule, or None."""
    if module == "<dynamic import>":
        return "a dynamic import cannot be checked"
    if module == "importlib" or module.startswith("importlib."):
        return "importlib could load anything"
    if module != "escoba" and not module.startswith("escoba."):
        return None  # the standard library and third parties hold no game
    if module == "escoba.bots" or module.startswith("escoba.bots."):
        return None
    if module == "escoba" and name is not None:
        return violation(f"escoba.{name}", None)
    if module not in ALLOWED_ENGINE:
        return f"{module} is not part of a seat's view"
    if module == "escoba.engine.view" and name not in ALLOWED_FROM_VIEW:
        return f"only {sorted(ALLOWED_FROM_VIEW)} of escoba.engine.view (view() reads a state)"
    return None


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_robot_module_is_read() -> None:
    names = {p.stem for p in modules()}
    assert {"__init__", "base", "carmen", "judge", "luna", "sim", "knowledge"} <= names


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.stem)
def test_robots_never_import_a_game_state(path: Path) -> None:
    broken = [
        f"{path.name}:{line}: {module}{'' if name is None else '.' + name}: {why}"
        for module, name, line in imports_of(path)
        if (why := violation(module, name)) is not None
    ]
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize(
    ("source", "allowed"),
    [
        ("from escoba.engine.view import View", True),
        ("from escoba.engine.cards import VALUE", True),
        ("from escoba.engine.rules import HAND_SIZE", True),
        ("import random", True),
        ("from escoba.engine.view import view", False),
        ("from escoba.engine.state import GameState", False),
        ("from escoba.engine.state import RoundState", False),
        ("from escoba.engine import GameState", False),
        ("from escoba.engine import cards", False),
        ("import escoba.engine.state", False),
        ("import escoba.engine.view", False),
        ("from escoba.engine.game import HAND_SIZE", False),
        ("from escoba.engine.serialize import state_from_dict", False),
        ("from escoba.engine.record import replay_states", False),
        ("from escoba.tournament import play_deal", False),
        ("from escoba.tournament.matches import play_deal", False),
        ("from escoba.cheater import true_world", False),
        ("from escoba import engine", False),
        ("from ..engine import state", False),
        ("def f():\n    from escoba.engine.state import GameState", False),
        ("import importlib", False),
        ("__import__('escoba.engine.state')", False),
    ],
)
def test_the_rule_tells_a_view_from_a_state(source: str, allowed: bool, tmp_path: Path) -> None:
    path = tmp_path / "robot.py"
    path.write_text(source + "\n", encoding="utf-8")
    found = [violation(m, n) for m, n, _ in imports_of(path)]
    assert (not any(found)) is allowed, found
