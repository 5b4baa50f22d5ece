"""One catalog of the words players read.

Code raises a *code* with its values — the engine's `IllegalAction("not_fifteen",
sum=13)`, a refusal of the table service, a page of the app — and this module
is the one place that turns a code into a sentence in the viewer's language
(lila's `trans.site.aboutX(…)`: no sentence is written where the decision is
made). `CATALOG` maps every code to its Spanish source text, which is the
gettext msgid; the `.po` files under `locale/` translate it (docs/i18n.md).

    say("not_fifteen", "en", sum=13)           # 'Those cards add up to 13, not 15.'
    say("not_absent", "pt_BR", limits=settings)  # hours from the settings
    say_html("result_abandoned", lang, loser=who)  # `who` already Markup
    say_result(result, names, players, lang, limits=settings)

Values:

- A value is `%`-formatted into the sentence as given: a `str` as is, a
  number in the language's way of writing numbers («1,5» in Spanish), a
  list or tuple as its items joined by «, » (the cards of `not_on_table`).
  Values a sentence does not name are ignored; a value it names and nobody
  gave is a `KeyError` (a test renders every code in every language).
- `say` gives plain text: for JSON, logs, or a template that escapes it.
  `say_html` gives `Markup`: the sentence itself is escaped, a value that is
  already `Markup` (a name in its `<bdi>`, with the robot mark) is kept as
  it is, and any other value is escaped. Pass names as `Markup` only to
  `say_html`; `say` would print their tags.
- Limits that are settings (the 48 hours of absence, the 7 days of expiry,
  the longest name and chat line) are never literals here: a `Message`
  names the settings field each such value comes from, and `limits=` (the
  app's `Settings`, or anything with those fields, see `Limits`) fills it
  in. A value given by name wins over the settings' one.
- When a number is in the sentence it picks the plural form (`counted`):
  «1 hora», «48 horas»; for a list, its length does. A fractional count
  takes the plural form.

The game's own words stay Spanish in every language (ESCOBA, LLEVAR EL 15,
SIGUIENTE RONDA, TERMINAR POR AUSENCIA, MANTENER / CAMBIAR…), inside
translated sentences too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from babel.numbers import format_decimal
from markupsafe import Markup, escape

from escoba.engine.rules import RuleSet
from escoba.engine.seats import seats_of_side
from escoba.engine.state import EndReason, Result
from escoba.i18n import DEFAULT_LANG, LANGUAGES, translations
from escoba.names import AND
from escoba.words.catalog import CATALOG
from escoba.words.message import DAYS, HOURS, Limits, Message, counted, sentence

__all__ = [
    "CATALOG",
    "DAYS",
    "HOURS",
    "Limits",
    "Message",
    "ResultPart",
    "counted",
    "leftover_sum",
    "result_parts",
    "say",
    "say_html",
    "say_result",
    "say_result_html",
    "say_rules",
    "sentence",
]


def say(
    code: str, lang: str = DEFAULT_LANG, /, *, limits: Limits | None = None, **values: object
) -> str:
    """The sentence for `code` in `lang`, as plain text (see the module)."""
    return str(_say(code, lang, limits, values, html=False))


def say_html(
    code: str, lang: str = DEFAULT_LANG, /, *, limits: Limits | None = None, **values: object
) -> Markup:
    """The sentence for `code` in `lang` as HTML: the sentence and every
    value escaped, except values that are already `Markup` (names)."""
    return Markup(_say(code, lang, limits, values, html=True))


def say_rules(rules: RuleSet, lang: str = DEFAULT_LANG, /, words: str = "rules") -> str:
    """Which rules a table plays, in one short sentence: «Reglas del sitio, a
    21 puntos.» or «Reglas de la casa, a 15 puntos: la setenta, captura
    obligatoria.» (the house rules in `RuleSet.variants`' order). `words`:
    the codes' prefix of another such sentence (`<words>_site`,
    `<words>_house`, `<words>_house_target`), as the invite page's
    («invite_rules»: the target, the rules and who wins, in one)."""
    if rules.is_site:
        return say(f"{words}_site", lang, points=rules.target)
    named = [say(f"rule_{variant}", lang) for variant in rules.variants()]
    if not named:
        return say(f"{words}_house_target", lang, points=rules.target)
    return say(f"{words}_house", lang, points=rules.target, rules=named)


def leftover_sum(total: int, fifteens: int) -> str:
    """The leftover check as numbers: «10», «25 = 10 + 15», «40 = 10 + 2 × 15»."""
    if fifteens == 0:
        return str(total)
    return f"{total} = 10 + " + ("15" if fifteens == 1 else f"{fifteens} × 15")


def say_result(
    result: Result,
    names: Sequence[str],
    players: int,
    lang: str = DEFAULT_LANG,
    /,
    *,
    limits: Limits | None = None,
    **values: object,
) -> str:
    """How the game ended, as plain text: «Ana abandonó la partida. Tito
    gana.» `names` are the players' by engine seat."""
    return str(_result(result, names, players, lang, limits, values, html=False))


