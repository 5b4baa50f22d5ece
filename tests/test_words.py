"""The one catalog of the words players read (`escoba.words`): every code in
every language, the values each needs, the settings it quotes, and that
every code the engine and the service raise has its words."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, check_and_call_extract_file
from babel.messages.frontend import parse_mapping_cfg
from markupsafe import Markup

from escoba.engine import IllegalAction, RuleSet, apply, make_play, new_game, shuffled_deck
from escoba.engine.cards import VALUE
from escoba.engine.state import EndReason, Result
from escoba.i18n import LANGUAGES, TRANSLATED
from escoba.web.base.settings import Settings
from escoba.words import CATALOG, Limits, say, say_html, say_result, say_result_html

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "escoba"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")

#: Codes whose words are the same in every language: only a sentence made of
#: the game's own words (docs/i18n.md) may be. None is, today.
SAME_IN_EVERY_LANGUAGE: frozenset[str] = frozenset()

#: A value for each name a sentence may use: (one, many) where the value
#: picks the plural form.
SAMPLES: dict[str, object] = {
    "card": "3H",
    "sum": 13,
    "text": "7Z",
    "kb": 64,
    "field": "version",
    "detail": "Input should be a valid integer",
    "name": "Ana",
    "loser": "Ana",
    "winners": "Tito",
    "n": 3,
    "robots": ("Carmen", "Tito", "Luna"),
    "players": "Ana, Beto y Carmen",
    "who": "Beto",
    "since": "5 h",
    "left": "dentro de 8 h",
    "moment": "3/12/26, 14:30",
    "points": 21,
    "names": "Ana y Tito",
    "named": 15,
    "rules": ("la setenta", "captura obligatoria"),
    "check": "25 = 10 + 15",
    "robot": "Luna",
    "mine": 4,
    "others": 3,
    "value": 6,
    "percent": 43,
    "suit": "oros",
    "why": "te llevas 2 cartas",
    "counts": ("Ana: 22", "Luna: 18"),
    "side": "Ana y Carmen",
    "best": 4,
    "marked": 5,
    "rest": 2,
    "could": 3,
    "line": "las escobas",
}
COUNTS: dict[str, tuple[object, object]] = {
    "cards": (("4H",), ("4H", "5C")),
    "hours": (1, 48),
    "days": (1, 7),
    "limit": (1, 24),
    "people": (1, 2),
    "free": (1, 2),
    "count": (1, 3),
    "cost": (1, 2),
    "played": (1, 3),
    "took": (1, 0),
}


def _values(code: str, form: int) -> dict[str, object]:
    message = CATALOG[code]
    names = set(PLACEHOLDER.findall(message.text)) | set(PLACEHOLDER.findall(message.plural or ""))
    if message.by is not None:
        names.add(message.by)
    return {n: COUNTS[n][form] if n in COUNTS else SAMPLES[n] for n in names}


def _shown(value: object) -> str:
    return ", ".join(value) if isinstance(value, tuple) else str(value)


def _forms(code: str) -> list[int]:
    return [0, 1] if CATALOG[code].plural is not None else [0]


CASES = [(code, lang, form) for code in CATALOG for lang in LANGUAGES for form in _forms(code)]


@pytest.mark.parametrize(("code", "lang", "form"), CASES)
def test_every_code_has_words_in_every_language(code: str, lang: str, form: int) -> None:
    """Each sentence renders whole: every value it names shows, no
    placeholder is left, and a translated language does not fall back on
    the Spanish source."""
    values = _values(code, form)
    text = say(code, lang, **values)
    assert text.strip() and "%(" not in text and "%s" not in text, text
    source = CATALOG[code].plural if form and CATALOG[code].plural else CATALOG[code].text
    for name in PLACEHOLDER.findall(source):
        assert _shown(values[name]) in text, (code, lang, name, text)
    if lang in TRANSLATED and code not in SAME_IN_EVERY_LANGUAGE:
        assert text != say(code, "es", **values), f"{code!r} is not translated to {lang}"


@pytest.mark.parametrize("code", [c for c in CATALOG if "%(" in CATALOG[c].text])
def test_a_missing_value_is_an_error_not_a_placeholder(code: str) -> None:
    with pytest.raises(KeyError, match=code):
        say(code, "en")


def test_an_unknown_code_is_an_error() -> None:
    with pytest.raises(KeyError, match="no words"):
        say("no_such_code", "es")


def test_every_catalog_message_is_extracted_by_babel_cfg() -> None:
    """tools/update_catalogs.py extracts with babel.cfg: the catalog's parts
    (words/) are in it, with its keywords (`counted` as a plural)."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f, str(ROOT / "babel.cfg"))
    found = {
        message
        for part in sorted((SRC / "words").glob("*.py"))
        for _, _, message, _, _ in check_and_call_extract_file(
            str(part), method_map, options_map, None, DEFAULT_KEYWORDS, (), False, ROOT
        )
    }
    wanted = {m.text if m.plural is None else (m.text, m.plural) for m in CATALOG.values()}
    assert wanted - found == set()


