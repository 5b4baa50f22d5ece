"""What a browser hands over when it subscribes (`PushSubscription.toJSON()`),
checked before anything is stored, and the address a push is sent to.

A push endpoint is a URL the server will later POST to, chosen by whoever
subscribes: left unchecked, it would let anyone make the server call into its
own network (server-side request forgery). So an endpoint is an `https://`
URL of at most 1024 characters, without credentials or fragment, whose host
is a public name or address: loopback, private, link-local, multicast,
reserved and unspecified addresses are refused, in any spelling (IPv4-mapped
IPv6, NAT64 and 6to4 forms are judged by the IPv4 address inside; decimal,
octal or hexadecimal IPv4 spellings are no host at all), and so are
`localhost` and local-only names. Every address a name resolves to is checked
when it subscribes and again before each send (its DNS may have changed),
and the request goes to the address that was checked. Only a test server
(`ESCOBA_PUSH_ALLOW_PRIVATE`) takes `http://` and private addresses.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec

from escoba.web.base.errors import Invalid

#: The longest endpoint taken (the column's length).
MAX_ENDPOINT = 1024
#: An uncompressed P-256 point (0x04, x, y) and the auth secret, in bytes.
P256DH_BYTES = 65
AUTH_BYTES = 16

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
#: host, port → the addresses the name resolves to (as text)
Resolver = Callable[[str, int], list[str]]

_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
_NUMERIC_LABEL = re.compile(r"^(0x[0-9a-f]*|[0-9]+)$")
_B64URL = re.compile(r"^[A-Za-z0-9_-]+={0,2}$")
#: names that never leave the machine or its network
_LOCAL_SUFFIXES = (".localhost", ".local", ".localdomain", ".internal", ".home.arpa", ".lan")
_NAT64 = (
    ipaddress.IPv6Network("64:ff9b::/96"),
    ipaddress.IPv6Network("64:ff9b:1::/48"),
)


class BadSubscription(Invalid):
    """Not a push subscription, or not one this server takes (code
    `bad_subscription`; the words say what is wrong)."""


class EndpointRefused(Invalid):
    """The endpoint's host is (or resolves to) an address the server does
    not call (code `push_endpoint_refused`)."""


class EndpointUnresolved(EndpointRefused):
    """The endpoint's name resolves to nothing (now: DNS may be down)."""


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A checked endpoint URL and its parts."""

    url: str
    scheme: str
    host: str  # lower case; an IPv6 address without its brackets
    port: int
    target: str  # path and query: what the request line names
    literal: IPAddress | None  # the host, when it is an address

    @property
    def origin(self) -> str:
        """scheme://host[:port], the VAPID audience (RFC 8292 §2)."""
        return f"{self.scheme}://{self.authority}"

    @property
    def authority(self) -> str:
        """The `Host` header: host[:port], the port only when not the default."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"


@dataclass(frozen=True, slots=True)
class Subscription:
    """A browser's push subscription, checked: the endpoint, the browser's
    ECDH public key and auth secret (base64url without padding)."""

    endpoint: Endpoint
    p256dh: str
    auth: str


def is_public(ip: IPAddress) -> bool:
    """An address on the public Internet, whatever the spelling."""
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return is_public(ip.ipv4_mapped)
        if ip.sixtofour is not None:
            return is_public(ip.sixtofour)
        if ip.teredo is not None:
            return False
        if any(ip in net for net in _NAT64):
            return is_public(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
        if ip.scope_id or ip.is_site_local:
            return False
    return ip.is_global and not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
    )


def parse_endpoint(url: object, allow_private: bool = False) -> Endpoint:
    """The endpoint of `url`, or `BadSubscription`/`EndpointRefused` saying
    what is wrong with it. No DNS here: `EndpointGuard.address` resolves."""
    if not isinstance(url, str) or not url:
        raise BadSubscription("bad_subscription", words="push_not_subscription")
    if len(url) > MAX_ENDPOINT:
        raise BadSubscription("bad_subscription", words="push_endpoint_long", limit=MAX_ENDPOINT)
    if not url.isascii() or any(c <= " " or c in "\x7f\\#" for c in url):
        raise BadSubscription("bad_subscription", words="push_endpoint_url")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise BadSubscription("bad_subscription", words="push_endpoint_url") from None
    scheme = parts.scheme.lower()
    if scheme != "https" and not (allow_private and scheme == "http"):
        raise BadSubscription("bad_subscription", words="push_endpoint_url")
    if "@" in parts.netloc or not parts.hostname or port == 0:
        raise BadSubscription("bad_subscription", words="push_endpoint_url")
    host = parts.hostname.rstrip(".")
    literal = _literal(host)
    if literal is None:
        _check_name(host, allow_private)
    elif not allow_private and not is_public(literal):
        raise EndpointRefused("push_endpoint_refused", words="push_endpoint_private")
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    return Endpoint(
        url=url,
        scheme=scheme,
        host=host if literal is None else str(literal),
        port=port if port is not None else (443 if scheme == "https" else 80),
        target=target,
        literal=literal,
    )


def _literal(host: str) -> IPAddress | None:
    """The address a host names literally; `BadSubscription` for what a
    browser's URL parser would take for an IPv4 address but is not written
    as four decimal numbers (2130706433, 0x7f000001, 0177.0.0.1, 127.1)."""
    if ":" in host:
        try:
            return ipaddress.IPv6Address(host)
        except ValueError:
            raise BadSubscription("bad_subscription", words="push_endpoint_url") from None
    if _NUMERIC_LABEL.match(host.rsplit(".", 1)[-1]):
        try:
            return ipaddress.IPv4Address(host)
        except ValueError:
            raise BadSubscription("bad_subscription", words="push_endpoint_url") from None
    return None


def _check_name(host: str, allow_private: bool) -> None:
    labels = host.split(".")
    if len(host) > 253 or not all(_LABEL.match(label) for label in labels):
        raise BadSubscription("bad_subscription", words="push_endpoint_url")
    if allow_private:
        return
    if len(labels) < 2 or host == "localhost" or host.endswith(_LOCAL_SUFFIXES):
        raise EndpointRefused("push_endpoint_refused", words="push_endpoint_private")


def _b64url(value: object, size: int, words: str) -> str:
    """`value` as base64url text of exactly `size` bytes, without padding."""
    if not isinstance(value, str) or len(value) > 2 * size or not _B64URL.match(value):
        raise BadSubscription("bad_subscription", words=words)
    bare = value.rstrip("=")
    try:
        raw = base64.urlsafe_b64decode(bare + "=" * (-len(bare) % 4))
    except (binascii.Error, ValueError):
        raise BadSubscription("bad_subscription", words=words) from None
    if len(raw) != size:
        raise BadSubscription("bad_subscription", words=words)
    return bare


def parse_subscription(data: object, allow_private: bool = False) -> Subscription:
    """A subscription from a browser's `PushSubscription.toJSON()`:
    `{"endpoint", "expirationTime", "keys": {"p256dh", "auth"}}`."""
    if not isinstance(data, Mapping) or not isinstance(data.get("keys"), Mapping):
        raise BadSubscription("bad_subscription", words="push_not_subscription")
    expires = data.get("expirationTime")
    if expires is not None and (isinstance(expires, bool) or not isinstance(expires, int | float)):
        raise BadSubscription("bad_subscription", words="push_not_subscription")
    keys = data["keys"]
    if "endpoint" not in data or "p256dh" not in keys or "auth" not in keys:
        raise BadSubscription("bad_subscription", words="push_not_subscription")
    endpoint = parse_endpoint(data["endpoint"], allow_private)
    p256dh = _b64url(keys["p256dh"], P256DH_BYTES, "push_bad_key")
    raw = base64.urlsafe_b64decode(p256dh + "=")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except ValueError:
        raise BadSubscription("bad_subscription", words="push_bad_key") from None
    if raw[0] != 4:  # a compressed point is valid, but no browser sends one
        raise BadSubscription("bad_subscription", words="push_bad_key")
    auth = _b64url(keys["auth"], AUTH_BYTES, "push_bad_auth")
    return Subscription(endpoint, p256dh, auth)


def system_resolve(host: str, port: int) -> list[str]:
    """The addresses `host` resolves to, in the resolver's order."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class EndpointGuard:
    """Checks endpoints: their URL (`subscription`) and the addresses their
    host resolves to (`address`). `resolve` is the system's resolver (tests
    put their own)."""

    def __init__(self, allow_private: bool, resolve: Resolver = system_resolve) -> None:
        self.allow_private = allow_private
        self.resolve = resolve

    def subscription(self, data: object) -> Subscription:
        return parse_subscription(data, self.allow_private)

    def endpoint(self, url: str) -> Endpoint:
        return parse_endpoint(url, self.allow_private)

    def address(self, endpoint: Endpoint) -> str:
        """The address to connect to for `endpoint`: its literal address, or
        the first its name resolves to, once every one of them is checked
        (one private address among public ones refuses them all).
        Blocking (DNS): never call it on the event loop."""
        if endpoint.literal is not None:
            found: list[str] = [str(endpoint.literal)]
        else:
            try:
                found = self.resolve(endpoint.host, endpoint.port)
            except (OSError, UnicodeError):
                raise EndpointUnresolved(
                    "push_endpoint_refused", words="push_endpoint_unknown"
                ) from None
        if not found:
            raise EndpointUnresolved("push_endpoint_refused", words="push_endpoint_unknown")
        addresses: list[IPAddress] = []
        for text in found:
            try:
                addresses.append(ipaddress.ip_address(text))
            except ValueError:  # a scoped (link-local) IPv6 address, or garbage
                raise EndpointRefused(
                    "push_endpoint_refused", words="push_endpoint_private"
                ) from None
        if not self.allow_private and not all(is_public(ip) for ip in addresses):
            raise EndpointRefused("push_endpoint_refused", words="push_endpoint_private")
        return str(addresses[0])