def say_result_html(
    result: Result,
    names: Sequence[str | Markup],
    players: int,
    lang: str = DEFAULT_LANG,
    /,
    *,
    limits: Limits | None = None,
    **values: object,
) -> Markup:
    """`say_result` as HTML; names may be `Markup` (kept), others are escaped."""
    return Markup(_result(result, names, players, lang, limits, values, html=True))


# --------------------------------------------------------------------------


def _say(
    code: str, lang: str, limits: Limits | None, values: Mapping[str, object], html: bool
) -> str:
    message = CATALOG.get(code)
    if message is None:
        raise KeyError(f"no words for the code {code!r}")
    given = dict(values)
    if limits is not None:
        for name, setting in message.settings.items():
            given.setdefault(name, getattr(limits, setting))
    tr = translations(lang)
    try:
        if message.plural is None or message.by is None:
            text = tr.gettext(message.text)
        else:
            text = tr.ngettext(message.text, message.plural, _count(given[message.by]))
        shown = {name: _shown(value, lang, html) for name, value in given.items()}
        return escape(text) % shown if html else text % shown
    except KeyError as err:
        raise KeyError(f"the code {code!r} needs the value {err}") from None


def _count(value: object) -> int:
    """The number that picks a plural form: a list's length; a fraction
    takes the plural."""
    if isinstance(value, list | tuple):
        return len(value)
    if isinstance(value, float):
        return int(value) if value.is_integer() else 2
    if isinstance(value, int):
        return value
    raise TypeError(f"a plural needs a number, not {value!r}")


def _shown(value: object, lang: str, html: bool) -> str:
    """A value as the sentence shows it (still to be escaped, unless Markup)."""
    if isinstance(value, str):  # Markup too
        return value
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int | float):
        return format_decimal(value, locale=lang if lang in LANGUAGES else DEFAULT_LANG)
    if isinstance(value, list | tuple):
        items = [_shown(v, lang, html) for v in value]
        return Markup(", ").join(items) if html else ", ".join(items)
    return str(value)


def _and(items: Sequence[str], lang: str, html: bool) -> str:
    """«a, b y c» («e», «and»), of names that may be `Markup`."""
    if len(items) <= 1:
        return items[0] if items else ""
    word = AND.get(lang, AND[DEFAULT_LANG])
    if html:
        return Markup("{} {} {}").format(Markup(", ").join(items[:-1]), word, items[-1])
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


@dataclass(frozen=True, slots=True)
class ResultPart:
    """One sentence of how a game ended: a code of the catalog and the
    engine seats it names (`winners`, in the sides' order; `loser`: who
    left or was absent)."""

    code: str
    winners: tuple[int, ...] = ()
    loser: int | None = None


def result_parts(result: Result, players: int) -> tuple[ResultPart, ...]:
    """How the engine's `result` is said, as codes: two sentences at most,
    why the game ended (who left, who was absent), then who won. RULES.md:
    leaving or absence loses; without pairs, tied winners share the win; an
    expired table has no winner. The one place that decides it: every face
    (the API's text, the pages' HTML, in any language) says these parts."""
    if result.reason is EndReason.EXPIRED:
        return (ResultPart("result_expired"),)
    seats = tuple(s for side in result.winners for s in seats_of_side(side, players))
    if result.reason is EndReason.TARGET and seats:
        return (ResultPart("result_won", seats),)
    parts = []
    if result.loser_seat is not None:
        if result.reason is EndReason.ABANDON:
            parts.append(ResultPart("result_abandoned", loser=result.loser_seat))
        elif result.reason is EndReason.ABSENCE:
            parts.append(ResultPart("result_absent", loser=result.loser_seat))
    if not seats:
        parts.append(ResultPart("result_no_winner"))
    elif len(result.winners) > 1:
        parts.append(ResultPart("result_shared", seats))
    else:
        parts.append(ResultPart("result_winners", seats))
    return tuple(parts)


def _result(
    result: Result,
    names: Sequence[str | Markup],
    players: int,
    lang: str,
    limits: Limits | None,
    values: Mapping[str, object],
    html: bool,
) -> str:
    """`result_parts` said, with the players' `names` (by engine seat)."""

    def name(seat: int) -> str:
        if 0 <= seat < len(names):
            return names[seat]
        return _say("nameless_player", lang, limits, {**values, "n": seat + 1}, html)

    said = []
    for part in result_parts(result, players):
        named: dict[str, object] = {}
        if part.winners:
            winners = [name(s) for s in part.winners]
            named = {"winners": _and(winners, lang, html), "people": len(winners)}
        if part.loser is not None:
            named["loser"] = name(part.loser)
        said.append(_say(part.code, lang, limits, {**values, **named}, html))
    return (Markup(" ") if html else " ").join(said)
