from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from escoba.engine.cards import NOTATION
from escoba.names import Design, card_name
from escoba.web.base.cards_svg import card_back_svg, card_svg, sprite, symbol_id

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
    brazilian = symbols(Design.BRAZILIAN)
    for card in range(40):
        key = symbol_id(card)
        assert ET.tostring(french[key]) != ET.tostring(spanish[key])
        assert ET.tostring(brazilian[key]) != ET.tostring(spanish[key])
        assert card_svg(card, Design.FRENCH) != card_svg(card, Design.SPANISH)
        assert card_svg(card, Design.BRAZILIAN) != card_svg(card, Design.FRENCH)
        # the French pips; only the 8 and the 9 swap their faces
        same = ET.tostring(brazilian[key]) == ET.tostring(french[key])
        assert same == (card // 4 + 1 not in (8, 9))


def _texts(design: Design, notation: str) -> list[str]:
    return [t.text or "" for t in symbols(design)[f"c{notation}"].iter(f"{SVG}text")]


@pytest.mark.parametrize("suit", "DHSC")
def test_jota_8_reina_9_draws_the_8_as_a_j_and_the_9_as_a_q(suit: str) -> None:
    """RULES.md «Jota 8, reina 9»: the corner, the face panel and the upside-down
    corner say J on the 8 and Q on the 9, each with its value mark; the king
    stays the 10. The French design keeps Q 8, J 9."""
    for design, eight, nine in ((Design.BRAZILIAN, "J", "Q"), (Design.FRENCH, "Q", "J")):
        assert _texts(design, f"8{suit}") == [eight, eight, "8", eight]
        assert _texts(design, f"9{suit}") == [nine, nine, "9", nine]
        assert _texts(design, f"10{suit}") == ["K", "K", "10", "K"]


def test_jota_8_reina_9_names_each_card_with_its_value() -> None:
    label = ET.fromstring(str(card_svg(28, Design.BRAZILIAN))).get("aria-label")
    assert label == "jota de oros (vale 8)"
    label = ET.fromstring(str(card_svg(33, Design.BRAZILIAN, "pt_BR"))).get("aria-label")
    assert label == "dama de copas (vale 9)"
    label = ET.fromstring(str(card_svg(30, Design.BRAZILIAN, "en"))).get("aria-label")
    assert label == "jack of spades (worth 8)"
    svg = str(card_svg(28, Design.BRAZILIAN))
    assert 'data-card-design="brazilian"' in svg and "/static/cards-brazilian.svg#c8D" in svg


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
