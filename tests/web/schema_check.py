"""Every answer of the JSON API the web tests get, checked against the
published OpenAPI schema (`/openapi.json`, as `app.openapi()` makes it).

`ApiSchema.problems` finds the operation a request reached (or, for a path or
method the API does not have, the documented 404 or 405) and checks that the
status is one the operation documents and that the body validates against
the schema documented for that status, `$ref`s resolved, with jsonschema-rs
(JSON Schema 2020-12, the dialect of OpenAPI 3.1). `watch_api_responses`
puts that check on every client the tests use: httpx's (Starlette's
TestClient is one, and so are `httpx.get` and `httpx.Client` on a live
server) and requests' (schemathesis calls the app through it)."""

from __future__ import annotations

import json
import re
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import unquote, urlsplit

import httpx
import jsonschema_rs
import requests

API_PREFIX = "/api/"


class ApiSchema:
    """The API's part of an OpenAPI document, ready to check answers."""

    def __init__(self, openapi: dict[str, Any]) -> None:
        self.openapi = openapi
        self.components = openapi.get("components", {})
        routes: list[tuple[int, str, re.Pattern[str]]] = []
        for template in openapi["paths"]:
            if not template.startswith(API_PREFIX):
                continue
            parts = re.split(r"(\{[^}/]+\})", template)
            regex = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
            routes.append((template.count("{"), template, re.compile(regex + r"\Z")))
        # a path of literal segments before one with parameters that also fits
        self.routes = [(regex, template) for _, template, regex in sorted(routes)]
        self._validators: dict[str, jsonschema_rs.Validator] = {}

    def validator(self, schema: dict[str, Any]) -> jsonschema_rs.Validator:
        key = json.dumps(schema, sort_keys=True)
        found = self._validators.get(key)
        if found is None:
            # the components ride along, so that `#/components/...` resolves
            found = jsonschema_rs.Draft202012Validator({**schema, "components": self.components})
            self._validators[key] = found
        return found

    def operation(self, method: str, path: str) -> tuple[str | None, dict[str, Any] | None]:
        """(the path template, its operation for `method`), or (template,
        None) for a method the path does not take, or (None, None)."""
        for regex, template in self.routes:
            if regex.match(path):
                return template, self.openapi["paths"][template].get(method.lower())
        return None, None

    def problems(
        self, method: str, path: str, status: int, content_type: str | None, body: bytes | None
    ) -> list[str]:
        """Why this answer of the API is not what the schema documents (none
        when it is); `body` None: its status only (a HEAD's answer)."""
        where = f"{method} {path} → {status}"
        template, operation = self.operation(method, path)
        if operation is None:
            # no operation: routing's own refusal, in the API's documented shape
            expected = 404 if template is None else 405
            if status != expected:
                return [f"{where}: expected {expected} from routing"]
            if body is None:
                return []
            return self._check_body(where, {"$ref": f"#/components/schemas/Error{status}"}, body)
        documented = operation["responses"].get(str(status))
        if documented is None:
            listed = ", ".join(operation["responses"])
            return [f"{where}: status not documented for {template} (documented: {listed})"]
        content = documented.get("content", {})
        if body is None:
            return []
        if "application/json" not in content:
            return [] if not body else [f"{where}: a body where none is documented"]
        media = (content_type or "").split(";")[0].strip()
        if media != "application/json":
            return [f"{where}: content-type {content_type!r}, documented application/json"]
        return self._check_body(where, content["application/json"].get("schema", {}), body)

    def _check_body(self, where: str, schema: dict[str, Any], body: bytes) -> list[str]:
        if not body:
            return [f"{where}: an empty body"]
        try:
            data = json.loads(body)
        except ValueError:
            return [f"{where}: not JSON: {body[:80]!r}"]
        return [
            f"{where}: {e.message} at /{'/'.join(map(str, e.instance_path))}"
            for e in self.validator(schema).iter_errors(data)
        ][:5]


#: The schema of each set of routes, shared by the apps that serve the same
#: ones: each test makes an app of its own, and FastAPI's making of its
#: OpenAPI document (a third of a second) is the same work every time.
_BY_ROUTES: dict[tuple[tuple[str, tuple[str, ...], str], ...], ApiSchema] = {}


def _routes(app: object) -> tuple[tuple[str, tuple[str, ...], str], ...]:
    """What an app's OpenAPI document is made from: each route's path,
    methods and endpoint."""
    return tuple(
        (
            getattr(r, "path", ""),
            tuple(sorted(getattr(r, "methods", None) or ())),
            getattr(getattr(r, "endpoint", None), "__qualname__", ""),
        )
        for r in app.routes  # type: ignore[attr-defined]
    )


