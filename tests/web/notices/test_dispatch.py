"""Who is told what after each command: real games through the API and the
pages, a recording channel in place of Web Push and e-mail."""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.settings import Settings
from escoba.web.notices.notice import DEFAULT_KINDS, Notice, NoticeKind

from ..conftest import first_legal
from ..helpers import Player, create, join, page_table, service_of
from ..recording import Recorder, Told, dispatcher_of, heard, seat_id, told

TURN, ROUND, END, CHAT = NoticeKind.TURN, NoticeKind.ROUND, NoticeKind.END, NoticeKind.CHAT


@pytest.fixture
def client(recorded_client: TestClient) -> TestClient:
    return recorded_client


def _news(client: TestClient, recorder: Recorder) -> list[Told]:
    return told(service_of(client), heard(client, recorder))


def _pair(client: TestClient) -> tuple[Player, Player]:
    ana = create(client, "Ana")
    beto = join(client, ana.invite, "Beto")
    return ana, beto


def _on_turn(players: Sequence[Player]) -> Player:
    table = players[0].table()
    return next(p for p in players if p.game_seat() == table["view"]["turn"])


def _play(player: Player) -> None:
    """A card played (never LLEVAR EL 15, which keeps the turn)."""
    legal = player.table()["view"]["legal_actions"]
    player.act(next(a for a in legal if a["type"] == "play"))


def test_a_turn_is_told_to_whoever_it_begins_for_and_never_to_the_mover(
    client: TestClient, recorder: Recorder
) -> None:
    ana, beto = _pair(client)
    assert _news(client, recorder) == []  # a seat taken in the lobby tells nobody
    ana.command("/start")
    first = _on_turn([ana, beto])
    assert first is beto  # Ana deals; Beto plays first
    assert _news(client, recorder) == [Told(TURN, "Beto", None)]  # the game began
    _play(beto)
    assert _news(client, recorder) == [Told(TURN, "Ana", "Beto")]
    _play(ana)
    assert _news(client, recorder) == [Told(TURN, "Beto", "Ana")]


def test_a_turn_is_told_after_a_robot_moves_and_robots_are_told_nothing(
    client: TestClient, recorder: Recorder
) -> None:
    ana = create(client, "Ana")
    ana.command("/robots", robot="carmen")
    ana.command("/start")  # Carmen plays first, inline, and gives Ana the turn
    assert _news(client, recorder) == [Told(TURN, "Ana", "Carmen")]
    _play(ana)  # Carmen answers at once: Ana's turn again
    assert _news(client, recorder) == [Told(TURN, "Ana", "Carmen")]


def test_a_notice_carries_the_table_and_when_absence_becomes_possible(
    client: TestClient, recorder: Recorder, clock: ManualClock
) -> None:
    ana, beto = _pair(client)
    ana.command("/start")
    [notice] = heard(client, recorder)
    assert notice.invite == ana.invite and notice.players == ("Ana", "Beto")
    assert notice.seat_id == seat_id(client, beto)
    assert notice.at == clock.now()
    assert notice.deadline == clock.now() + timedelta(hours=48)


def _play_to_round_end(players: Sequence[Player]) -> Player:
    """Play until the round is over; who played its last card."""
    for _ in range(200):
        actor = _on_turn(players)
        _play(actor)
        if players[0].table()["view"]["phase"] == "round_over":
            return actor
    raise AssertionError("the round did not end")


def test_a_round_over_is_told_to_the_players_it_waits_on(
    client: TestClient, recorder: Recorder
) -> None:
    ana, beto = _pair(client)
    carla = join(client, ana.invite, "Carla")
    ana.command("/start")
    last = _play_to_round_end([ana, beto, carla])
    rounds = [t for t in _news(client, recorder) if t.kind is ROUND]
    assert sorted(t.to for t in rounds) == sorted({"Ana", "Beto", "Carla"} - {_name(last)})
    # SIGUIENTE RONDA: the new round's first player hears of their turn, as a round's start
    beto.command("/next-round")
    news = _news(client, recorder)
    assert [t.kind for t in news] in ([TURN], [])
    assert all(t.who is None and t.to != "Beto" for t in news)


def _name(player: Player) -> str:
    name: str = next(s["name"] for s in player.table()["seats"] if s["you"])
    return name


def test_the_end_of_a_game_is_told_to_every_other_player(
    client: TestClient, recorder: Recorder
) -> None:
    ana, beto = _pair(client)
    carla = join(client, ana.invite, "Carla")
    ana.command("/robots", robot="luna")
    ana.command("/start")
    heard(client, recorder)
    beto.command("/abandon")
    assert _news(client, recorder) == [Told(END, "Ana"), Told(END, "Carla")]
    carla.post("/chat", {"text": "¡qué pena!"}, expect=201)  # (CHAT is off by default)
    assert _news(client, recorder) == []


def test_an_expiry_ends_the_game_for_everyone(
    client: TestClient, recorder: Recorder, clock: ManualClock
) -> None:
    ana, _ = _pair(client)
    ana.command("/start")
    heard(client, recorder)
    clock.advance(days=8)
    assert service_of(client).jobs.expire() == 1
    assert _news(client, recorder) == [Told(END, "Ana"), Told(END, "Beto")]


