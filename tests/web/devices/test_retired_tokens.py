"""Tokens that travelled in the retired `/t/{invite}/continue/{token}` links
(issue 37, point 5): migration 0013 gives every seat that exists when it runs
a new token. The old one is refused by the API with a 401 that names it
(`token_retired`); the person's browser keeps its seat (a device holds a seat
by its id, and an old signed `seat_<invite>` cookie still moves its browser
onto the seat); a «Seguir en otro dispositivo» code redeemed at
`POST /api/transfer` gives an API client a working token again."""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import pytest
from alembic import command
from fastapi.testclient import TestClient

from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.db import alembic_config
from escoba.web.base.settings import Settings

from ..conftest import first_legal
from ..helpers import create, move_seat, version_of
from ..servers import fresh_pg_database

CODE = re.compile(r"\b([2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5})\b")


def _app(settings: Settings, clock: ManualClock) -> Any:
    return create_app(settings, clock=clock, rng=random.Random(7), brain=first_legal)


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _retired(r: Any) -> None:
    assert r.status_code == 401, r.text
    data = r.json()
    assert data["error"] == "token_retired"
    assert (
        "POST /api/transfer" in data["message"] and "Seguir en otro dispositivo" in data["message"]
    )
    assert r.headers["www-authenticate"].startswith("Bearer")


def _code_of(page: str) -> str:
    found = CODE.search(page)
    assert found is not None, page[:600]
    return found.group(1)


def _play_a_card(browser: TestClient, invite: str) -> None:
    """The browser's seat plays, through the page's form as a person does."""
    page = browser.get(f"/t/{invite}").text
    assert 'data-my-turn="true"' in page, page[:600]
    cards = re.findall(
        r'data-card="(\w+)"[^>]*data-groups=\'([^\']*)\' data-can-leave="(\w+)"', page
    )
    card, groups, can_leave = cards[0]
    form = {"card": card, "mode": "leave"}
    if can_leave != "true":
        group = json.loads(html.unescape(groups))[0]
        form = {"card": card, "mode": "capture", "capture": " ".join(group)}
    version = version_of(page)
    r = browser.post(f"/t/{invite}/play", data={"version": version, **form})
    assert r.status_code == 200 and 'class="alert"' not in r.text, r.text[:500]
    assert version_of(browser.get(f"/t/{invite}").text) > version


def _migrate_again(url: str) -> None:
    """The seats of now become seats made before the continue links were
    retired: the schema taken back to 0012 and brought to the head again."""
    cfg = alembic_config(url)
    command.downgrade(cfg, "0012")
    command.upgrade(cfg, "head")


@pytest.fixture
def own_settings(settings: Settings) -> Settings:
    """The test's settings on a database of its own on PostgreSQL (the
    migration goes back and forth: the worker's shared one must not)."""
    if settings.sqlalchemy_url.startswith("sqlite"):
        return settings
    url = fresh_pg_database("retired_tokens")
    assert url is not None
    return settings.model_copy(update={"database_url": url})


