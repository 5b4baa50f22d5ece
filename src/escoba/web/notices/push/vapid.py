"""VAPID (RFC 8292): the server's key pair, which push services know this
server by. The browser subscribes with the public key (`GET /push/key`); each
push carries a token signed with the private key (ES256), for the push
service's origin, that names a contact (`sub`).

The private key comes from ESCOBA_VAPID_PRIVATE_KEY (base64url of the raw
32-byte P-256 key, as `vapid --gen`/web-push tools print it, or PEM), else
from the database (`site_secrets`, made once, race-safe between processes):
never from the repository. A key that changes orphans every subscription
made with the old one (push services refuse them: they are dropped).
"""

from __future__ import annotations

import base64
import binascii
import logging
import threading
import time
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import jwt

from escoba.web.base.db import Database
from escoba.web.base.settings import Settings

#: the name of the key in `site_secrets`
SECRET_NAME = "vapid"
#: a token's life (RFC 8292: at most 24 h), and when a new one is signed
TOKEN_SECONDS = 12 * 3600
RENEW_SECONDS = 3600
log = logging.getLogger("escoba.push")

DEFAULT_SUBJECT = "mailto:escoba@localhost"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    bare = text.strip().rstrip("=")
    return base64.urlsafe_b64decode(bare + "=" * (-len(bare) % 4))


def load_private_key(text: str) -> ec.EllipticCurvePrivateKey:
    """A P-256 private key from base64url raw (32 bytes), base64url DER, or
    PEM (its line breaks may be written `\\n`, as in an environment file)."""
    text = text.strip()
    try:
        if "-----BEGIN" in text:
            pem = text.replace("\\n", "\n").encode()
            key = serialization.load_pem_private_key(pem, password=None)
        else:
            raw = b64url_decode(text)
            if len(raw) == 32:
                key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
            else:
                key = serialization.load_der_private_key(raw, password=None)
    except (ValueError, TypeError, binascii.Error) as exc:
        raise ValueError(f"ESCOBA_VAPID_PRIVATE_KEY is not a P-256 private key: {exc}") from None
    if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
        raise ValueError("ESCOBA_VAPID_PRIVATE_KEY is not a P-256 (prime256v1) private key")
    return key


def raw_private_key(key: ec.EllipticCurvePrivateKey) -> str:
    """The key as base64url of its 32 raw bytes (what the settings take)."""
    return b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def new_private_key() -> str:
    return raw_private_key(ec.generate_private_key(ec.SECP256R1()))


def subject_of(settings: Settings) -> str:
    """The contact: ESCOBA_VAPID_SUBJECT, else the site's https origin, else
    DEFAULT_SUBJECT, which reaches nobody and which Apple's push service
    refuses: the start then logs a warning saying to set one."""
    subject = settings.vapid_subject.strip()
    if not subject:
        base = urlsplit(settings.base_url)
        has_origin = base.scheme == "https" and base.netloc
        subject = f"https://{base.netloc}" if has_origin else DEFAULT_SUBJECT
        if not has_origin:
            log.warning(
                "no VAPID contact: set ESCOBA_VAPID_SUBJECT (mailto: or https:); "
                "Apple's push service refuses %s",
                DEFAULT_SUBJECT,
            )
    mail = subject.startswith("mailto:") and "@" in subject
    web = subject.startswith("https://") and bool(urlsplit(subject).netloc)
    if not (mail or web) or any(c <= " " for c in subject):
        raise ValueError("ESCOBA_VAPID_SUBJECT must be a mailto: address or an https: URL")
    return subject


class Vapid:
    """Signs the `Authorization: vapid t=…, k=…` of pushes, one token per
    push service origin, kept until an hour before it expires."""

    def __init__(self, private_key: ec.EllipticCurvePrivateKey, subject: str) -> None:
        self.private_key = private_key
        self.subject = subject
        point = private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        #: base64url of the uncompressed public key: the browser's
        #: `applicationServerKey`
        self.public_key = b64url(point)
        self._tokens: dict[str, tuple[str, float]] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings, db: Database) -> Vapid:
        text = settings.vapid_private_key or db.secret(SECRET_NAME, make=new_private_key)
        return cls(load_private_key(text), subject_of(settings))

    def authorization(self, audience: str) -> str:
        """The `Authorization` header for a push to `audience` (the push
        service's origin)."""
        now = time.time()
        with self._lock:
            cached = self._tokens.get(audience)
            if cached is not None and cached[1] - now > RENEW_SECONDS:
                return cached[0]
            expires = int(now) + TOKEN_SECONDS
            claims = {"aud": audience, "exp": expires, "sub": self.subject}
            token: str = jwt.sign(claims, self.private_key)
            header = f"vapid t={token}, k={self.public_key}"
            if len(self._tokens) > 1000:  # origins are few; bound it all the same
                self._tokens.clear()
            self._tokens[audience] = (header, float(expires))
            return header
