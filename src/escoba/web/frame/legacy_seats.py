"""Moving a browser off the old per-table seat cookies (`seat_<invite>`): an
ASGI middleware in front of the app turns them into its device's seats
(devices/devices.py does the storing), so the rest of the app knows devices alone."""

from __future__ import annotations

from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from escoba.web.base.settings import Settings
from escoba.web.devices.devices import COOKIE_MAX_AGE, DEVICE_COOKIE, LEGACY_PREFIX, Devices


class LegacySeatsMiddleware:
    """Moves a browser off the old per-table seat cookies: on a request that
    carries any (`seat_<invite>`), its seats become its device's (the device
    made if it has none), the request goes on with the device cookie in place
    of them, and the response deletes them and sets the device cookie."""

    def __init__(self, app: ASGIApp, devices: Devices, settings: Settings) -> None:
        self.app = app
        self.devices = devices
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        raw = next((v for k, v in scope.get("headers", []) if k == b"cookie"), None)
        if raw is None or LEGACY_PREFIX.encode() not in raw:  # the common case, unparsed
            await self.app(scope, receive, send)
            return
        cookies = cookie_parser(raw.decode("latin-1"))
        if not any(name.startswith(LEGACY_PREFIX) for name in cookies):
            await self.app(scope, receive, send)
            return
        device = self.devices.identify(cookies.get(DEVICE_COOKIE))
        new_cookie: str | None = None
        if device is None:
            user_agent = next(
                (v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"user-agent"),
                None,
            )
            made = self.devices.create(user_agent)
            device, new_cookie = made.device, made.cookie
        gone = self.devices.adopt_legacy(device.id, cookies)
        kept = {k: v for k, v in cookies.items() if not k.startswith(LEGACY_PREFIX)}
        if new_cookie is not None:
            kept[DEVICE_COOKIE] = new_cookie
        header = "; ".join(f"{k}={v}" for k, v in kept.items()).encode("latin-1")
        scope = dict(scope)
        scope["headers"] = [(k, v) for k, v in scope["headers"] if k != b"cookie"] + (
            [(b"cookie", header)] if header else []
        )
        secure = self.settings.secure_cookies

        async def send_with_cookies(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                for name in gone:
                    headers.append((b"set-cookie", _expired(name).encode("latin-1")))
                if new_cookie is not None:
                    headers.append((b"set-cookie", _cookie(new_cookie, secure).encode("latin-1")))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_cookies)


def _expired(name: str) -> str:
    return f'{name}=""; Max-Age=0; Path=/; HttpOnly; SameSite=lax'


def _cookie(value: str, secure: bool) -> str:
    flags = "; Secure" if secure else ""
    return (
        f"{DEVICE_COOKIE}={value}; Max-Age={COOKIE_MAX_AGE}; Path=/; HttpOnly; SameSite=lax{flags}"
    )