def test_the_migration_retires_every_seats_token(
    own_settings: Settings, clock: ManualClock
) -> None:
    settings = own_settings
    with TestClient(_app(settings, clock)) as client:
        ana = create(client, "Ana")  # an API client's seat, and her phone's
        ana.command("/robots", robot="tito")
        ana.command("/start")
        phone = TestClient(client.app)
        move_seat(phone, ana.invite, ana.token or "")
        zoe = create(client, "Zoe")  # a browser from before devices holds this one
        old_cookie = client.app.state.ctx.signer.dumps({"i": zoe.invite, "t": zoe.token})  # type: ignore[attr-defined]
        phone_cookies = dict(phone.cookies.items())
    _migrate_again(settings.sqlalchemy_url)

    with TestClient(_app(settings, clock)) as client:
        # the old tokens are refused, by name, on reads and on commands
        version = client.get(f"/api/tables/{ana.invite}").json()["version"]
        _retired(client.get(f"/api/tables/{ana.invite}", headers=_bearer(ana.token or "")))
        r = client.post(
            f"/api/tables/{ana.invite}/chat",
            json={"text": "hola"},
            headers=_bearer(ana.token or ""),
        )
        _retired(r)
        r = client.post(
            f"/api/tables/{zoe.invite}/robots",
            json={"version": 1, "robot": "luna"},
            headers=_bearer(zoe.token or ""),
        )
        _retired(r)
        assert client.get(f"/api/tables/{ana.invite}").json()["version"] == version
        # a token that never was one is still «not seated»
        r = client.get(f"/api/tables/{ana.invite}", headers=_bearer("x" * 32))
        assert r.status_code == 403 and r.json()["error"] == "not_seated"

        # the person's phone still plays
        phone = TestClient(client.app, cookies=phone_cookies)
        _play_a_card(phone, ana.invite)
        # and a browser that still carries the old signed cookie keeps its seat
        old = TestClient(client.app)
        old.cookies.set(f"seat_{zoe.invite}", old_cookie, domain="testserver.local")
        r = old.get(f"/t/{zoe.invite}")
        assert r.status_code == 200 and 'name="robot"' in r.text  # seated, as its creator

        # the phone's code gives the API client a new token
        code = _code_of(phone.post(f"/t/{ana.invite}/transfer").text)
        r = client.post("/api/transfer", json={"code": code.lower().replace("-", " ")})
        assert r.status_code == 201, r.text
        seat = r.json()
        assert seat["invite"] == ana.invite and seat["position"] == 0
        assert seat["token"] != ana.token and seat["table"]["you"] == 0
        new_token = seat["token"]
        mine = client.get(f"/api/tables/{ana.invite}", headers=_bearer(new_token)).json()
        assert mine["you"] == 0 and mine["view"]["hand"]
        r = client.post(
            f"/api/tables/{ana.invite}/chat", json={"text": "volví"}, headers=_bearer(new_token)
        )
        assert r.status_code == 201, r.text
        # the code was used; the old token stays refused; the phone keeps its seat
        r = client.post("/api/transfer", json={"code": code})
        assert r.status_code == 409 and r.json()["error"] == "transfer_used"
        _retired(client.get(f"/api/tables/{ana.invite}", headers=_bearer(ana.token or "")))
        assert 'data-my-turn="true"' in phone.get(f"/t/{ana.invite}").text

        # a code the API makes, redeemed, replaces the token it was made with
        made = client.post(f"/api/tables/{ana.invite}/transfer", headers=_bearer(new_token))
        assert made.status_code == 201, made.text
        r = client.post("/api/transfer", json={"code": made.json()["code"]})
        assert r.status_code == 201, r.text
        _retired(client.get(f"/api/tables/{ana.invite}", headers=_bearer(new_token)))
        newest = r.json()["token"]
        assert client.get(f"/api/tables/{ana.invite}", headers=_bearer(newest)).json()["you"] == 0


def test_codes_the_api_cannot_redeem(app_client: TestClient) -> None:
    """Refusals of `POST /api/transfer`, each in the API's shape, changing
    nothing: no code, an unknown one, and a device's whole list (which opens
    in a browser only)."""
    ana = create(app_client, "Ana")
    phone = TestClient(app_client.app)
    move_seat(phone, ana.invite, ana.token or "")
    for body, status, error in (
        ({"code": "nope"}, 422, "transfer_malformed"),
        ({"code": "22222-22222"}, 404, "transfer_unknown"),
        ({}, 422, "invalid"),
    ):
        r = app_client.post("/api/transfer", json=body)
        assert r.status_code == status and r.json()["error"] == error, r.text
        assert r.json()["message"]
    code = _code_of(phone.post("/my-tables/transfer").text)
    r = app_client.post("/api/transfer", json={"code": code})
    assert r.status_code == 409 and r.json()["error"] == "transfer_list", r.text
    assert "navegador" in r.json()["message"]
    # refused before it was used: the list's code still works in a browser
    laptop = TestClient(app_client.app)
    r = laptop.post("/seguir", data={"code": code}, follow_redirects=False)
    assert r.status_code == 303, r.text
    assert app_client.get(f"/api/tables/{ana.invite}", headers=ana.headers).json()["you"] == 0


def test_a_seat_made_after_the_migration_keeps_its_token(app_client: TestClient) -> None:
    ana = create(app_client, "Ana")
    assert app_client.get(f"/api/tables/{ana.invite}", headers=ana.headers).json()["you"] == 0


def test_guessing_codes_for_a_token_is_rate_limited_per_ip(
    settings: Settings, clock: ManualClock
) -> None:
    """`POST /api/transfer` counts against the same per-IP limit as
    `/seguir`: a code cannot be guessed by trying through the API either."""
    limited = settings.model_copy(
        update={"rate_limits": True, "rate_transfer_per_ip": 3, "rate_window_seconds": 10**9}
    )
    with TestClient(_app(limited, clock)) as client:
        ana = create(client, "Ana")
        made = client.post(f"/api/tables/{ana.invite}/transfer", headers=ana.headers)
        code = made.json()["code"]
        for guess in ("23456-789AB", "23456-789AC", "23456-789AD"):
            assert client.post("/api/transfer", json={"code": guess}).status_code == 404
        r = client.post("/api/transfer", json={"code": code})
        assert r.status_code == 429 and r.json()["error"] == "rate_limited", r.text
        assert int(r.headers["retry-after"]) > 0
        # nothing changed: the seat's token still works
        assert client.get(f"/api/tables/{ana.invite}", headers=ana.headers).json()["you"] == 0
