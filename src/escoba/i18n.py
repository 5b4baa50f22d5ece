"""Languages of the pages: Spanish (the source strings), Brazilian Portuguese
and English, chosen per viewer.

The choice is the `lang` cookie when it names a language we have, else the
best match of the browser's Accept-Language, else Spanish. Catalogs are
gettext `.po` files under `locale/` with their compiled `.mo` beside them
(kept in the repository; `python -m escoba.i18n compile` rewrites them and a
test checks they match the `.po`).

The game's own words stay Spanish in every language, as players say them at
the table: ESCOBA, ¡ESCOBA DOBLE!, LLEVAR EL 15, ÚLTIMAS, LAS PAREJAS. The
rest (buttons, hints, the summary) is translated. Sentences that code raises
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

#: The `lang` attribute of <html> for each language.
HTML_LANG: Final[dict[str, str]] = {"es": "es", "pt_BR": "pt-BR", "en": "en"}

#: Catalogs to compile: every language but the source one.
TRANSLATED: Final = ("pt_BR", "en")


def parse_lang(text: str | None) -> str | None:
    """A language we have from a cookie or a tag («pt-BR», «en_GB», «es»)."""
    if not text:
        return None
    primary = text.strip().replace("-", "_").split("_")[0].lower()
    return {"es": "es", "pt": "pt_BR", "en": "en"}.get(primary)


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
    """The catalog for `lang`; Spanish (and anything unknown) is the source."""
    if lang not in TRANSLATED:
        return gettext.NullTranslations()
    with mo_path(lang).open("rb") as f:
        return gettext.GNUTranslations(f)


def compile_all() -> list[Path]:
    written = []
    for lang in TRANSLATED:
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
