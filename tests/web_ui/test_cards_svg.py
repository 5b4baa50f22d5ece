from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from escoba.names import Design, card_name
from escoba.web.cards_svg import card_back_svg, card_svg

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("design", list(Design))
def test_forty_distinct_valid_cards(design: Design) -> None:
    drawings = set()
    for card in range(40):
        svg = str(card_svg(card, design))
        root = ET.fromstring(svg)  # well-formed XML
        assert root.tag == f"{SVG}svg"
        assert root.get("role") == "img"
        name = card_name(card, design)
        assert name in (root.get("aria-label") or "")
        title = root.find(f"{SVG}title")
        assert title is not None and name in (title.text or "")
        assert root.get("viewBox") == "0 0 60 90"
        assert " id=" not in svg  # many cards share a page
        drawings.add(svg)
    assert len(drawings) == 40


def test_designs_differ() -> None:
    for card in range(40):
        assert card_svg(card, Design.FRENCH) != card_svg(card, Design.SPANISH)


@pytest.mark.parametrize(("card", "mark"), [(28, "8"), (32, "9"), (36, "10")])
def test_face_cards_carry_their_value(card: int, mark: str) -> None:
    for design in Design:
        root = ET.fromstring(str(card_svg(card, design)))
        texts = [t.text for t in root.iter(f"{SVG}text")]
        assert mark in texts
        assert f"(vale {mark})" in (root.get("aria-label") or "")


def test_corner_shows_the_rank() -> None:
    root = ET.fromstring(str(card_svg(0, Design.FRENCH)))
    assert next(t.text for t in root.iter(f"{SVG}text")) == "A"
    root = ET.fromstring(str(card_svg(36, Design.SPANISH)))
    assert next(t.text for t in root.iter(f"{SVG}text")) == "R"


def test_back_and_cache() -> None:
    root = ET.fromstring(str(card_back_svg()))
    assert root.get("aria-label") == "carta boca abajo"
    assert card_svg(5, Design.SPANISH) is card_svg(5, Design.SPANISH)
