from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from escoba.engine.cards import NOTATION
from escoba.names import Design, card_name
from escoba.web.cards_svg import card_back_svg, card_svg, sprite, symbol_id

SVG = "{http://www.w3.org/2000/svg}"


def symbols(design: Design) -> dict[str, ET.Element]:
    root = ET.fromstring(sprite(design))  # well-formed XML
    assert root.tag == f"{SVG}svg"
    return {s.get("id") or "": s for s in root.iter(f"{SVG}symbol")}


@pytest.mark.parametrize("design", list(Design))
def test_forty_distinct_valid_cards(design: Design) -> None:
    drawn = symbols(design)
    assert set(drawn) == {f"c{n}" for n in NOTATION}
    drawings = set()
    for card in range(40):
        svg = str(card_svg(card, design, "es", "/static/cards.svg"))
        root = ET.fromstring(svg)  # well-formed XML
        assert root.tag == f"{SVG}svg"
        assert root.get("role") == "img"
        name = card_name(card, design)
        assert name in (root.get("aria-label") or "")
        title = root.find(f"{SVG}title")
        assert title is not None and name in (title.text or "")
        assert root.get("viewBox") == "0 0 60 90"
        assert " id=" not in svg  # many cards share a page
        use = root.find(f"{SVG}use")
        assert use is not None and use.get("href") == f"/static/cards.svg#{symbol_id(card)}"
        symbol = drawn[symbol_id(card)]
        assert symbol.get("viewBox") == "0 0 60 90"
        drawings.add(ET.tostring(symbol).replace(symbol_id(card).encode(), b""))
    assert len(drawings) == 40


def test_designs_differ() -> None:
    french, spanish = symbols(Design.FRENCH), symbols(Design.SPANISH)
    for card in range(40):
        key = symbol_id(card)
        assert ET.tostring(french[key]) != ET.tostring(spanish[key])
        assert card_svg(card, Design.FRENCH) != card_svg(card, Design.SPANISH)


@pytest.mark.parametrize(("card", "mark"), [(28, "8"), (32, "9"), (36, "10")])
def test_face_cards_carry_their_value(card: int, mark: str) -> None:
    for design in Design:
        texts = [t.text for t in symbols(design)[symbol_id(card)].iter(f"{SVG}text")]
        assert mark in texts
        root = ET.fromstring(str(card_svg(card, design)))
        assert f"(vale {mark})" in (root.get("aria-label") or "")


def test_corner_shows_the_rank() -> None:
    symbol = symbols(Design.FRENCH)[symbol_id(0)]
    assert next(t.text for t in symbol.iter(f"{SVG}text")) == "A"
    symbol = symbols(Design.SPANISH)[symbol_id(36)]
    assert next(t.text for t in symbol.iter(f"{SVG}text")) == "R"


def test_a_card_on_the_page_is_small() -> None:
    """The drawing is in the sprite: a card on a board is its name and a
    reference (issue 15: an update of the board ≤ 4 KB)."""
    for card in range(40):
        assert len(str(card_svg(card, Design.SPANISH, "pt_BR", "/static/c.0123456789.svg"))) < 300


def test_back_and_cache() -> None:
    root = ET.fromstring(str(card_back_svg()))
    assert root.get("aria-label") == "carta boca abajo"
    assert card_svg(5, Design.SPANISH) is card_svg(5, Design.SPANISH)
