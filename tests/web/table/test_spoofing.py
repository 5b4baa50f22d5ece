"""Names and chat that could deceive: a name others cannot see, a name that
passes for a robot or for someone already at the table, and a chat line that
turns around what follows it. Each is refused (or cleaned) through the service
and through HTTP, and changes nothing; every name and chat line is isolated in
the pages, and robots are marked wherever seats are shown."""

from __future__ import annotations

import random
import re
import unicodedata

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert, update

from escoba.bots import SEATABLE
from escoba.spoofing import (
    MAX_MARKS_PER_LETTER,
    has_visible_letter_or_digit,
    look_alike,
    looks_like_a_robot,
    most_marks_on_a_letter,
    shows_something,
    skeleton,
    strip_bidi_controls,
    strip_invisible,
)
from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.errors import Conflict, Invalid
from escoba.web.base.models import ChatRow, SeatRow
from escoba.web.base.settings import Settings
from escoba.web.table.service import TableService

from ..conftest import first_legal
from ..helpers import create, join, page_table, service_of, table_version

INVISIBLE = [
    "\u200d",  # ZERO WIDTH JOINER alone
    "\u3164",  # HANGUL FILLER: a «letter» that draws nothing
    "\u2800",  # BRAILLE PATTERN BLANK
    "\u115f\u1160",  # the other Hangul fillers
    "\uffa0",  # HALFWIDTH HANGUL FILLER
    "\u3164 \u2800",
    "👩\u200d💻",  # an emoji: visible, but no letter or digit to call someone by
    "...",
]
LOOKALIKES_OF_ANA = [
    "Ana",  # the same
    "\u0410na",  # Cyrillic А
    "\uff21\uff4e\uff41",  # fullwidth Ａｎａ
    "ANA",
    "ana",
    "Ana\u200d",  # an invisible joiner at the end
]
ROBOTISH = [
    "Luna",
    "Luna (robot)",
    "LUNA",
    "luna",
    "L u n a",
    "\uff2c\uff55\uff4e\uff41",  # fullwidth Ｌｕｎａ
    "Lun\u0430",  # Cyrillic а
    "Lunabot",
    "Tito",
    "T\u0456to",  # Cyrillic і
    "Carmen",
    "Carrnen",  # rn reads as m
    "Ana (robot)",
    "Ana bot",
    "Robotina",
    "Pedro robô",
]
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


# ---------------------------------------------------------------------------
# The rules themselves


def test_visible_letter_or_digit() -> None:
    for name in INVISIBLE:
        assert not has_visible_letter_or_digit(name), repr(name)
    for name in ("Ana", "42", "Ana 👩\u200d💻", "李", "أحمد", "Zoë"):
        assert has_visible_letter_or_digit(name), name


def test_skeletons_come_from_unicode_confusables() -> None:
    assert skeleton("\u0410na") == skeleton("Ana") == skeleton("\uff21na")
    assert skeleton("m") == skeleton("rn")  # confusables.txt: m → rn
    assert skeleton("I") == skeleton("l") == skeleton("1")
    assert skeleton("Ana\u200d\ufe0f") == skeleton("Ana")  # invisible ones dropped
    assert skeleton("José") != skeleton("Jose")  # an accent shows


def test_lookalike_names() -> None:
    for name in LOOKALIKES_OF_ANA:
        assert look_alike(name, "Ana"), repr(name)
    for name in ("Anabel", "Ana María", "Eva", "Dani"):
        assert not look_alike(name, "Ana"), name


def test_robot_lookalikes() -> None:
    robots = [robot.display_name for robot in SEATABLE.values()]
    for name in ROBOTISH:
        assert looks_like_a_robot(name, robots), repr(name)
    for name in ("Ana", "Luna María", "Roberto", "Talbot", "Bottini", "Titania", "Carla"):
        assert not looks_like_a_robot(name, robots), name


def test_bidi_controls_are_stripped_and_marks_kept() -> None:
    assert strip_bidi_controls(f"a{BIDI_CONTROLS}b") == "ab"
    assert strip_bidi_controls("שלום\u200f!") == "שלום\u200f!"  # RLM: right-to-left writers need it
    assert strip_bidi_controls("plain ascii") == "plain ascii"


# ---------------------------------------------------------------------------
# Through the service