class ResponseWatch:
    """Checks API answers as clients receive them; what it found stays in
    `failures` too (an answer received in a thread fails the test at its end
    even if the thread swallowed the error)."""

    def __init__(self) -> None:
        self.failures: list[str] = []
        self._schemas: dict[object, tuple[object, ApiSchema]] = {}
        self._lock = threading.Lock()

    def schema_for(self, app: object | None, origin: str) -> ApiSchema:
        """The schema the answering app publishes: the app's own for a
        TestClient (shared by the apps with the same routes), else the
        server's `/openapi.json` (read once per origin)."""
        key: object = id(app) if app is not None else origin
        with self._lock:
            found = self._schemas.get(key)
            if found is None:
                if app is not None:
                    routes = _routes(app)
                    schema = _BY_ROUTES.get(routes)
                    if schema is None:
                        openapi = app.openapi()  # type: ignore[attr-defined]
                        schema = _BY_ROUTES[routes] = ApiSchema(openapi)
                else:
                    with urllib.request.urlopen(f"{origin}/openapi.json", timeout=10) as r:
                        schema = ApiSchema(json.load(r))
                found = (app, schema)  # the app kept alive: its id stays its own
                self._schemas[key] = found
            return found[1]

    def check(
        self,
        app: object | None,
        url: str,
        method: str,
        status: int,
        content_type: str | None,
        body: bytes,
    ) -> None:
        if 300 <= status < 400:
            return  # Starlette's trailing-slash redirects: routing, no answer of the API
        parts = urlsplit(url)
        method = method.upper()
        schema = self.schema_for(app, f"{parts.scheme}://{parts.netloc}")
        problems = schema.problems(
            method, unquote(parts.path), status, content_type, None if method == "HEAD" else body
        )
        if problems:
            with self._lock:
                self.failures.extend(problems)
            raise AssertionError("an API answer does not match its schema:\n" + "\n".join(problems))


def _is_api_answer(path: str, headers: Any) -> bool:
    """An answer of the API (no event stream: those never end)."""
    content_type = headers.get("content-type") or ""
    return unquote(path).startswith(API_PREFIX) and "text/event-stream" not in content_type


@contextmanager
def watch_api_responses() -> Iterator[ResponseWatch]:
    """Check every API answer any httpx or requests client gets meanwhile."""
    watch = ResponseWatch()
    httpx_send = httpx.Client.send
    async_send = httpx.AsyncClient.send
    requests_send = requests.Session.send

    def send(self: httpx.Client, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        response = httpx_send(self, request, **kwargs)
        if _is_api_answer(request.url.path, response.headers):
            response.read()  # (kept: a caller that streams it reads it from memory)
            watch.check(
                getattr(self, "app", None),
                str(request.url),
                request.method,
                response.status_code,
                response.headers.get("content-type"),
                response.content,
            )
        return response

    async def send_async(
        self: httpx.AsyncClient, request: httpx.Request, **kwargs: Any
    ) -> httpx.Response:
        response = await async_send(self, request, **kwargs)
        if _is_api_answer(request.url.path, response.headers):
            await response.aread()
            watch.check(
                None,
                str(request.url),
                request.method,
                response.status_code,
                response.headers.get("content-type"),
                response.content,
            )
        return response

    def send_requests(
        self: requests.Session, request: requests.PreparedRequest, **kwargs: Any
    ) -> requests.Response:
        # (schemathesis asks for a stream, for the event streams it may meet)
        response = requests_send(self, request, **kwargs)
        if _is_api_answer(urlsplit(request.url or "").path, response.headers):
            watch.check(
                getattr(self, "app", None),
                request.url or "",
                request.method or "GET",
                response.status_code,
                response.headers.get("content-type"),
                response.content,  # read once, and kept for the caller
            )
        return response

    httpx.Client.send = send  # type: ignore[method-assign]
    httpx.AsyncClient.send = send_async  # type: ignore[method-assign]
    requests.Session.send = send_requests  # type: ignore[method-assign]
    try:
        yield watch
    finally:
        httpx.Client.send = httpx_send  # type: ignore[method-assign]
        httpx.AsyncClient.send = async_send  # type: ignore[method-assign]
        requests.Session.send = requests_send  # type: ignore[method-assign]
