"""A local Web Push service for the tests and the benchmark: a threaded HTTP
server on 127.0.0.1 that takes pushes as a real push service does.

For each push it checks the VAPID signature (RFC 8292: `Authorization: vapid
t=<JWT>, k=<key>`, an ES256 JWT verified with `k`, `aud` this service's
origin, `exp` in the future and at most 24 h ahead, a `sub`, and `k` the
server's published key when the test says which) and the Web Push headers
(TTL, Urgency, Topic, `Content-Encoding: aes128gcm`), then decrypts the body
(RFC 8291) with the subscription's private ECDH key and auth secret, made
here as a browser makes them. What fails a check is answered 400 and kept in
`errors`; a push that passes is kept in `pushes`.

Each subscription (`subscribe(name)`) answers as told (`answer(name, …)`):
a status (201, 404, 410, 429, 500…), `(status, retry_after)`, or `HANG` (the
request is held until `release()`); the last answer repeats.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import os
import re
import ssl
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509.oid import NameOID

HANG = "hang"
Answer = int | tuple[int, str] | str
URGENCIES = frozenset({"very-low", "low", "normal", "high"})
TOPIC = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class BrowserKeys:
    """A subscription's keys, as a browser makes them: an ECDH P-256 pair
    (the public half is `p256dh`) and a 16-byte auth secret."""

    private: ec.EllipticCurvePrivateKey
    auth_secret: bytes

    @classmethod
    def new(cls) -> BrowserKeys:
        return cls(ec.generate_private_key(ec.SECP256R1()), os.urandom(16))

    @property
    def p256dh(self) -> str:
        point = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)


@dataclass
class Push:
    """A push that passed every check: its subscription, headers, VAPID
    claims and decrypted message."""

    name: str
    headers: dict[str, str]
    claims: dict[str, Any]
    message: dict[str, Any]


@dataclass
class _Sub:
    keys: BrowserKeys
    answers: list[Answer] = field(default_factory=lambda: [201])


class PushEndpoint:
    def __init__(
        self,
        server_key: str | None = None,
        check: bool = True,
        host: str = "127.0.0.1",
        tls: ssl.SSLContext | None = None,
    ) -> None:
        #: the VAPID public key pushes must carry (`GET /push/key`), if known
        self.server_key = server_key
        #: the name in its URLs (it listens on 127.0.0.1 whatever the name)
        self.host = host
        #: serve HTTPS with this context (`tls_context`)
        self.tls = tls
        #: False: take every push unchecked and undecrypted (the benchmark's load)
        self.check = check
        self.pushes: list[Push] = []
        self.errors: list[str] = []
        self.requests: Counter[str] = Counter()
        #: ("arrived" | "answered", name, status) in order
        self.events: list[tuple[str, str, int]] = []
        self.hanging: dict[str, threading.Event] = {}
        self._subs: dict[str, _Sub] = {}
        self._release = threading.Event()
        self._cond = threading.Condition()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------
    # Set-up

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.server_address[1])

    @property
    def origin(self) -> str:
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://{self.host}:{self.port}"

    def url(self, name: str) -> str:
        return f"{self.origin}/push/{name}"

    def subscribe(self, name: str, keys: BrowserKeys | None = None) -> dict[str, Any]:
        """A new subscription at this service: what the browser's
        `PushSubscription.toJSON()` gives."""
        keys = keys or BrowserKeys.new()
        with self._cond:
            old = self._subs.get(name)
            self._subs[name] = _Sub(keys, old.answers if old else [201])
            self.hanging.setdefault(name, threading.Event())
        return {
            "endpoint": self.url(name),
            "expirationTime": None,
            "keys": {"p256dh": keys.p256dh, "auth": keys.auth},
        }

    def answer(self, name: str, *answers: Answer) -> None:
        with self._cond:
            self._subs[name].answers = list(answers)

    def release(self) -> None:
        """Let every held request answer (201)."""
        self._release.set()

    def wait(self, done: Callable[[], bool], timeout: float = 20.0) -> bool:
        """Wait until `done()` holds (checked whenever a request ends)."""
        with self._cond:
            return self._cond.wait_for(done, timeout)

    def answered(self) -> list[str]:
        """The subscriptions whose requests were answered, in order."""
        with self._cond:
            return [name for event, name, _ in self.events if event == "answered"]

    def pushes_to(self, name: str) -> list[Push]:
        with self._cond:
            return [p for p in self.pushes if p.name == name]

    # ------------------------------------------------------------------
    # Serving

    @contextmanager
    def running(self) -> Iterator[PushEndpoint]:
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                status, headers = endpoint._take(self.path, dict(self.headers.items()), body)
                with endpoint._cond:  # before the client can read the answer
                    endpoint.events.append(("answered", self.path.rsplit("/", 1)[-1], status))
                    endpoint._cond.notify_all()
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        if self.tls is not None:
            server.socket = self.tls.wrap_socket(server.socket, server_side=True)
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, daemon=True)
        self._thread.start()
        try:
            yield self
        finally:
            self._release.set()
            server.shutdown()
            server.server_close()
            self._thread.join(timeout=10)

    def _take(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, dict[str, str]]:
        name = path.rsplit("/", 1)[-1]
        with self._cond:
            sub = self._subs.get(name) if path.startswith("/push/") else None
            self.requests[name] += 1
            self.events.append(("arrived", name, 0))
            answer: Answer = 404
            if sub is not None:
                answer = sub.answers.pop(0) if len(sub.answers) > 1 else sub.answers[0]
            self._cond.notify_all()
        if sub is None:
            return 404, {}
        if answer == HANG:
            self.hanging[name].set()
            self._release.wait(60)
            answer = 201
        status, retry_after = answer if isinstance(answer, tuple) else (int(answer), None)
        if 200 <= status < 300:
            try:
                push = self._check(name, sub.keys, headers, body) if self.check else None
            except (ValueError, KeyError, InvalidSignature, AssertionError) as exc:
                with self._cond:
                    self.errors.append(f"{name}: {type(exc).__name__}: {exc}")
                return 400, {}
            with self._cond:
                if push is not None:
                    self.pushes.append(push)
                else:
                    self.pushes.append(Push(name, {}, {}, {}))
        return status, ({"Retry-After": retry_after} if retry_after else {})

    # ------------------------------------------------------------------
    # The checks a push service makes, and the browser's decryption

    def _check(self, name: str, keys: BrowserKeys, headers: dict[str, str], body: bytes) -> Push:
        lower = {k.lower(): v for k, v in headers.items()}
        claims = self.verify_vapid(lower.get("authorization", ""))
        assert lower.get("content-encoding") == "aes128gcm", "Content-Encoding"
        assert lower.get("ttl", "").isdigit(), "TTL"
        assert lower.get("urgency") in URGENCIES, "Urgency"
        assert TOPIC.match(lower.get("topic", "")), "Topic"
        plain = http_ece.decrypt(
            body, private_key=keys.private, auth_secret=keys.auth_secret, version="aes128gcm"
        )
        return Push(name, lower, claims, json.loads(plain))

    def verify_vapid(self, authorization: str) -> dict[str, Any]:
        """The claims of a valid `vapid t=…, k=…` header (RFC 8292)."""
        scheme, _, rest = authorization.partition(" ")
        assert scheme.lower() == "vapid", "Authorization scheme"
        params = dict(p.strip().split("=", 1) for p in rest.split(","))
        token, key = params["t"], params["k"]
        if self.server_key is not None:
            assert key == self.server_key, "k is not the server's /push/key"
        head, claims_part, signature = token.split(".")
        header = json.loads(unb64url(head))
        assert header == {"typ": "JWT", "alg": "ES256"}, f"JWT header {header}"
        raw = unb64url(signature)
        assert len(raw) == 64, "ES256 signature length"
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
        public.verify(der, f"{head}.{claims_part}".encode(), ec.ECDSA(hashes.SHA256()))
        claims: dict[str, Any] = json.loads(unb64url(claims_part))
        now = time.time()
        assert claims["aud"] == self.origin, f"aud {claims['aud']}"
        assert now < claims["exp"] <= now + 24 * 3600, "exp"
        assert str(claims["sub"]).startswith(("mailto:", "https://")), "sub"
        return claims


def tls_context(folder: Path, name: str) -> tuple[ssl.SSLContext, str]:
    """A server context whose certificate names `name`, from a certificate
    authority of its own: (the context, the authority's PEM file, for the
    client to trust)."""
    now = dt.datetime.now(dt.UTC)

    def certificate(
        subject: str, key: ec.EllipticCurvePrivateKey, issuer: x509.Name, signer: Any, ca: bool
    ) -> x509.Certificate:
        builder = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
            .issuer_name(issuer)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(hours=1))
            .not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        )
        if ca:
            builder = builder.add_extension(
                x509.KeyUsage(
                    digital_signature=True,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    key_cert_sign=True,
                    crl_sign=True,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
        else:
            builder = builder.add_extension(
                x509.SubjectAlternativeName([x509.DNSName(subject)]), critical=False
            )
        return builder.sign(signer, hashes.SHA256())

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Escoba test CA")])
    ca = certificate("Escoba test CA", ca_key, ca_name, ca_key, ca=True)
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = certificate(name, key, ca_name, ca_key, ca=False)
    pem = serialization.Encoding.PEM
    ca_file = folder / "ca.pem"
    ca_file.write_bytes(ca.public_bytes(pem))
    cert_file = folder / "server.pem"
    cert_file.write_bytes(
        leaf.public_bytes(pem)
        + key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file)
    return context, str(ca_file)
