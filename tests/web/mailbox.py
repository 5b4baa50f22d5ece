"""A real SMTP server for the e-mail tests: aiosmtpd on 127.0.0.1 and a free
port, keeping every message it is given, as the recipient's inbox would."""

from __future__ import annotations

import ipaddress
import ssl
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any, cast

from aiosmtpd.controller import Controller
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


@dataclass
class Received:
    sender: str
    recipients: list[str]
    message: EmailMessage

    @property
    def text(self) -> str:
        part = self.message.get_body(preferencelist=("plain",))
        assert part is not None
        return cast(str, part.get_content())  # type: ignore[attr-defined]

    @property
    def html(self) -> str | None:
        part = self.message.get_body(preferencelist=("html",))
        return None if part is None else cast(str, part.get_content())  # type: ignore[attr-defined]

    def __getitem__(self, header: str) -> str:
        value = self.message[header]
        assert value is not None, header
        return str(value)


@dataclass
class Mailbox:
    """What the server received, in order."""

    port: int
    received: list[Received] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, item: Received) -> None:
        with self._lock:
            self.received.append(item)

    def take(self) -> list[Received]:
        """What arrived since the last take."""
        with self._lock:
            out, self.received = self.received, []
        return out

    def wait(self, count: int, timeout: float = 15.0) -> list[Received]:
        """Wait until `count` messages have arrived (for the app's own mail
        thread); then take them."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.received) >= count:
                    break
            time.sleep(0.02)
        return self.take()


class _Handler:
    def __init__(self, box: Mailbox) -> None:
        self.box = box

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        """Every recipient is taken but `nadie@…`: no such mailbox (550)."""
        if address.startswith("nadie@"):
            return "550 5.1.1 No such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.content, policy=default)
        assert isinstance(message, EmailMessage)
        self.box.add(Received(envelope.mail_from, list(envelope.rcpt_tos), message))
        return "250 Message accepted for delivery"


class SmtpServer:
    """aiosmtpd's `Controller` (its own thread and event loop) on `port`;
    `options` go to it (`ssl_context` for implicit TLS) and to its SMTP
    server (`tls_context` and `require_starttls`, `authenticator`…)."""

    def __init__(self, port: int, **options: Any) -> None:
        self.box = Mailbox(port)
        self.controller = Controller(_Handler(self.box), hostname="127.0.0.1", port=port, **options)

    def __enter__(self) -> Mailbox:
        self.controller.start()
        return self.box

    def __exit__(self, *exc: object) -> None:
        self.controller.stop()


def tls_files(directory: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key (PEM files), to
    serve TLS with and to trust (`SSL_CERT_FILE`)."""
    now = datetime.now(UTC)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Escoba test mail")])
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(days=1))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def server_tls(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context
