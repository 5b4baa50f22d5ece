"""What the robots are like (issue 15, item 7): Tito is learning, Carmen plays
well, Luna plays strong. The lobby says it where robots are added and on the
seats they take, and the board on the seat list, in the viewer's language,
with a short description."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from escoba.bots import SEATABLE

from ..helpers import page_table, table_version

LEVELS = {
    "es": {"tito": "aprende", "carmen": "buena", "luna": "fuerte"},
    "en": {"tito": "learning", "carmen": "good", "luna": "strong"},
    "pt_BR": {"tito": "aprendiz", "carmen": "boa", "luna": "forte"},
}


def text(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def part(page: str, pattern: str) -> str:
    found = re.search(pattern, page, re.S)
    assert found is not None, pattern
    return found.group(0)


def add(site: TestClient, invite: str, robot: str) -> None:
    r = site.post(
        f"/t/{invite}/robots",
        data={"version": str(table_version(site, invite)), "robot": robot},
        follow_redirects=False,
    )
    assert r.status_code in (200, 303), r.text


def test_every_seatable_robot_has_a_level() -> None:
    assert {key: info.level for key, info in SEATABLE.items()} == {
        "carmen": "good",
        "tito": "learning",
        "luna": "strong",
    }


@pytest.mark.parametrize("lang", ["es", "en", "pt_BR"])
def test_the_lobby_says_what_each_robot_is_like(site: TestClient, lang: str) -> None:
    site.cookies.set("lang", lang)
    invite = page_table(site, "Ana")
    page = site.get(f"/t/{invite}").text
    robots = part(page, r'<div class="robots">.*?</ul>')
    words = LEVELS[lang]
    for key, name in (("tito", "Tito"), ("carmen", "Carmen"), ("luna", "Luna")):
        button = part(robots, rf"<button[^>]*>(?:(?!</button>).)*{name}.*?</button>")
        assert text(button) == f"{name} · {words[key]}"
        # its description, read with the button
        described = re.search(r'aria-describedby="([^"]+)"', button)
        assert described is not None
        about = part(robots, rf'<li id="{described.group(1)}".*?</li>')
        assert text(about).startswith(f"{name} — ") and len(text(about)) > len(name) + 10
    if lang == "es":
        assert "Tito — Aprende a jugar" in text(robots)
    # a seated robot keeps its word on its seat
    add(site, invite, "tito")
    page = site.get(f"/t/{invite}").text
    seat = part(page, r'<li class="seat-slot is-taken">(?:(?!</li>).)*Tito.*?</li>')
    level = part(seat, r'<span class="tag tag-level"[^>]*>[^<]*</span>')
    assert text(level) == words["tito"] and 'title="' in level


def test_the_board_says_what_each_robot_is_like(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    add(site, invite, "luna")
    add(site, invite, "tito")
    r = site.post(
        f"/t/{invite}/start",
        data={"version": str(table_version(site, invite))},
        follow_redirects=False,
    )
    assert r.status_code in (200, 303), r.text
    for path in (f"/t/{invite}", f"/t/{invite}/board"):
        page = site.get(path).text
        seats = part(page, r'<ul class="seats".*?</ul>')
        for name, word in (("Luna", "fuerte"), ("Tito", "aprende")):
            seat = part(seats, rf'<li class="seat[^"]*"[^>]*>(?:(?!</li>).)*{name}.*?</li>')
            level = part(seat, r'<span class="tag tag-level"[^>]*>[^<]*</span>')
            assert text(level) == word
            assert re.search(r'title="[^"]{10,}"', level)
        ana = part(seats, r'<li class="seat[^"]*"[^>]*>(?:(?!</li>).)*Ana.*?</li>')
        assert "tag-level" not in ana  # people have no level
