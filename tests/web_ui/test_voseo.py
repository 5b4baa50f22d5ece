"""Rioplatense Spanish (es_AR): a browser that asks for es-AR or es-UY reads
the voseo («Jugá», «Creá una mesa», «Escribí tu nombre») everywhere a player
reads — pages, escoba.words' sentences, the page script's words, notices —
from a catalog of its own over the Spanish source strings."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest
from babel.messages.pofile import read_po

from escoba.engine import parse_card
from escoba.i18n import choose_lang, negotiate, parse_lang, po_path, switched, translations
from escoba.names import Design, the_card
from escoba.words import say

from .conftest import make_page, start

#: The tú forms the site's Spanish uses: a source string with one of them
#: needs its voseo in es_AR's catalog. These are never a third person:
#: present tenses in -s, the pronouns, imperatives with a pronoun attached.
TU_ONLY = (
    "puedes", "tienes", "quieres", "juegas", "llevas", "dejas", "haces", "eliges", "sales",
    "pierdes", "abandonas", "recibes", "activas", "vacías", "eres", "sabes", "debes",
    "ganas", "necesitas", "escribes", "tocas", "levantas", "pasas", "eliges",
    "tú", "ti", "contigo",
    "siéntate", "avísame", "ábrela", "ábrelo", "cópialo", "permítelos", "tócalo", "haz",
)  # fmt: skip
#: Imperatives that are also a third person («cada uno juega», «quien crea
#: la mesa»): where the word is a third person the catalog says so by giving
#: the string as it is.
TU_OR_THIRD = (
    "juega", "crea", "escribe", "toca", "elige", "pulsa", "espera", "prueba", "abre",
    "confirma", "vuelve", "mira", "revisa", "pide", "cierra", "borra", "suelta", "indica",
    "agrega", "manda", "usa", "envía", "pasa",
)  # fmt: skip


def _words(forms: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?<![\w])(" + "|".join(forms) + r")(?![\w])", re.IGNORECASE)


_TU = _words(TU_ONLY + TU_OR_THIRD)
_TU_ONLY = _words(TU_ONLY)
#: «te toca» is «it is your turn», and «se juega», «se escribe» are no one's:
#: the same in voseo.
_NOT_TU = re.compile(r"\b(te toca|se \w+)\b", re.IGNORECASE)


def _tu_forms(text: str, forms: re.Pattern[str] = _TU) -> list[str]:
    return forms.findall(_NOT_TU.sub("", text))


def _es_ar() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    with po_path("es_AR").open("rb") as f:
        catalog = read_po(f, locale="es_AR")
    out = []
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        out.append((ids, strings))
    return out


def test_every_string_with_a_tu_form_has_its_voseo() -> None:
    """A new string that says «puedes» or «Toca» fails here until es_AR's
    catalog has its voseo (tools/update_catalogs.py brings it in empty)."""
    missing = [
        ids[0] for ids, strings in _es_ar() if any(_tu_forms(i) for i in ids) and not all(strings)
    ]
    assert missing == []


def test_the_voseo_keeps_no_tu_form() -> None:
    left = [
        (strings, _tu_forms(" ".join(strings), _TU_ONLY))
        for _ids, strings in _es_ar()
        if all(strings) and _tu_forms(" ".join(strings), _TU_ONLY)
    ]
    assert left == []


def test_only_the_strings_that_change_are_translated() -> None:
    """Everything else is the Spanish source, read through the fallback."""
    entries = _es_ar()
    translated = [ids for ids, strings in entries if all(strings)]
    assert 50 < len(translated) < len(entries) / 2
    untouched = [ids for ids, strings in entries if all(strings) and not _tu_forms(ids[0])]
    assert untouched == []


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("es-AR,es;q=0.9,en;q=0.8", "es_AR"),
        ("es-UY", "es_AR"),
        ("es_ar", "es_AR"),
        ("es-ES,es;q=0.9", "es"),
        ("es-419", "es"),
        ("es-MX", "es"),
        ("en-US, es-AR;q=0.5", "en"),
        ("fr, es-AR;q=0.5", "es_AR"),
    ],
)
def test_accept_language_asks_for_the_voseo(header: str, lang: str) -> None:
    assert negotiate(header) == lang


def test_the_cookie_and_the_switch() -> None:
    assert parse_lang("es_AR") == "es_AR" and parse_lang("es-AR") == "es_AR"
    assert choose_lang("es_AR", "en") == "es_AR"
    assert choose_lang("es", "es-AR") == "es"  # a chosen Spanish stays chosen
    # «Español» pressed in a browser that asks for es-AR keeps its voseo
    assert switched("es", "es-AR,es;q=0.9") == "es_AR"
    assert switched("es", "es-ES") == "es"
    assert switched("es_AR", None) == "es_AR"
    assert switched("en", "es-AR") == "en"


def test_the_catalog_falls_back_to_spanish() -> None:
    tr = translations("es_AR")
    assert tr.gettext("Escribí tu nombre.") == "Escribí tu nombre."  # not a msgid: as is
    assert tr.gettext("Escribe tu nombre.") == "Escribí tu nombre."
    assert tr.gettext("Mis mesas") == "Mis mesas"  # the same in every Spanish
    assert tr.ngettext("%(num)s carta", "%(num)s cartas", 0) == "%(num)s cartas"
    assert tr.ngettext("%(num)s carta", "%(num)s cartas", 1) == "%(num)s carta"
    # card names, numbers and the «y» of a list are Spanish's
    seven = parse_card("7D")
    assert the_card(seven, Design.SPANISH, "es_AR") == "el siete de oros"


def test_words_speak_voseo() -> None:
    assert say("stale", "es_AR") == (
        "La mesa cambió desde que la viste: mirá cómo quedó y volvé a jugar."
    )
    assert say("pick_card", "es_AR") == "Primero tocá una carta de tu mano."
    assert say("no_table", "es_AR") == say("no_table", "es")  # nothing to change


def _page_messages(page: str) -> dict[str, str]:
    found = re.search(r'data-messages="([^"]*)"', page)
    assert found is not None
    messages: dict[str, str] = json.loads(unescape(found.group(1)))
    return messages


def test_the_pages_and_their_script_speak_voseo() -> None:
    from escoba.web.rendering.templating import render_page, render_table

    home = render_page("home.html", "es_AR", error=None, name=None, target=None)
    assert '<html lang="es-AR">' in home
    assert "Jugá con tus amigos a tu ritmo" in home and "Creá una mesa" in home
    # the switch shows it as «Español», chosen, and keeps it when pressed
    chosen = re.search(r'<button class="lang-btn is-chosen"[^>]*>', home)
    assert chosen is not None and 'value="es_AR"' in chosen.group(0)
    assert home.count('class="lang-btn') == 3
    messages = _page_messages(home)
    assert messages["touchHand"] == "Tocá una carta de tu mano."
    assert messages["canFifteen"] == "Con {card} podés hacer 15: tocá las cartas iluminadas."
    assert messages["firstHand"] == say("pick_card", "es_AR")
    assert messages["wrongSum"] == say("not_fifteen", "es_AR", sum="{sum}")

    state = start(seed=5)
    board = render_table(make_page(state, seat=state.round.turn), Design.FRENCH, "es_AR")
    spain = render_table(make_page(state, seat=state.round.turn), Design.FRENCH, "es")
    assert "Si abandonás, perdés la partida" in board and "Si abandonas" not in board
    assert "podés cerrar la página" in board
    assert "DEJAR EN LA MESA" in board and "¡Tu turno!" in board  # what does not change
    # nothing but the voseo differs from the Spanish page
    assert len(board) - len(spain) < 200


def test_notices_speak_voseo() -> None:
    from escoba.web.notices.notice import Notice, NoticeKind, notice_text
    from escoba.web.notices.push.channel import payload

    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    warning = Notice(
        NoticeKind.WARNING,
        1,
        1,
        "inviteinvite",
        ("Ana", "Beto"),
        "Beto",
        now - timedelta(hours=24),
        now + timedelta(hours=8),
    )
    assert notice_text(warning, "es_AR", now)[1] == (
        "Es tu turno desde hace 24 horas: si no jugás, van a poder TERMINAR POR AUSENCIA "
        "dentro de 8 horas."
    )
    sent = json.loads(payload(warning, "es_AR", now))
    assert sent["lang"] == "es-AR" and "si no jugás" in sent["body"]
