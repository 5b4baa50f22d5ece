"""Languages: the choice per viewer, the catalogs, and pages in each language."""

from __future__ import annotations

import re

import pytest

from escoba.engine import parse_card
from escoba.i18n import (
    ALL_LANGUAGES,
    CATALOGS,
    TRANSLATED,
    choose_lang,
    compiled,
    mo_path,
    negotiate,
    translations,
)
from escoba.names import Design, card_name, the_card
from escoba.web.rendering.templating import render_page, render_table

from .conftest import make_page, play_until, start


@pytest.mark.parametrize("lang", CATALOGS)
def test_compiled_catalogs_match_their_po(lang: str) -> None:
    """The .mo files in the repository are what the .po compile to: run
    `python -m escoba.i18n compile` after editing a .po."""
    assert mo_path(lang).read_bytes() == compiled(lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_string_is_translated(lang: str) -> None:
    from babel.messages.pofile import read_po

    with open(str(mo_path(lang)).replace(".mo", ".po"), "rb") as f:
        catalog = read_po(f, locale=lang)
    empty = [
        m.id
        for m in catalog
        if m.id and not all(m.string if isinstance(m.string, tuple) else (m.string,))
    ]
    assert empty == []


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "es"),
        ("", "es"),
        ("pt-BR,pt;q=0.9,en;q=0.8", "pt_BR"),
        ("pt-PT", "pt_BR"),
        ("en-US,en;q=0.9", "en"),
        ("fr-FR,fr;q=0.9,en;q=0.5", "en"),
        ("de, es;q=0.2, en;q=0.1", "es"),
        ("en;q=0, pt;q=0.3", "pt_BR"),
        ("zh", "es"),
        ("es-AR,es;q=0.9", "es_AR"),
        ("es-UY", "es_AR"),
    ],
)
def test_accept_language(header: str | None, lang: str) -> None:
    assert negotiate(header) == lang


def test_cookie_wins_over_accept_language() -> None:
    assert choose_lang("en", "pt-BR") == "en"
    assert choose_lang("xx", "pt-BR") == "pt_BR"
    assert choose_lang(None, None) == "es"


def test_card_names_in_each_language() -> None:
    seven, queen = parse_card("7D"), parse_card("8S")
    assert card_name(seven, Design.FRENCH, "en") == "7 of diamonds"
    assert the_card(queen, Design.FRENCH, "en") == "the queen of spades"
    assert the_card(queen, Design.FRENCH, "pt_BR") == "a dama de espadas"
    assert card_name(seven, Design.SPANISH, "pt_BR") == "sete de ouros"
    assert the_card(queen, Design.SPANISH, "es") == "la sota de espadas"


def test_pages_in_each_language() -> None:
    assert '<html lang="en">' in render_page("home.html", "en", error=None, name=None, target=None)
    home_pt = render_page("home.html", "pt_BR", error=None, name=None, target=None)
    assert '<html lang="pt-BR">' in home_pt and "CRIAR MESA" in home_pt
    state = start(seed=5)
    page = make_page(state, seat=state.round.turn)
    english = render_table(page, Design.FRENCH, "en")
    assert "TAKE" in english and "LEAVE ON THE TABLE" in english
    assert "Your turn!" in english
    # the game's own words stay Spanish
    portuguese = render_table(page, Design.FRENCH, "pt_BR")
    assert "DEIXAR NA MESA" in portuguese and "Sua vez!" in portuguese
    assert translations("es").gettext("LLEVAR") == "LLEVAR"