# --------------------------------------------------------------------------
# Settings values, numbers, HTML


def test_the_settings_fill_hours_days_and_lengths() -> None:
    settings = Settings(absence_hours=100, expiry_days=3, name_max_length=12, chat_max_length=80)
    assert say("not_absent", "es", limits=settings) == (
        "Todavía no: el jugador de turno tiene 100 horas para jugar."
    )
    assert say("absent_notice", "en", limits=settings, name="Ana") == (
        "Ana has not played for more than 100 hours."
    )
    assert "3 dias" in say("expired_notice", "pt_BR", limits=settings)
    assert "12 characters" in say("name_too_long", "en", limits=settings)
    assert "80 caracteres" in say("chat_too_long", "pt_BR", limits=settings)
    # a value given by name is the one that refused
    assert "30 letras" in say("chat_too_long", "es", limits=settings, limit=30)


def test_every_setting_a_sentence_quotes_is_a_setting() -> None:
    fields = {name for name in dir(Limits) if not name.startswith("_")}
    quoted = {s for m in CATALOG.values() for s in m.settings.values()}
    assert quoted <= fields <= set(Settings.model_fields)


@pytest.mark.parametrize(
    ("lang", "hours", "words"),
    [
        ("es", 1, "1 hora "),
        ("es", 1.5, "1,5 horas"),
        ("en", 1.5, "1.5 hours"),
        ("en", 48.0, "48 hours"),
        ("pt_BR", 2, "2 horas"),
    ],
)
def test_numbers_are_written_the_language_s_way(lang: str, hours: float, words: str) -> None:
    assert words in say("not_absent", lang, hours=hours)


def test_say_html_keeps_markup_names_and_escapes_the_rest() -> None:
    ana = Markup('<bdi class="who">Ana</bdi>')
    html = say_html("result_abandoned", "en", loser=ana)
    assert html == Markup('<bdi class="who">Ana</bdi> left the game.')
    assert say_html("not_a_card", "es", text="<b>") == (
        "«&lt;b&gt;» no es una carta (se escribe valor y palo: 7D, 10S)."
    )
    assert say_html("not_on_table", "es", cards=("<4H>", Markup("<i>5C</i>"))) == (
        "Esas cartas no están en la mesa: &lt;4H&gt;, <i>5C</i>."
    )
    # plain text leaves escaping to whoever shows it
    assert say("not_a_card", "es", text="<b>").startswith("«<b>»")


def test_a_refusal_of_the_rules_reaches_each_viewer_in_their_language() -> None:
    """The issue's example: a capture of 6 refused, for an English viewer."""
    state, play = next(
        (state, make_play(card, (other,)))
        for seed in range(100)
        for state in [new_game(RuleSet(), 2, shuffled_deck(random.Random(seed)))]
        for card in state.round.hands[state.round.turn]
        for other in state.round.table
        if VALUE[card] + VALUE[other] == 6
    )
    with pytest.raises(IllegalAction) as err:
        apply(state, state.round.turn, play)
    code, values = err.value.code, err.value.params
    assert say(code, "en", **values) == "Those cards add up to 6, not 15."
    assert say(code, "pt_BR", **values) == "Essas cartas somam 6, não 15."
    assert say(code, "es", **values) == "Esas cartas suman 6, no 15."


# --------------------------------------------------------------------------
# How a game ended: one sentence, for the API's text and the page's markup

SETTINGS = Settings(absence_hours=100)


@pytest.mark.parametrize(
    ("result", "names", "lang", "text"),
    [
        (
            Result((1,), EndReason.ABANDON, 0),
            ["Ana", "Tito"],
            "es",
            "Ana abandonó la partida. Tito gana.",
        ),
        (
            Result((1,), EndReason.ABANDON, 0),
            ["Ana", "Tito"],
            "en",
            "Ana left the game. Tito wins.",
        ),
        (
            Result((1,), EndReason.ABSENCE, 0),
            ["Ana", "Tito"],
            "es",
            "Ana no jugó en más de 100 horas. Tito gana.",
        ),
        (
            Result((1,), EndReason.ABSENCE, 0),
            ["Ana", "Tito"],
            "pt_BR",
            "Ana não jogou por mais de 100 horas. Tito ganha.",
        ),
        (
            Result((1, 2), EndReason.ABANDON, 0),
            ["Ana", "Beto", "Carla"],
            "es",
            "Ana abandonó la partida. Beto y Carla comparten la victoria.",
        ),
        (
            Result((1,), EndReason.ABANDON, 2),
            ["Ana", "Beto", "Carla", "Dora"],
            "en",
            "Carla left the game. Beto and Dora win.",
        ),
        (
            Result((0,), EndReason.TARGET),
            ["Ana", "Beto", "Carla", "Dora"],
            "es",
            "¡Ana y Carla ganan la partida!",
        ),
        (Result((1,), EndReason.TARGET), ["Ana", "Tito"], "en", "Tito wins the game!"),
        (
            Result((), EndReason.EXPIRED),
            ["Ana", "Tito"],
            "es",
            "La mesa venció tras 7 días sin jugadas: sin ganador.",
        ),
    ],
)
def test_the_result_sentence(result: Result, names: list[str], lang: str, text: str) -> None:
    assert say_result(result, names, len(names), lang, limits=SETTINGS) == text


