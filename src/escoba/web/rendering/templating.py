"""Templating: one Jinja2 environment per language (and settings the pages
quote, `PageLimits`), with its gettext and the catalog of words (`say`,
`say_html`) installed, and the renderers of pages. Templates are pages with
named blocks (jinja2-fragments): `table.html` renders the whole page, or
only its `board` and `chat` blocks (and `said`, a form's answer) for an
HTMX swap.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from babel.dates import format_datetime, format_time, format_timedelta
from jinja2 import Environment, FileSystemLoader, select_autoescape
from jinja2_fragments import render_blocks
from markupsafe import Markup, escape

from escoba.bots import SEATABLE
from escoba.engine import InputError, Phase
from escoba.i18n import HTML_LANG, LANGUAGES, base_lang, translations
from escoba.names import (
    Design,
    card_name,
    design_faces,
    design_label,
    diamonds_word,
    seven_of_diamonds_name,
)
from escoba.web.base.assets import module_urls, static_url, vendor_url
from escoba.web.base.cards_svg import card_back_svg, card_svg, sprite_name
from escoba.web.base.errors import ServiceError
from escoba.web.base.settings import DEFAULT_LIMITS, PageLimits
from escoba.web.devices.my_tables import Elsewhere
from escoba.web.notices.notice import NoticeKind
from escoba.web.rendering.board import and_list, board_model, robot_level, who
from escoba.web.rendering.coach import coach_board
from escoba.web.rendering.score_lines import rules_sentence
from escoba.web.rendering.times import table_time
from escoba.web.table.pages import TablePage, TableStatus
from escoba.words import Limits, say, say_html, say_rules

PACKAGE_DIR: Final = Path(__file__).resolve().parents[2]
TEMPLATES_DIR: Final = PACKAGE_DIR / "templates"


def refusal_text(exc: ServiceError | InputError, lang: str, limits: Limits | None = None) -> str:
    """A refusal in the viewer's language, from the catalog: the service's
    by its words and values, a form's that names no card by the engine's code."""
    if isinstance(exc, ServiceError):
        return exc.text(lang, limits)
    return say(exc.code, lang, limits=limits, **exc.params)


@dataclass(frozen=True, slots=True)
class Said:
    """What the answer to a form of the table page says beside that form,
    not on top of the board: `form` "chat" (its refusal `error`, or nothing:
    a line sent clears it) or "notices" (the kinds `saved`, or a refusal)."""

    form: str
    error: str | None = None
    saved: frozenset[NoticeKind] | None = None


def moment_tag(moment: datetime, now: datetime, lang: str, kind: str = "ago") -> Markup:
    """A moment as a person reads it, relative to `now` in their language
    («hace 5 h», «dentro de 8 horas»), in a `<time>` whose `datetime` is the
    exact UTC instant: the page's script keeps it current in the viewer's
    time zone (`data-ago` counts up from a past moment, `data-countdown`
    down to a coming one)."""
    delta = moment - now
    if kind == "ago":
        delta = min(delta, timedelta(seconds=-1))
    text = format_timedelta(delta, add_direction=True, format="short", threshold=1.5, locale=lang)
    return Markup('<time datetime="{}" data-{}>{}</time>').format(utc_iso(moment), kind, text)


def clock_tag(moment: datetime, now: datetime | None, lang: str) -> Markup:
    """A moment as a date and time (a chat line's, the moment a warning
    names), in a `<time data-clock>` whose `datetime` is the exact UTC
    instant: the page's script writes it in the viewer's own time zone and
    language (the time alone when it is today there). Until then, and without
    the script, it reads in UTC: the time alone on `now`'s UTC day."""
    at = moment.astimezone(UTC)
    if now is not None and at.date() == now.astimezone(UTC).date():
        text = format_time(at, "short", tzinfo=UTC, locale=lang)
    else:
        text = format_datetime(at, "short", tzinfo=UTC, locale=lang)
    return Markup('<time datetime="{}" data-clock>{} UTC</time>').format(utc_iso(moment), text)


