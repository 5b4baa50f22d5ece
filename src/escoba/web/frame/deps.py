"""Typed dependencies shared by the HTML and JSON routers and the app's error
handlers: the service, who a request is (the browser's device, from its one signed
HttpOnly cookie, and the seat it holds at a table; a bearer token on the API),
and the viewer's language."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends, Request, Response
from itsdangerous import URLSafeSerializer

from escoba.i18n import LANG_COOKIE, choose_lang
from escoba.web.base.settings import Settings
from escoba.web.devices.devices import COOKIE_MAX_AGE, DEVICE_COOKIE, Device, Devices
from escoba.web.devices.my_tables import MyTables, TableList
from escoba.web.devices.seat_devices import SeatDevices
from escoba.web.devices.transfers import Transfers
from escoba.web.live.bridges import Hub
from escoba.web.live.streams import Broker
from escoba.web.notices.choices import NoticeChoices
from escoba.web.notices.dispatch import Dispatcher
from escoba.web.notices.push import PushChannel
from escoba.web.table.service import TableService
from escoba.web.table.store import HeldSeat

if TYPE_CHECKING:
    from escoba.web.notices.email.channel import EmailChannel

DECK_COOKIE = "deck"
#: «Confirmar jugadas»: "on" when this browser wants a play to wait for CONFIRMAR.
CONFIRM_COOKIE = "confirm"
#: The device's last choice of the coach: a seat it takes next starts with it.
COACH_COOKIE = "coach"


@dataclass
class AppContext:
    """The one face the routes see: the table service for a table's
    commands and reads, and beside it the concerns of the rooms over the
    table, each made once by the app (`app.create_app`) on the service's
    database, store, clock and settings."""

    settings: Settings
    service: TableService
    broker: Broker
    hub: Hub
    signer: URLSafeSerializer
    #: a browser's device (its cookie, the seats it holds), «Mis mesas»,
    #: «Seguir en otro dispositivo», a seat's devices: escoba.web.devices
    devices: Devices
    my_tables: MyTables
    transfers: Transfers
    seat_devices: SeatDevices
    #: the notices: who is told what (with its sweep and watching), and
    #: which notices each seat hears of: escoba.web.notices
    dispatcher: Dispatcher
    notice_choices: NoticeChoices
    push: PushChannel
    #: the e-mail channel, when the server has SMTP settings (ESCOBA_SMTP_HOST)
    email: EmailChannel | None = None


async def get_context(request: Request) -> AppContext:
    ctx: AppContext = request.app.state.ctx
    return ctx


ContextDep = Annotated[AppContext, Depends(get_context)]


def device_of(request: Request) -> Device | None:
    """The device this browser's cookie names (looked up once a request)."""
    state = request.scope.setdefault("state", {})
    if "device" not in state:
        ctx: AppContext = request.app.state.ctx
        state["device"] = ctx.devices.identify(request.cookies.get(DEVICE_COOKIE))
    device: Device | None = state["device"]
    return device


def my_tables_of(request: Request) -> TableList | None:
    """This browser's «Mis mesas» (None: a browser the server does not know)."""
    ctx: AppContext = request.app.state.ctx
    device = device_of(request)
    return None if device is None else ctx.my_tables.of(device.id)


def held_seat(request: Request, invite: str) -> HeldSeat | None:
    """The seat this browser's device holds at table `invite`, if any (looked
    up once a request: the guard may have for its rate limit)."""
    ctx: AppContext = request.app.state.ctx
    state = request.scope.setdefault("state", {})
    return ctx.devices.seat_at(state, request.cookies.get(DEVICE_COOKIE), invite)


def hold_seat(request: Request, response: Response, invite: str, token: str) -> None:
    """Let this browser hold a seat its person just took (creating its
    device, and its one cookie, on its first seat); the device remembers the
    seat's name for the next table's «Tu nombre»."""
    ctx: AppContext = request.app.state.ctx
    device = device_of(request)
    if device is None:
        made = ctx.devices.create(request.headers.get("user-agent"))
        device = request.scope.setdefault("state", {})["device"] = made.device
        set_device_cookie(response, ctx.settings, made.cookie)
    ctx.devices.hold(device.id, invite, token, sat=True)


def set_device_cookie(response: Response, settings: Settings, value: str) -> None:
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )


def public_base_url(request: Request, settings: Settings) -> str:
    """The origin of the links the app hands out (invite, continue): the
    configured ESCOBA_BASE_URL when set, since behind a proxy the request's
    Host is the proxy's view, or whatever a client put there; else the request's."""
    return settings.base_url.rstrip("/") or str(request.base_url).rstrip("/")


def bearer_token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def lang_of(request: Request) -> str:
    """The viewer's language: the `lang` cookie, else Accept-Language."""
    return choose_lang(request.cookies.get(LANG_COOKIE), request.headers.get("accept-language"))