def test_the_result_sentence_as_markup_keeps_the_names_markup() -> None:
    names = [Markup("<bdi>Ana</bdi>"), "B<o>b"]
    html = say_result_html(Result((1,), EndReason.ABANDON, 0), names, 2, "es", limits=SETTINGS)
    assert html == Markup("<bdi>Ana</bdi> abandonó la partida. B&lt;o&gt;b gana.")


def test_the_result_sentence_needs_the_settings_for_hours_and_days() -> None:
    with pytest.raises(KeyError, match="hours"):
        say_result(Result((1,), EndReason.ABSENCE, 0), ["Ana", "Tito"], 2, "es")
    assert "7 days" in say_result(Result((), EndReason.EXPIRED), ["A", "B"], 2, "en", days=7)


# --------------------------------------------------------------------------
# Every code raised has its words

ENGINE_ERRORS = {"IllegalAction", "InputError", "CardNotationError"}
SERVICE_ERRORS = {
    "ServiceError",
    "NotFound",
    "Forbidden",
    "Conflict",
    "Invalid",
    "RateLimited",
    "Busy",
}
#: Codes with no words of their own: the expiry job's, which the service
#: raises to itself and never shows.
NO_WORDS = {"ended", "active"}
CODE = re.compile(r"[a-z][a-z0-9_]*")


def _calls(paths: list[Path], names: set[str]) -> list[tuple[str, ast.Call]]:
    calls = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in names:
                calls.append((f"{path.relative_to(ROOT)}:{node.lineno}", node))
    return calls


def test_every_code_the_engine_raises_is_in_the_catalog_with_its_values() -> None:
    calls = _calls(sorted((SRC / "engine").glob("*.py")), ENGINE_ERRORS)
    raised = set()
    for where, call in calls:
        if not call.args or not isinstance(call.args[0], ast.Constant):
            continue
        code = call.args[0].value
        raised.add(code)
        assert code in CATALOG, f"{where}: {code!r} has no words in escoba.words"
        message = CATALOG[code]
        needed = set(PLACEHOLDER.findall(message.text)) | ({message.by} - {None})
        given = {k.arg for k in call.keywords}
        assert needed - set(message.settings) <= given, f"{where}: {code!r} needs {needed}"
    assert len(raised) >= 15  # the search found the raise sites


def _needed(code: str) -> set[str]:
    message = CATALOG[code]
    return set(PLACEHOLDER.findall(message.text)) | ({message.by} - {None})


def test_every_code_the_service_raises_is_in_the_catalog_with_its_values() -> None:
    """`ServiceError(code, words=…, **values)` under web/: its words (the
    code itself unless `words=` names others) are in the catalog, and the
    raise site gives every value the sentence names — a settings value too,
    so that `.message` needs no settings. An engine refusal passed on
    (`Conflict(err.code, **err.params)`) was checked where the engine raised it."""
    calls = _calls(sorted((SRC / "web").rglob("*.py")), SERVICE_ERRORS)
    checked = 0
    for where, call in calls:
        if not call.args or not isinstance(call.args[0], ast.Constant):
            continue
        code = call.args[0].value
        assert isinstance(code, str) and CODE.fullmatch(code), f"{where}: {code!r} is no code"
        keywords = {k.arg: k.value for k in call.keywords}
        words = keywords.pop("words", ast.Constant(code))
        if not isinstance(words, ast.Constant):
            continue  # the engine's code, passed on
        if words.value in NO_WORDS:
            continue
        assert words.value in CATALOG, f"{where}: {words.value!r} has no words in escoba.words"
        if None not in keywords:  # no **values
            needed = _needed(words.value)
            assert needed <= set(keywords), f"{where}: {words.value!r} needs {needed}"
        checked += 1
    assert checked >= 40  # the search found the raise sites


def test_a_code_lives_in_one_part_of_the_catalog() -> None:
    """The catalog's parts (words/rules.py, table.py…) put together: every
    part's codes are in it, and a code written in two parts is refused
    (one would silently replace the other)."""
    from escoba.words.catalog import PARTS, _gathered
    from escoba.words.message import sentence

    assert sum(len(part) for part in PARTS) == len(CATALOG)
    with pytest.raises(ValueError, match="not_your_turn"):
        _gathered((*PARTS, {"not_your_turn": sentence("Otra vez.")}))