def test_chat_is_told_to_the_others_who_chose_it(client: TestClient, recorder: Recorder) -> None:
    ana, beto = _pair(client)
    carla = join(client, ana.invite, "Carla")
    ana.post("/chat", {"text": "hola"}, expect=201)
    assert _news(client, recorder) == []  # CHAT is off until a seat chooses it
    for player in (beto, carla):
        r = client.put(
            f"/api/tables/{ana.invite}/notices",
            json={"kinds": ["turn", "chat"]},
            headers=player.headers,
        )
        assert r.status_code == 200
    ana.post("/chat", {"text": "¿jugamos?"}, expect=201)
    assert _news(client, recorder) == [Told(CHAT, "Beto", "Ana"), Told(CHAT, "Carla", "Ana")]
    beto.post("/chat", {"text": "sí"}, expect=201)
    assert _news(client, recorder) == [Told(CHAT, "Carla", "Beto")]


def test_a_seat_hears_only_the_kinds_it_chose(client: TestClient, recorder: Recorder) -> None:
    ana, beto = _pair(client)
    r = client.put(
        f"/api/tables/{ana.invite}/notices", json={"kinds": ["end"]}, headers=beto.headers
    )
    assert r.status_code == 200 and r.json() == {"kinds": ["end"]}
    ana.command("/start")
    assert _news(client, recorder) == []  # Beto's turn, but Beto wants only END
    ana.command("/abandon")
    assert _news(client, recorder) == [Told(END, "Beto")]


def test_a_watching_seat_is_told_nothing_until_it_stops_watching(
    client: TestClient, recorder: Recorder
) -> None:
    ana, beto = _pair(client)
    watching = dispatcher_of(client).watching
    with watching.watch(seat_id(client, beto)):
        ana.command("/start")
        assert _news(client, recorder) == []
        _play(beto)
        assert _news(client, recorder) == [Told(TURN, "Ana", "Beto")]
        _play(ana)
        assert _news(client, recorder) == []  # Beto's table is open
    _play(beto)
    _play(ana)
    assert _news(client, recorder) == [Told(TURN, "Ana", "Beto"), Told(TURN, "Beto", "Ana")]


def test_two_pages_of_one_seat_watch_until_the_last_closes(
    client: TestClient, recorder: Recorder
) -> None:
    ana, beto = _pair(client)
    watching = dispatcher_of(client).watching
    beto_seat = seat_id(client, beto)
    watching.open(beto_seat)
    watching.open(beto_seat)
    watching.close(beto_seat)
    watching.renew()  # (a renewal meanwhile changes nothing)
    ana.command("/start")
    assert _news(client, recorder) == []
    watching.close(beto_seat)
    ana.post("/chat", {"text": "¿estás?"}, expect=201)
    # handled before Beto turns chat on: the dispatcher reads a seat's
    # choice when it handles a line, and on a slow machine it could lag
    # behind the next request (a second notice of the first line)
    assert _news(client, recorder) == []  # CHAT is off for Beto
    client.put(f"/api/tables/{ana.invite}/notices", json={"kinds": ["chat"]}, headers=beto.headers)
    ana.post("/chat", {"text": "¿estás?"}, expect=201)
    assert _news(client, recorder) == [Told(CHAT, "Beto", "Ana")]


class _Blocking:
    """A channel that holds the dispatcher's thread until it is let go."""

    name = "blocking"

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.threads: list[str] = []

    def deliver(self, notices: Sequence[Notice]) -> None:
        self.threads.append(threading.current_thread().name)
        self.entered.set()
        self.release.wait(10)


class _Failing:
    name = "failing"

    def deliver(self, notices: Sequence[Notice]) -> None:
        raise RuntimeError("the push service is down")


def test_the_command_path_never_waits_on_a_channel(
    quiet_settings: Settings, clock: ManualClock
) -> None:
    """Channels run on the dispatcher's thread: a move answers while a
    channel is still busy with the notice of the move before, and a channel
    that fails stops neither the others nor the game."""
    blocking, recorder = _Blocking(), Recorder()
    app = create_app(
        quiet_settings,
        clock=clock,
        rng=random.Random(7),
        brain=first_legal,
        channels=[_Failing(), blocking, recorder],
    )
    with TestClient(app) as client:
        ana, beto = _pair(client)
        ana.command("/start")
        assert blocking.entered.wait(10)  # the start's notice: the channel holds on
        _play(beto)  # answered while the channel still holds the dispatcher
        _play(ana)
        assert not blocking.release.is_set()
        blocking.release.set()
        assert dispatcher_of(client).flush(10)
        assert told(service_of(client), recorder.take()) == [
            Told(TURN, "Ana", "Beto"),
            Told(TURN, "Beto", None),
            Told(TURN, "Beto", "Ana"),
        ]
        assert recorder.threads == {"escoba-notices"} and set(blocking.threads) == {
            "escoba-notices"
        }


