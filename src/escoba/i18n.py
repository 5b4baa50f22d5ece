"""Languages of the pages: Spanish (the source strings), Brazilian Portuguese
and English, chosen per viewer; and Rioplatense Spanish (`es_AR`, for a
browser that asks for es-AR or es-UY): the voseo («Jugá», «Creá una mesa»)
as a catalog of its own over Spanish, whose untranslated entries are the
Spanish source.

The choice is the `lang` cookie when it names a language we have, else the
best match of the browser's Accept-Language, else Spanish. Catalogs are
gettext `.po` files under `locale/` with their compiled `.mo` beside them
(kept in the repository; `python -m escoba.i18n compile` rewrites them and a
test checks they match the `.po`).

The game's own words stay Spanish in every language, as players say them at
the table: ESCOBA, ¡ESCOBA DOBLE!, LLEVAR EL 15, ÚLTIMAS, MANTENER / CAMBIAR.
The rest (buttons, headings such as LAS PAREJAS, hints, the summary) is
translated. Sentences that code raises
as a code with its values (refusals, how a game ended) are `escoba.words`'.
"""

from __future__ import annotations

import gettext
import sys
from datetime import UTC, datetime
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
DOMAIN: Final = "messages"
DEFAULT_LANG: Final = "es"
LANG_COOKIE: Final = "lang"
_EPOCH: Final = datetime(2024, 1, 1, tzinfo=UTC)

#: Language code → its name in itself, in the order the switch shows them.
LANGUAGES: Final[dict[str, str]] = {"es": "Español", "pt_BR": "Português", "en": "English"}

#: A language's regional forms → the language they are written over: their
#: catalog translates only what differs (the voseo), the rest is the
#: language's own. The switch shows them under their language's name.
VARIANTS: Final[dict[str, str]] = {"es_AR": "es"}

#: Every language a viewer may get: the switch's and their regional forms.
ALL_LANGUAGES: Final = (*LANGUAGES, *VARIANTS)

#: The `lang` attribute of <html> for each language.
HTML_LANG: Final[dict[str, str]] = {"es": "es", "pt_BR": "pt-BR", "en": "en", "es_AR": "es-AR"}

#: Catalogs to compile that translate every string: every language but the source one.
TRANSLATED: Final = ("pt_BR", "en")

#: Every catalog to compile: the translated ones and the regional forms'.
CATALOGS: Final = (*TRANSLATED, *VARIANTS)

#: Regions (ISO 3166) whose Spanish is the voseo of `es_AR`.
_VOSEO_REGIONS: Final = frozenset({"ar", "uy"})


def parse_lang(text: str | None) -> str | None:
    """A language we have from a cookie or a tag («pt-BR», «en_GB», «es»,
    «es-AR», «es_UY»)."""
    if not text:
        return None
    primary, _, rest = text.strip().replace("-", "_").lower().partition("_")
    if primary == "es" and rest.split("_")[-1] in _VOSEO_REGIONS:
        return "es_AR"
    return {"es": "es", "pt": "pt_BR", "en": "en"}.get(primary)


def base_lang(lang: str) -> str:
    """The language `lang` is a form of (es_AR → es), or itself: what names
    its cards, its numbers and its place in the switch."""
    return VARIANTS.get(lang, lang)


def negotiate(accept_language: str | None) -> str:
    """The first language of an Accept-Language header (by q) that we have."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                q = float(params[2:])
            except ValueError:
                q = 0.0
        if tag and q > 0:
            ranked.append((-q, i, tag))
    for _, _, tag in sorted(ranked):
        lang = parse_lang(tag)
        if lang is not None:
            return lang
    return DEFAULT_LANG


def choose_lang(cookie: str | None, accept_language: str | None) -> str:
    return parse_lang(cookie) or negotiate(accept_language)


def switched(chosen: str, accept_language: str | None) -> str:
    """The language the switch's button `chosen` sets: «Español» keeps the
    browser's own Spanish (es-AR: the voseo) when it asks for one."""
    asked = negotiate(accept_language)
    return asked if chosen == base_lang(asked) else chosen


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def compiled(lang: str) -> bytes:
    """The `.mo` bytes that `lang`'s `.po` compiles to."""
    with po_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    # the .po carries no dates; fixed ones keep the compiled bytes reproducible
    catalog.creation_date = catalog.revision_date = _EPOCH
    out = BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog for `lang`; Spanish (and anything unknown) is the source.
    A regional form's catalog falls back to its language's for what it does
    not translate."""
    if lang not in CATALOGS:
        return gettext.NullTranslations()
    with mo_path(lang).open("rb") as f:
        catalog = gettext.GNUTranslations(f)
    if lang in VARIANTS:
        catalog.add_fallback(translations(VARIANTS[lang]))
    return catalog


def compile_all() -> list[Path]:
    written = []
    for lang in CATALOGS:
        path = mo_path(lang)
        path.write_bytes(compiled(lang))
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    if argv[1:] == ["compile"]:
        for path in compile_all():
            print(path)
        return 0
    print("usage: python -m escoba.i18n compile", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