@pytest.mark.parametrize("lang", ALL_LANGUAGES)
def test_the_fast_gettext_renders_as_jinjas_own(lang: str) -> None:
    """The templates' `_()` and `ngettext()` are plain functions over a cache
    of the catalog (Jinja's pass through two context calls each): pages in
    every phase, lobby to game over, render byte for byte as with Jinja's
    own newstyle gettext — escaped arguments, `%%`, plurals included."""
    from jinja2 import Environment

    from escoba.engine import Phase
    from escoba.web.rendering.templating import environment, table_context

    ours = environment(lang)
    stock = Environment(
        loader=ours.loader,
        autoescape=ours.autoescape,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    stock.install_gettext_translations(translations(lang), newstyle=True)
    gettexts = ("_", "gettext", "ngettext")
    stock.globals.update({k: v for k, v in ours.globals.items() if k not in gettexts})
    assert all(stock.globals[k] is not ours.globals[k] for k in gettexts)
    assert stock.globals["_"].__module__ == "jinja2.ext"

    four = start(players=4, seed=9)
    pages = [
        make_page(None, seat=0),
        make_page(None, seat=None, players=3),
        make_page(start(seed=5), seat=0),
        make_page(start(seed=5), seat=None),
        make_page(four, seat=four.round.turn, players=4),
        make_page(play_until(start(seed=2), lambda s: s.phase is Phase.ROUND_OVER), seat=1),
        make_page(play_until(start(seed=4), lambda s: s.phase is Phase.GAME_OVER), seat=0),
    ]
    for page in pages:
        for design in Design:
            context = table_context(page, design, lang=lang, error="<i>¡Ojo!</i> 100%")
            mine = ours.get_template("table.html").render(next_path="/t/x", **context)
            theirs = stock.get_template("table.html").render(next_path="/t/x", **context)
            assert mine == theirs
    source = (
        '{{ _("%(n)s <b>%%</b> de %(who)s", n=3, who="<script>") }}|'
        '{{ ngettext("%(num)s carta", "%(num)s cartas", 2) }}|{{ _("al 100%% sin") }}'
    )
    assert ours.from_string(source).render() == stock.from_string(source).render()
    assert "&lt;script&gt;" in ours.from_string(source).render()


@pytest.mark.parametrize("lang", ALL_LANGUAGES)
def test_the_script_s_sentences_that_the_server_also_says_come_from_the_catalog(
    lang: str,
) -> None:
    """escoba.js warns before a move the server would refuse: its words are
    the refusal's own, in the page's language (`{sum}` filled in by the script)."""
    import json
    from html import unescape

    from escoba.words import say

    page = render_page("home.html", lang, error=None, name=None, target=None)
    found = re.search(r'data-messages="([^"]*)"', page)
    assert found is not None
    messages = json.loads(unescape(found.group(1)))
    assert messages["wrongSum"] == say("not_fifteen", lang, sum="{sum}")
    assert messages["mustTake"] == say("must_capture", lang)
    assert messages["firstHand"] == say("pick_card", lang)
    assert messages["pickTable"] == say("pick_capture", lang)
    assert messages["tooManyStreams"] == say("too_many_streams", lang)


@pytest.mark.parametrize(
    ("lang", "pairs", "absence"),
    [("pt_BR", "AS DUPLAS", "TERMINAR POR AUSÊNCIA"), ("en", "PAIRS", "END FOR ABSENCE")],
)
def test_pairs_and_the_absence_button_are_translated(lang: str, pairs: str, absence: str) -> None:
    """LAS PAREJAS is the lobby's heading, TERMINAR POR AUSENCIA a button:
    both read in the page's language, and every sentence that names the
    button names it as the button reads."""
    from babel.messages.pofile import read_po

    from escoba.words import say

    lobby = render_table(
        make_page(None, seat=0, players=4, partner_position=2), Design.FRENCH, lang
    )
    assert f"<h3>{pairs}</h3>" in lobby and "LAS PAREJAS" not in lobby
    assert translations(lang).gettext("TERMINAR POR AUSENCIA") == absence
    assert absence in say("waiting_absence", lang, who="Beto", since="24 h")
    with open(str(mo_path(lang)).replace(".mo", ".po"), "rb") as f:
        catalog = read_po(f, locale=lang)
    spanish = [
        m.id
        for m in catalog
        if m.id
        for s in (m.string if isinstance(m.string, tuple) else (m.string,))
        if "TERMINAR POR AUSENCIA" in s or "LAS PAREJAS" in s
    ]
    assert spanish == []
