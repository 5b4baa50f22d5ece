"""Who may read /metrics (ESCOBA_METRICS, docs/deploy.md): apart from the
metrics themselves (web/base/metrics.py), so that reading the settings
imports no prometheus_client (`escoba serve` sets its multiprocess
directory before that)."""

from __future__ import annotations

import hmac
import ipaddress


class MetricsAccess:
    """Who may read /metrics (ESCOBA_METRICS): `off` (nobody: the default),
    a comma-separated list of client networks (`127.0.0.1/32, 10.0.0.0/8`),
    or `token:SECRET` (a request with `Authorization: Bearer SECRET`)."""

    def __init__(self, value: str) -> None:
        value = value.strip()
        self.token: str | None = None
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        if value.lower() in ("", "off"):
            return
        if value.startswith("token:"):
            token = value.removeprefix("token:").strip()
            if not token:
                raise ValueError("ESCOBA_METRICS=token: needs the token after the colon")
            self.token = token
            return
        for part in value.split(","):
            if part.strip():
                self.networks.append(ipaddress.ip_network(part.strip(), strict=False))

    @property
    def enabled(self) -> bool:
        return bool(self.token or self.networks)

    def allows(self, client: str | None, authorization: str | None) -> bool:
        if self.token is not None:
            scheme, _, given = (authorization or "").partition(" ")
            return scheme.lower() == "bearer" and hmac.compare_digest(
                given.strip().encode(), self.token.encode()
            )
        if not client:
            return False
        try:
            address = ipaddress.ip_address(client)
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return any(address in network for network in self.networks)