def _service(client: TestClient) -> TableService:
    return service_of(client)


def _refused(call: object, error: type[Exception], code: str) -> None:
    with pytest.raises(error) as caught:
        call()  # type: ignore[operator]
    assert getattr(caught.value, "code", None) == code
    assert re.search(r"[a-záéíóú]", getattr(caught.value, "message", ""))  # Spanish words


def test_service_refuses_invisible_and_robot_names(app_client: TestClient) -> None:
    service = _service(app_client)
    invite = service.lobby.create_table("Ana", 21).invite
    version = service.reads.version(invite)
    for name in INVISIBLE:
        _refused(lambda n=name: service.lobby.create_table(n, 21), Invalid, "invisible_name")
        _refused(lambda n=name: service.lobby.join(invite, n), Invalid, "invisible_name")
    for name in ROBOTISH:
        _refused(lambda n=name: service.lobby.create_table(n, 21), Invalid, "robot_name")
        _refused(lambda n=name: service.lobby.join(invite, n), Invalid, "robot_name")
    assert service.reads.version(invite) == version
    assert [s.name for s in service.pages.page(invite, None).seats] == ["Ana"]


def test_service_refuses_a_name_like_one_at_the_table(app_client: TestClient) -> None:
    service = _service(app_client)
    invite = service.lobby.create_table("Ana", 21).invite
    version = service.reads.version(invite)
    for name in LOOKALIKES_OF_ANA:
        _refused(lambda n=name: service.lobby.join(invite, n), Conflict, "name_taken")
    assert service.reads.version(invite) == version
    service.lobby.join(invite, "Beto")
    _refused(lambda: service.lobby.join(invite, "B\u0435to"), Conflict, "name_taken")  # Cyrillic е
    _refused(lambda: service.lobby.join(invite, "BETO"), Conflict, "name_taken")
    service.lobby.join(invite, "Anabel")  # near, but it reads differently
    assert [s.name for s in service.pages.page(invite, None).seats] == ["Ana", "Beto", "Anabel"]
    # a name taken at one table is free at another
    other = service.lobby.create_table("Beto", 21).invite
    service.lobby.join(other, "Ana")


def test_no_robot_sits_beside_a_person_named_like_it(
    settings: Settings, clock: ManualClock
) -> None:
    """A name kept from before these rules («Luna» was allowed) does not get
    a robot Luna beside it; the other robots may still sit."""
    app = create_app(settings, clock=clock, rng=random.Random(5), brain=first_legal)
    with TestClient(app) as client:
        ana = create(client, "Ana")
        join(client, ana.invite, "Beto")
    engine = create_engine(settings.sqlalchemy_url)
    with engine.begin() as conn:
        conn.execute(update(SeatRow).where(SeatRow.name == "Beto").values(name="Luna"))
    engine.dispose()
    app = create_app(settings, clock=clock, rng=random.Random(5), brain=first_legal)
    with TestClient(app) as client:
        ana.client = client
        version = ana.table()["version"]
        r = client.post(
            f"/api/tables/{ana.invite}/robots",
            json={"version": version, "robot": "luna"},
            headers=ana.headers,
        )
        _api_refused(r, 409, "name_taken")
        assert ana.table()["version"] == version
        ana.command("/robots", robot="tito")
        assert [s["name"] for s in ana.table()["seats"]] == ["Ana", "Luna", "Tito"]


def test_service_strips_bidi_controls_from_chat(app_client: TestClient) -> None:
    service = _service(app_client)
    joined = service.lobby.create_table("Ana", 21)
    service.chat.chat(joined.invite, joined.token, "perdí \u202e21:00 a las\u202c, ¿no?")
    service.chat.chat(joined.invite, joined.token, f"x{BIDI_CONTROLS}y \u2067שלום\u2069")
    texts = [line.text for line in service.chat.chat_lines(joined.invite)]
    assert texts == ["perdí 21:00 a las, ¿no?", "xy שלום"]
    _refused(
        lambda: service.chat.chat(joined.invite, joined.token, BIDI_CONTROLS),
        Invalid,
        "invisible_chat",
    )


