"""The rules page's numbers (/reglas) against the engine's, and the engine's
against RULES.md's tables (issue 34: «a test compares the numbers: card
values, points, the setenta table»). RULES.md is the project's shared
rules, beside the clone (`<repo>/../shared/RULES.md`); without it the second
half is skipped, saying so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from escoba.engine import parse_card
from escoba.engine.cards import CARDS, IS_DIAMOND, NOTATION, VALUE
from escoba.engine.rules import SETENTA_WORTH, SITE_TARGETS, TARGETS
from escoba.names import Design, rank_label, words
from escoba.web.rendering.rules_page import deals, page_words, points, rules_page
from escoba.web.rendering.templating import render_page

RULES_MD = Path(__file__).resolve().parents[2].parent / "shared" / "RULES.md"


def _page(design: Design = Design.FRENCH, lang: str = "es") -> str:
    return render_page(
        "rules.html",
        lang,
        rules=rules_page(design, lang),
        design=design,
        next_path="/reglas",
        **page_words(design, lang),
    )


def page_numbers(html: str) -> dict[str, object]:
    """What the page says, read from the marks its numbers carry."""
    values = dict(re.findall(r'<li data-card="(\w+)">.*?data-value="(\d+)"', html, re.S))
    return {
        "values": {card: int(v) for card, v in values.items()},
        "points": {k: int(v) for k, v in re.findall(r'data-points="(\w+)">(\d+)<', html)},
        "setenta": {int(v): int(w) for v, w in re.findall(r'data-setenta="(\d+)">(\d+)<', html)},
        "deals": {
            int(n): int(d) for n, d in re.findall(r'data-players="(\d)" data-deals="(\d)"', html)
        },
        "targets": tuple(int(t) for t in re.search(r'data-targets="([\d ]+)"', html)[1].split()),  # type: ignore[index]
        "other_targets": tuple(
            int(t)
            for t in re.search(r'data-other-targets="([\d ]+)"', html)[1].split()  # type: ignore[index]
        ),
    }


ENGINE_POINTS = {
    "escoba": 1,
    "most_cards": 1,
    "all_cards": 2,
    "most_diamonds": 1,
    "all_diamonds": 2,
    "most_sevens": 1,
    "all_sevens": 2,
    "seven_of_diamonds": 1,
    "setenta": 1,
}


@pytest.mark.parametrize("design", list(Design))
def test_the_page_says_the_engines_numbers(design: Design) -> None:
    said = page_numbers(_page(design))
    # the ten cards of the diamonds, each worth what the engine counts
    diamonds = [c for c in CARDS if IS_DIAMOND[c]]
    assert said["values"] == {NOTATION[c]: VALUE[c] for c in diamonds}
    assert sorted(said["values"].values()) == list(range(1, 11))  # type: ignore[union-attr]
    # every scoring line's points, as score_round scores them
    assert said["points"] == points()
    # the setenta table: every value, worth what the engine's table says
    assert said["setenta"] == SETENTA_WORTH
    assert said["deals"] == {n: deals(n) for n in (2, 3, 4)}
    assert said["targets"] == SITE_TARGETS
    assert set(said["other_targets"]) == set(TARGETS) - set(SITE_TARGETS)  # type: ignore[arg-type]


def test_the_engines_points_are_the_ones_the_page_probes() -> None:
    """`points()` asks score_round; these are the numbers it must answer,
    so a change in the engine's scoring shows here, by name."""
    assert points() == ENGINE_POINTS
    assert {n: deals(n) for n in (2, 3, 4)} == {2: 6, 3: 4, 4: 3}


# --------------------------------------------------------------------------
# RULES.md


@pytest.fixture(scope="module")
def rules_md() -> str:
    if not RULES_MD.is_file():
        pytest.skip(f"no shared/RULES.md beside the clone ({RULES_MD}): nothing to compare with")
    return RULES_MD.read_text(encoding="utf-8")


def _row(text: str, item: str) -> list[int]:
    """The numbers of a row of RULES.md's scoring table, in order."""
    found = re.search(rf"^\|\s*{re.escape(item)}[^|]*\|([^|]*)\|", text, re.M)
    assert found, f"RULES.md's scoring table has no row «{item}»"
    return [int(n) for n in re.findall(r"\d+", found[1])]


def test_rules_md_card_values_are_the_engines(rules_md: str) -> None:
    cards = re.search(r"Capture values:\s*(.+?)\.\s", rules_md, re.S)
    assert cards, "RULES.md names the capture values"
    said = " ".join(cards[1].split())
    assert "A=1" in said and "2–7 face value" in said
    faces = dict(re.findall(r"\b([QJK])=(\d+)", said))
    # the French design's faces, as the engine values and the names draw them
    for letter, value in faces.items():
        (card,) = [c for c in CARDS if VALUE[c] == int(value) and IS_DIAMOND[c]]
        assert rank_label(card, Design.FRENCH) == letter
    assert sorted(int(v) for v in faces.values()) == [8, 9, 10]
    assert VALUE[parse_card("1D")] == 1 and all(
        VALUE[parse_card(f"{v}H")] == v for v in range(2, 8)
    )
    spanish = dict((name, int(v)) for name, v in re.findall(r"(sota|caballo|rey)=(\d+)", rules_md))
    ranks = words(Design.SPANISH, "es").ranks
    assert spanish == {ranks[v]: v for v in (8, 9, 10)}
    brazilian = dict(re.findall(r"\b([JQ]) = (\d+)", rules_md))
    for letter, value in brazilian.items():
        assert rank_label(parse_card(f"{value}D"), Design.BRAZILIAN) == letter


def test_rules_md_points_are_the_engines(rules_md: str) -> None:
    p = points()
    assert _row(rules_md, "each escoba") == [p["escoba"]]
    assert _row(rules_md, "most cards")[:2] == [p["most_cards"], p["all_cards"]]
    assert _row(rules_md, "most diamonds")[:2] == [p["most_diamonds"], p["all_diamonds"]]
    assert _row(rules_md, "the 7 of diamonds") == [p["seven_of_diamonds"]]
    assert _row(rules_md, "most sevens")[:2] == [p["most_sevens"], p["all_sevens"]]
    assert "The highest setenta scores 1." in " ".join(rules_md.split())
    assert p["setenta"] == 1


def test_rules_md_setenta_table_is_the_engines(rules_md: str) -> None:
    found = re.search(r"by this table\s*—(.+?)—", rules_md, re.S)
    assert found, "RULES.md gives la setenta's table"
    table: dict[int, int] = {}
    for name, worth in re.findall(r"(\d+|ace|Q/J/K) = (\d+)", found[1]):
        keys = {"ace": [1], "Q/J/K": [8, 9, 10]}.get(name, [int(name)] if name.isdigit() else [])
        for value in keys:
            table[value] = int(worth)
    assert table == SETENTA_WORTH


def test_rules_md_deals_and_targets_are_the_engines(rules_md: str) -> None:
    text = " ".join(rules_md.split())
    found = re.search(
        r"With 2 players there are (\d) deals, with 3 there are (\d), with 4 there are (\d)", text
    )
    assert found
    assert [int(n) for n in found.groups()] == [deals(2), deals(3), deals(4)]
    targets = re.search(r"target: (\d+) or (\d+) points \(\*variant:\* (\d+) or (\d+)\)", text)
    assert targets
    site, other = [int(n) for n in targets.groups()[:2]], [int(n) for n in targets.groups()[2:]]
    assert tuple(site) == SITE_TARGETS
    assert sorted(site + other) == sorted(TARGETS)