def utc_iso(moment: datetime) -> str:
    """The instant as a `<time datetime>` names it: ISO 8601 in UTC, «Z»."""
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@lru_cache(maxsize=16)
def environment(lang: str = "es", limits: PageLimits = DEFAULT_LIMITS) -> Environment:
    """One environment per language, its catalog installed for `_()` and
    `{% trans %}` (newstyle: arguments are escaped, `%(name)s` placeholders),
    and the catalog of words: `say(code, **values)` (plain, escaped by the
    page) and `say_html(code, **values)` (names kept as markup), with the
    hours, days and lengths of `limits`, which the forms' `maxlength` also
    reads (`limits.name_max_length`). An app has one `limits`: its settings'."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
        auto_reload=False,  # the templates change with a release, which restarts
    )
    tr: gettext.NullTranslations = translations(lang)
    env.install_gettext_translations(tr, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(_html_gettext(tr))

    def card_face(card: int, design: Design) -> Any:
        return card_svg(card, design, lang, static_url(sprite_name(design)))

    env.globals.update(
        lang=lang,
        limits=limits,
        say=lambda code, **values: say(code, lang, limits=limits, **values),
        say_html=lambda code, **values: say_html(code, lang, limits=limits, **values),
        say_rules=lambda rules, words="rules": say_rules(rules, lang, words=words),
        # the same sentence, its words linked to their paragraphs of /reglas
        rules_sentence=lambda rules: rules_sentence(rules, lang),
        html_lang=HTML_LANG.get(lang, "es"),
        languages=LANGUAGES,
        lang_base=base_lang(lang),  # the switch's language of `lang` (es_AR: es)
        card_svg=card_face,
        static_url=static_url,  # a static file's content-named URL (web/base/assets.py)
        vendor_url=vendor_url,
        module_urls=module_urls,  # the modules a page script imports, to preload
        card_back_svg=lambda: card_back_svg(lang),
        card_name=lambda card, design: card_name(card, design, lang),
        design_label=lambda design: design_label(design, lang),
        design_faces=lambda design: design_faces(design, lang),
        designs=tuple(Design),
        diamonds_word=lambda design: diamonds_word(design, lang),
        seven_of_diamonds_name=lambda design: seven_of_diamonds_name(design, lang),
        robot_labels={key: robot.display_name for key, robot in SEATABLE.items()},
        robot_levels={key: robot.level for key, robot in SEATABLE.items()},
        who=lambda name, robot=False: who(name, robot, lang),
        and_words=lambda items: and_list([escape(i) for i in items], lang),
        # `levels`: each robot's level after its mark (seats with a `robot` key)
        who_list=lambda seats, marks=True, levels=False: and_list(
            [
                who(s.name, marks and s.is_robot, lang, robot_level(s.robot) if levels else None)
                for s in seats
            ],
            lang,
        ),
        TableStatus=TableStatus,
        Phase=Phase,
        ago=lambda moment, now: moment_tag(moment, now, lang),
        countdown=lambda moment, now: moment_tag(moment, now, lang, "countdown"),
        clock=lambda moment, now: clock_tag(moment, now, lang),
    )
    env.filters["utc_iso"] = utc_iso
    return env


def _html_gettext(tr: gettext.NullTranslations) -> dict[str, Callable[..., Markup]]:
    """`_`, `gettext` and `ngettext` for the (HTML, autoescaped) templates,
    as Jinja's newstyle gettext does them — the message as markup, its
    `%(name)s` arguments escaped, always formatted — but as plain functions
    over a cache of the catalog's messages. Jinja's own pass through two
    context calls each: at ~40 messages a board, they were most of its
    rendering time (bench/RESULTS-load.md)."""
    messages: dict[str, Markup] = {}
    plain: dict[str, Markup] = {}

    def message(text: str) -> Markup:
        found = messages.get(text)
        if found is None:
            found = messages[text] = Markup(tr.gettext(text))
        return found

    def html_gettext(text: str, /, **variables: Any) -> Markup:
        if variables:
            return message(text) % variables
        found = plain.get(text)
        if found is None:
            found = plain[text] = message(text) % {}
        return found

    def html_ngettext(singular: str, plural: str, num: int, /, **variables: Any) -> Markup:
        variables.setdefault("num", num)
        return Markup(tr.ngettext(singular, plural, num)) % variables

    return {"_": html_gettext, "gettext": html_gettext, "ngettext": html_ngettext}


def table_context(
    page: TablePage,
    design: Design,
    error: str | None = None,
    watching: bool = False,
    invite_url: str | None = None,
    lang: str = "es",
    limits: PageLimits = DEFAULT_LIMITS,
    notice_kinds: frozenset[NoticeKind] | None = None,
    email: Any = None,
    confirm_moves: bool = False,
    your_name: str | None = None,
    elsewhere: Elsewhere | None = None,
    arrived: bool = False,
    said: Said | None = None,
) -> dict[str, Any]:
    """`notice_kinds`: what the viewer's seat hears of (None: no seat);
    `email`: the seat's e-mail form (`email_seats.EmailForm`), when the
    server sends e-mail and the viewer is seated; `confirm_moves`: the
    viewer's «Confirmar jugadas» (a play waits for CONFIRMAR); `your_name`:
    what the invitation's «Tu nombre» starts with; `elsewhere`: the
    viewer's other tables waiting for them (None: a browser with no
    device, so no «Mis mesas» either); `arrived`: the viewer's seat came to
    this browser by a code just now (the page says so); `said`: a form's
    answer, said beside it."""
    return {
        "said": said,
        "arrived": arrived,
        "your_name": your_name,
        "elsewhere": elsewhere,
        "confirm_moves": confirm_moves,
        "coach": coach_board(page, design, lang),
        "notice_kinds": notice_kinds,
        "email": email,
        "page": page,
        "design": design,
        "board": board_model(page, design, lang, limits),
        "times": table_time(page),
        "error": error,
        "watching": watching,
        "invite_url": invite_url,
    }


def render_page(
    template: str, lang: str = "es", limits: PageLimits = DEFAULT_LIMITS, **context: Any
) -> str:
    return environment(lang, limits).get_template(template).render(**context)


def render_table(
    page: TablePage,
    design: Design,
    lang: str = "es",
    limits: PageLimits = DEFAULT_LIMITS,
    **extra: Any,
) -> str:
    """The whole table page."""
    context = table_context(page, design, lang=lang, limits=limits, **extra)
    return render_page("table.html", lang, limits, next_path=f"/t/{page.invite}", **context)


def render_board(
    page: TablePage,
    design: Design,
    lang: str = "es",
    limits: PageLimits = DEFAULT_LIMITS,
    **extra: Any,
) -> str:
    """The `board` block plus the chat log as an out-of-band swap: what an
    HTMX request (a refresh after an SSE «update», or an action) gets back."""
    context = table_context(page, design, lang=lang, limits=limits, **extra)
    env = environment(lang, limits)
    said = extra.get("said")
    blocks = ["board", "chat", "said"] if said and said.form == "chat" else ["board", "chat"]
    return str(render_blocks(env, "table.html", blocks, fragment=True, **context))