def test_chat_lines_kept_before_the_cleaning_are_shown_clean(app_client: TestClient) -> None:
    service = _service(app_client)
    joined = service.lobby.create_table("Ana", 21)
    table_id = service.reads.table_id(joined.invite)
    with service.db.write() as conn:
        conn.execute(
            insert(ChatRow),
            {
                "table_id": table_id,
                "position": 0,
                "name": "Ana",
                "text": "hola \u202eodnum",
                "created_at": service.clock.now(),
            },
        )
    assert [line.text for line in service.chat.chat_lines(joined.invite)] == ["hola odnum"]
    r = app_client.get(f"/api/tables/{joined.invite}/chat")
    assert [line["text"] for line in r.json()] == ["hola odnum"]


# ---------------------------------------------------------------------------
# Through HTTP: the JSON API


def _api_refused(r: object, status: int, code: str) -> None:
    assert r.status_code == status, r.text  # type: ignore[attr-defined]
    data = r.json()  # type: ignore[attr-defined]
    assert data["error"] == code and data["message"], data


def test_api_refuses_invisible_robot_and_lookalike_names(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    version = ana.table()["version"]
    for name in INVISIBLE:
        r = app_client.post("/api/tables", json={"name": name, "target": 21})
        _api_refused(r, 422, "invisible_name")
        r = app_client.post(f"/api/tables/{ana.invite}/seats", json={"name": name})
        _api_refused(r, 422, "invisible_name")
    for name in ("Luna", "Luna (robot)", "Ｔｉｔｏ", "Carrnen"):
        r = app_client.post("/api/tables", json={"name": name, "target": 21})
        _api_refused(r, 422, "robot_name")
        r = app_client.post(f"/api/tables/{ana.invite}/seats", json={"name": name})
        _api_refused(r, 422, "robot_name")
    for name in LOOKALIKES_OF_ANA:
        r = app_client.post(f"/api/tables/{ana.invite}/seats", json={"name": name})
        _api_refused(r, 409, "name_taken")
    assert ana.table()["version"] == version
    assert [s["name"] for s in ana.table()["seats"]] == ["Ana"]
    join(app_client, ana.invite, "Beto")


def test_api_chat_loses_its_bidi_controls(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    ana.post("/chat", {"text": "gané \u202e!odot"}, expect=201)
    assert [line["text"] for line in ana.get("/chat")] == ["gané !odot"]


# ---------------------------------------------------------------------------
# Through HTTP: the pages


def test_pages_refuse_the_same_names_with_a_clear_message(site: TestClient) -> None:
    r = site.post("/tables", data={"name": "\u3164", "target": "21"})
    assert r.status_code == 422 and "al menos una letra o un número" in r.text
    r = site.post("/tables", data={"name": "Luna (robot)", "target": "21"})
    assert r.status_code == 422 and "Ese nombre es de robot" in r.text
    invite = page_table(site, "Ana")
    version = table_version(site, invite)
    visitor = TestClient(site.app)
    r = visitor.post(f"/t/{invite}/join", data={"name": "\u0410na"})
    assert r.status_code == 409 and "Ya hay alguien en la mesa con ese nombre" in r.text
    r = visitor.post(f"/t/{invite}/join", data={"name": "Luna"})
    assert r.status_code == 422 and "Ese nombre es de robot" in r.text
    assert table_version(site, invite) == version
    visitor.cookies.set("lang", "en")
    r = visitor.post(f"/t/{invite}/join", data={"name": "\uff21\uff4e\uff41"})
    assert r.status_code == 409 and "Someone at the table already has that name" in r.text
    assert table_version(site, invite) == version


def _section(html: str, start: str, end: str) -> str:
    i = html.index(start)
    return html[i : html.index(end, i)]


def test_names_and_chat_are_isolated_and_robots_marked(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    site.post(f"/t/{invite}/robots", data={"version": table_version(site, invite), "robot": "tito"})
    site.post(f"/t/{invite}/chat", data={"text": "hola \u202e00:21"})
    lobby = site.get(f"/t/{invite}").text
    seats = _section(lobby, '<ol class="seats-lobby">', "</ol>")
    assert '<bdi class="who">Ana</bdi>' in seats and '<bdi class="who">Tito</bdi>' in seats
    chat = _section(lobby, '<ol id="chat-log"', "</ol>")
    assert '<b class="chat-name"><bdi>Ana</bdi></b>' in chat
    assert '<bdi class="chat-text">hola 00:21</bdi>' in chat  # isolated, and no override left
    assert "\u202e" not in lobby

    site.post(f"/t/{invite}/start", data={"version": table_version(site, invite)})
    for page in (site.get(f"/t/{invite}").text, site.get(f"/t/{invite}/board").text):
        seats = _section(page, '<ul class="seats"', "</ul>")
        tito = _section(seats, 'data-seat="1"', "</li>")
        assert '<bdi class="who">Tito</bdi> <span class="tag tag-robot">robot</span>' in tito
        ana = _section(seats, 'data-seat="0"', "</li>")
        assert '<bdi class="who">Ana</bdi>' in ana and "tag-robot" not in ana
        recent = _section(page, '<ol class="recent-list">', "</ol>")
        assert '<bdi class="who">Tito</bdi> <span class="tag tag-robot">' in recent
        totals = _section(page, '<span class="totals"', "</span>\n")
        assert '<bdi class="who">Ana</bdi>' in totals


# ---------------------------------------------------------------------------
# Chat: what draws nothing goes, and a line must show something (issue 25)

#: Lines that show nothing: what names refuse, and blanks of their own.
INVISIBLE_LINES = [
    "\u200b",  # ZERO WIDTH SPACE
    "\ufeff",  # BYTE ORDER MARK
    "\u3164",  # HANGUL FILLER: a «letter» that draws nothing
    "\u3164\u3164 \u3164",
    "\u200b\u2060\u00ad",  # zero width space, word joiner, soft hyphen
    "\u2800",  # BRAILLE PATTERN BLANK
    "\u200d\ufe0f",  # a joiner and a selector with nothing to join
    "\u0301\u0301",  # marks on nothing
    "\U000e0068\U000e0069",  # tag characters («hi», invisible)
    "\x00\x07",
]
#: (written, kept): the invisible characters go, what shapes writing stays.
CLEANED = [
    ("ho\u200bla", "hola"),
    ("\ufeffhola", "hola"),
    ("hola \u3164", "hola"),
    ("\u3164 hola", "hola"),
    ("¡bien\u2060!\u00ad", "¡bien!"),
    ("gané\U000e0041\U000e0042", "gané"),  # smuggled tags
    ("❤\ufe0f\ufe0f\ufe0f", "❤\ufe0f"),  # one selector chooses; the rest hide
    ("a\u200d\u200d\u200d", "a\u200d"),
    # kept: what visible writing needs
    ("👩\u200d💻", "👩\u200d💻"),
    ("👁\ufe0f\u200d🗨\ufe0f", "👁\ufe0f\u200d🗨\ufe0f"),
    ("1\ufe0f\u20e3", "1\ufe0f\u20e3"),  # a keycap
    ("🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", None),  # Scotland
    ("می\u200cخواهم", None),  # Persian needs its ZWNJ
    ("क्\u200dष", None),  # a Devanagari half form
    ("שלום\u200f!", None),  # a right-to-left mark
    ("\u0600\u0661\u0662", None),  # the Arabic number sign shows
]


def test_invisible_characters_are_stripped_and_writing_kept() -> None:
    for written, kept in CLEANED:
        cleaned = strip_invisible(written).strip()  # a chat line is also stripped
        assert cleaned == (written if kept is None else kept), repr(written)
    for line in INVISIBLE_LINES:
        assert not shows_something(strip_invisible(line)), repr(line)
    for line in ("a", "!", "👍", "1\ufe0f\u20e3", "é", "李", "\u0600"):
        assert shows_something(line), repr(line)


def test_service_chat_drops_what_draws_nothing(app_client: TestClient, clock: ManualClock) -> None:
    service = _service(app_client)
    joined = service.lobby.create_table("Ana", 21)
    for written, _kept in CLEANED:
        service.chat.chat(joined.invite, joined.token, written)
        clock.advance(seconds=5)  # at a human pace
    expected = [written if kept is None else kept for written, kept in CLEANED]
    assert [line.text for line in service.chat.chat_lines(joined.invite)] == expected


def test_service_refuses_a_line_that_shows_nothing(app_client: TestClient) -> None:
    service = _service(app_client)
    joined = service.lobby.create_table("Ana", 21)
    for line in INVISIBLE_LINES:
        _refused(
            lambda t=line: service.chat.chat(joined.invite, joined.token, t),
            Invalid,
            "invisible_chat",
        )
    for blank in ("", "   ", "\n\t"):
        _refused(
            lambda t=blank: service.chat.chat(joined.invite, joined.token, t), Invalid, "empty_chat"
        )
    assert service.chat.chat_lines(joined.invite) == []


def test_api_and_page_refuse_an_invisible_line_with_a_clear_message(site: TestClient) -> None:
    ana = create(site, "Ana")
    r = site.post(f"/api/tables/{ana.invite}/chat", json={"text": "\u3164"}, headers=ana.headers)
    _api_refused(r, 422, "invisible_chat")
    assert "nada que se vea" in r.json()["message"]
    ana.post("/chat", {"text": "\u200bhola\ufeff"}, expect=201)
    assert [line["text"] for line in ana.get("/chat")] == ["hola"]
    invite = page_table(site, "Beto")
    r = site.post(f"/t/{invite}/chat", data={"text": "\u200b\u3164"})
    assert r.status_code == 422 and "El mensaje no tiene nada que se vea" in r.text
    site.cookies.set("lang", "en")
    r = site.post(f"/t/{invite}/chat", data={"text": "\u2800"})
    assert r.status_code == 422 and "Your message shows nothing" in r.text


def test_chat_lines_kept_before_lose_their_invisible_characters(app_client: TestClient) -> None:
    service = _service(app_client)
    joined = service.lobby.create_table("Ana", 21)
    with service.db.write() as conn:
        conn.execute(
            insert(ChatRow),
            {
                "table_id": service.reads.table_id(joined.invite),
                "position": 0,
                "name": "Ana",
                "text": "ho\u200bla\ufeff \u3164",
                "created_at": service.clock.now(),
            },
        )
    assert [line.text for line in service.chat.chat_lines(joined.invite)] == ["hola "]


# ---------------------------------------------------------------------------
# Lookalikes at one table, and stacks of marks (issue 25)

#: Names that read as «Ana», «Pepe» or «Coco»: mixed scripts, whole
#: Cyrillic or Greek words whose every letter has a Latin twin, decomposed
#: or compatibility forms (the skeleton compares them after NFD, and NFKC
#: when folded).
LOOKALIKES = [
    ("Ana", "\u0410n\u0430"),  # Аnа: Cyrillic А and а around a Latin n
    ("Ana", "\u0391n\u0430"),  # Αnа: a Greek Alpha, a Latin n, a Cyrillic а
    ("Ana", "\u0410\u039d\u0410"),  # ΑΝΑ in Cyrillic and Greek capitals
    ("Pepe", "\u0420\u0435\u0440\u0435"),  # Рере: all Cyrillic
    ("Coco", "\u0421\u043e\u0441\u043e"),  # Сосо: all Cyrillic
    ("Mario", "\u041c\u0430ri\u043e"),  # Маriо
    ("\u00c1na", "A\u0301na"),  # Ána, composed and decomposed
    ("\u00c1na", "\u0410\u0301na"),  # Ána with a Cyrillic А and a combining acute
    ("fiona", "\ufb01ona"),  # the ﬁ ligature (NFKC)
    ("Ana", "\uff21\uff4e\uff41"),  # Ａｎａ, fullwidth (NFKC)
    ("Nguyễn", "Nguye\u0302\u0303n"),  # Vietnamese typed with combining marks
]


def test_lookalikes_across_scripts_and_normal_forms() -> None:
    for seated, newcomer in LOOKALIKES:
        assert look_alike(newcomer, seated), (seated, repr(newcomer))
    # Unicode's data says these read apart, and so they do on the page (no
    # italics there): Cyrillic н draws a small capital H (confusables.txt:
    # н → ʜ) and п a pi, so «Ана» (how Serbian writes Ana) and «Апа» are
    # not «Ana». (A name with an accent more, «Ána», reads as «Ana» at a
    # glance: issue 37 refuses it too, tests/web/table/test_name_marks.py.)
    for name in ("\u0410\u043d\u0430", "\u0410\u043f\u0430", "Anna"):
        assert not look_alike(name, "Ana"), repr(name)


def test_lookalikes_are_refused_at_one_table(app_client: TestClient) -> None:
    service = _service(app_client)
    tables: dict[str, str] = {}
    for seated, newcomer in LOOKALIKES:
        if seated not in tables:
            tables[seated] = service.lobby.create_table(seated, 21).invite
        invite = tables[seated]
        version = service.reads.version(invite)
        _refused(lambda i=invite, n=newcomer: service.lobby.join(i, n), Conflict, "name_taken")
        assert service.reads.version(invite) == version
    invite = tables["Ana"]
    assert [s.name for s in service.pages.page(invite, None).seats] == ["Ana"]
    service.lobby.join(invite, "\u0410\u043d\u0430")  # Ана reads apart (see above)
    _refused(lambda: service.lobby.join(invite, "\u0410\u043d\u0430"), Conflict, "name_taken")


#: Real names, with up to three marks on a letter: they pass.
MARKED_NAMES = [
    "José",
    "Zoë",
    "Nguyễn Thị Ánh",  # Vietnamese: two marks on ễ and ị… once decomposed
    "Nguye\u0323\u0302n",  # typed with combining marks
    "Đặng",
    "Ọlá",  # Yoruba: a dot below and a tone
    "Ąžuolas",
    "\u0f66\u0f92\u0fb2\u0f7c\u0f63\u0f0b\u0f58",  # Tibetan Dolma: three marks stacked
    "\u05e9\u05bc\u05c1\u05b8\u05e8\u05b8\u05d4",  # Hebrew Sarah with dagesh, shin dot, qamats
    "\u0915\u093c\u0940\u0902",  # Devanagari: nukta, vowel sign, anusvara
    "สมศักดิ์",  # Thai
]
ZALGO = [
    "A\u0301\u0302\u0303\u0304na",  # four marks on the A
    "\u00c1\u0302\u0303\u0304na",  # a precomposed Á and three more
    "Ana" + "\u0336" * 12,
    "L\u20dd\u20dd\u20dd\u20ddo",  # enclosing circles
]


def test_marks_are_counted_per_letter() -> None:
    for name in MARKED_NAMES:
        assert most_marks_on_a_letter(name) <= MAX_MARKS_PER_LETTER, name
    for name in ZALGO:
        assert most_marks_on_a_letter(name) > MAX_MARKS_PER_LETTER, repr(name)
    assert most_marks_on_a_letter("a\u0301 e\u0301\u0301 i\ufe0f\ufe0f\ufe0f\ufe0f") == 2


def test_a_stack_of_marks_is_refused_in_names_and_chat(app_client: TestClient) -> None:
    service = _service(app_client)
    joined = service.lobby.create_table("Ana", 21)
    version = service.reads.version(joined.invite)
    for name in ZALGO:
        _refused(lambda n=name: service.lobby.create_table(n, 21), Invalid, "too_many_marks")
        _refused(lambda n=name: service.lobby.join(joined.invite, n), Invalid, "too_many_marks")
        _refused(
            lambda n=name: service.chat.chat(joined.invite, joined.token, n),
            Invalid,
            "too_many_marks",
        )
    assert (
        service.reads.version(joined.invite) == version
        and service.chat.chat_lines(joined.invite) == []
    )
    for name in MARKED_NAMES[:8]:  # a table seats four
        service.lobby.create_table(name, 21)
    other = service.lobby.create_table("Ana", 21).invite
    for name in MARKED_NAMES[7:10]:
        service.lobby.join(other, name)
    service.chat.chat(joined.invite, joined.token, " ".join(MARKED_NAMES))
    # a name is kept composed (NFC), however it was typed
    seats = [s.name for s in service.pages.page(other, None).seats]
    assert seats[1:] == [unicodedata.normalize("NFC", n) for n in MARKED_NAMES[7:10]]


def test_the_api_and_the_pages_say_why_in_words(site: TestClient) -> None:
    r = site.post("/api/tables", json={"name": ZALGO[0], "target": 21})
    _api_refused(r, 422, "too_many_marks")
    assert "3 como mucho" in r.json()["message"]
    r = site.post("/tables", data={"name": ZALGO[2], "target": "21"})
    assert r.status_code == 422 and "demasiados acentos o signos" in r.text
    site.cookies.set("lang", "pt_BR")
    r = site.post("/tables", data={"name": ZALGO[3], "target": "21"})
    assert r.status_code == 422 and "acentos ou sinais demais" in r.text
