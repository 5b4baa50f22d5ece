"""The HTTP request of one push, to the address the endpoint guard checked:
the connection goes to that address, while TLS (its server name and the
certificate's check) and the `Host` header name the endpoint's host, so a
name whose DNS changed after the check is never asked again. Connections to
a push service are kept and reused (urllib3 pools, one per address and host)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import urllib3
from urllib3.exceptions import HTTPError as Urllib3Error

from escoba.web.notices.push.endpoints import Endpoint

#: what is read of a push service's answer (the rest is not)
MAX_REPLY_BYTES = 16 * 1024


class SendError(Exception):
    """No answer: the connection failed or timed out (worth another try)."""


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    retry_after: str | None


class PushSender:
    def __init__(
        self,
        connect_timeout: float,
        read_timeout: float,
        connections: int,
        ca_certs: str | None = None,
    ) -> None:
        """`ca_certs`: the authorities a push service's certificate may come
        from (default: the system's; tests give their own)."""
        self.timeout = urllib3.Timeout(connect=connect_timeout, read=read_timeout)
        self.pools = urllib3.PoolManager(
            num_pools=64,
            maxsize=max(1, connections),
            block=False,
            retries=False,
            ca_certs=ca_certs,
        )

    def post(self, endpoint: Endpoint, address: str, headers: dict[str, str], body: bytes) -> Reply:
        pool_kwargs: dict[str, Any] = {}
        if endpoint.scheme == "https" and endpoint.literal is None:
            pool_kwargs = {"server_hostname": endpoint.host, "assert_hostname": endpoint.host}
        try:
            pool = self.pools.connection_from_host(
                address, endpoint.port, endpoint.scheme, pool_kwargs=pool_kwargs
            )
            response = pool.urlopen(
                "POST",
                endpoint.target,
                body=body,
                headers={**headers, "Host": endpoint.authority},
                retries=False,
                redirect=False,
                assert_same_host=False,
                timeout=self.timeout,
                preload_content=False,
            )
            try:
                response.read(MAX_REPLY_BYTES)
                if response.read(1):
                    response.close()  # too long an answer: this connection is not reused
            finally:
                response.release_conn()
        except (Urllib3Error, OSError) as exc:
            raise SendError(type(exc).__name__) from None
        return Reply(response.status, response.headers.get("Retry-After"))

    def close(self) -> None:
        self.pools.clear()