# ----------------------------------------------------------------------
# Choosing: the page's form and the API


def test_the_api_reads_and_chooses_a_seats_notices(client: TestClient) -> None:
    ana, beto = _pair(client)
    url = f"/api/tables/{ana.invite}/notices"
    r = client.get(url, headers=ana.headers)
    assert r.status_code == 200
    assert r.json() == {"kinds": sorted(k.value for k in DEFAULT_KINDS)}
    r = client.put(url, json={"kinds": ["chat", "turn", "turn"]}, headers=ana.headers)
    assert r.status_code == 200 and r.json() == {"kinds": ["chat", "turn"]}
    assert client.get(url, headers=ana.headers).json() == {"kinds": ["chat", "turn"]}
    assert client.put(url, json={"kinds": []}, headers=ana.headers).json() == {"kinds": []}
    assert client.get(url, headers=ana.headers).json() == {"kinds": []}
    # Beto's choice is his own
    assert client.get(url, headers=beto.headers).json()["kinds"] == sorted(DEFAULT_KINDS)


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"kinds": ["turn", "pizza"]}, 422, "unknown_notice"),
        ({"kinds": "turn"}, 422, "invalid"),
        ({"kinds": [1]}, 422, "invalid"),
        ({}, 422, "invalid"),
        ({"kinds": ["turn"] * 33}, 422, "invalid"),
    ],
)
def test_a_bad_choice_is_refused_and_changes_nothing(
    client: TestClient, body: object, status: int, code: str
) -> None:
    ana, _ = _pair(client)
    url = f"/api/tables/{ana.invite}/notices"
    client.put(url, json={"kinds": ["end"]}, headers=ana.headers)
    r = client.put(url, json=body, headers=ana.headers)
    assert r.status_code == status and r.json()["error"] == code, r.text
    assert client.get(url, headers=ana.headers).json() == {"kinds": ["end"]}


def test_only_a_seat_of_the_table_chooses_its_notices(client: TestClient) -> None:
    ana, _ = _pair(client)
    zoe = create(client, "Zoe")  # a seat at another table
    url = f"/api/tables/{ana.invite}/notices"
    for headers in ({}, zoe.headers, {"Authorization": "Bearer nope"}):
        r = client.put(url, json={"kinds": ["chat"]}, headers=headers)
        assert r.status_code == 403 and r.json()["error"] == "not_seated"
        r = client.get(url, headers=headers)
        assert r.status_code == 403 and r.json()["error"] == "not_seated"
    assert client.get(url, headers=ana.headers).json()["kinds"] == sorted(DEFAULT_KINDS)
    r = client.get("/api/tables/AAAAAAAAAAAAAAAAAAAAAA/notices", headers=ana.headers)
    assert r.status_code == 404 and r.json()["error"] == "no_table"


def _checked(page: str) -> set[str]:
    import re

    return set(re.findall(r'name="kinds" value="([a-z]+)" checked', page))


def test_the_page_form_chooses_this_browsers_seats_notices(client: TestClient) -> None:
    invite = page_table(client, "Ana")
    page = client.get(f"/t/{invite}").text
    assert 'id="notice-choices"' in page and "Mi turno" in page
    assert _checked(page) == {k.value for k in DEFAULT_KINDS}
    r = client.post(
        f"/t/{invite}/notices", data={"kinds": ["turn", "chat"]}, follow_redirects=False
    )
    assert r.status_code == 303 and r.headers["location"] == f"/t/{invite}"
    assert _checked(client.get(f"/t/{invite}").text) == {"turn", "chat"}
    # HTMX gets the board back, with the boxes as chosen
    r = client.post(f"/t/{invite}/notices", data={"kinds": "end"}, headers={"HX-Request": "true"})
    assert r.status_code == 200 and _checked(r.text) == {"end"}
    # nothing checked: no notices at all
    r = client.post(f"/t/{invite}/notices", data={}, follow_redirects=False)
    assert r.status_code == 303 and _checked(client.get(f"/t/{invite}").text) == set()


def test_the_page_form_refuses_what_is_no_choice(client: TestClient) -> None:
    invite = page_table(client, "Ana")
    client.post(f"/t/{invite}/notices", data={"kinds": ["end"]})
    r = client.post(f"/t/{invite}/notices", data={"kinds": ["end", "pizza"]})
    assert r.status_code == 422 and "pizza" in r.text
    stranger = TestClient(client.app)
    assert 'id="notice-choices"' not in stranger.get(f"/t/{invite}").text
    r = stranger.post(f"/t/{invite}/notices", data={"kinds": ["chat"]})
    assert r.status_code == 403 and "No estás sentado" in r.text
    assert _checked(client.get(f"/t/{invite}").text) == {"end"}


def test_the_form_speaks_the_viewers_language(client: TestClient) -> None:
    invite = page_table(client, "Ana")
    page = client.get(f"/t/{invite}", headers={"Accept-Language": "en"}).text
    assert "My turn" in page and "Table about to expire" in page
    page = client.get(f"/t/{invite}", headers={"Accept-Language": "pt-BR"}).text
    assert "Minha vez" in page
