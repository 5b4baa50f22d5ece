"""E-mail addresses a person types: checked and put in one form, or refused
with words they understand.

An address is kept as `local@domain`: the local part as typed (ASCII, the
dot-atom of RFC 5322: no spaces, quotes, commas or brackets), the domain in
lower case, in its Unicode form when it is an internationalised one
(IDNA 2008, UTS 46), which `ascii_address` turns into its `xn--` form for
the SMTP envelope and headers.
"""

from __future__ import annotations

import re
from typing import Final

import idna

from escoba.web.base.errors import Invalid

MAX_LENGTH: Final = 254  # RFC 5321's limit on a path, less its brackets
MAX_LOCAL: Final = 64
# atext of RFC 5322, and dots between atoms (none at either end, none doubled)
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LOCAL = re.compile(rf"{_ATOM}(?:\.{_ATOM})*")
_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")


def parse_address(text: str) -> str:
    """The address `text` names, in its kept form; `Invalid` when it is
    empty (`empty_email`), too long (`email_too_long`) or no address
    (`bad_email`)."""
    address = text.strip()
    if not address:
        raise Invalid("empty_email")
    if len(address) > MAX_LENGTH:
        raise Invalid("email_too_long", limit=MAX_LENGTH)
    if address.count("@") != 1:
        raise Invalid("bad_email")
    local, domain = address.split("@")
    if len(local) > MAX_LOCAL or not _LOCAL.fullmatch(local):
        raise Invalid("bad_email")
    return f"{local}@{_domain(domain)}"


def _domain(domain: str) -> str:
    """The domain in lower case, Unicode labels kept: at least two labels
    and a top level that is no number, each label as DNS allows it."""
    if not domain or any(c.isspace() or not c.isprintable() for c in domain):
        raise Invalid("bad_email")
    try:
        ascii_form = idna.encode(domain, uts46=True).decode("ascii")
        unicode_form = idna.decode(ascii_form)
    except (idna.IDNAError, UnicodeError) as err:
        raise Invalid("bad_email") from err
    labels = ascii_form.split(".")
    if len(labels) < 2 or len(ascii_form) > 253 or labels[-1].isdigit():
        raise Invalid("bad_email")
    if not all(_LABEL.fullmatch(label) for label in labels):
        raise Invalid("bad_email")
    return unicode_form


def ascii_address(address: str) -> str:
    """A kept address with its domain in ASCII (`xn--` labels), as SMTP
    without SMTPUTF8 takes it."""
    local, _, domain = address.rpartition("@")
    return f"{local}@{ascii_domain(domain)}"


def ascii_domain(domain: str) -> str:
    """A domain in its ASCII form (`xn--` labels)."""
    try:
        return idna.encode(domain, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError):
        return domain.encode("ascii", "replace").decode("ascii")
