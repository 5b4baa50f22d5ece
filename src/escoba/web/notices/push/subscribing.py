"""Subscribing a seat to Web Push, and unsubscribing it: what the page's
script (`POST /t/{invite}/push`) and the JSON API (`/api/tables/{invite}/push`)
both do, for the seat the request holds."""

from __future__ import annotations

from collections.abc import Mapping

import anyio.to_thread

from escoba.web.base.errors import Forbidden
from escoba.web.notices.push.endpoints import MAX_ENDPOINT, BadSubscription, EndpointGuard
from escoba.web.notices.push.store import PushStore
from escoba.web.table.store import Credential


class Subscribing:
    def __init__(self, store: PushStore, guard: EndpointGuard) -> None:
        self.store = store
        self.guard = guard

    def _seat(self, invite: str, credential: Credential) -> int:
        seat_id = self.store.seat_id(invite, credential)
        if seat_id is None:
            raise Forbidden("not_seated")
        return seat_id

    async def subscribe(
        self,
        invite: str,
        credential: Credential,
        data: object,
        lang: str,
        device_id: int | None,
    ) -> None:
        """Check the subscription (its shape, keys and endpoint, and the
        addresses its host resolves to, in a worker thread: DNS blocks) and
        link it to the seat. Raises `ServiceError`; nothing changes then."""
        seat_id = self._seat(invite, credential)
        subscription = self.guard.subscription(data)
        await anyio.to_thread.run_sync(self.guard.address, subscription.endpoint)
        self.store.subscribe(seat_id, subscription, lang, device_id)

    def unsubscribe(self, invite: str, credential: Credential, data: object) -> None:
        """Unlink the subscription `{"endpoint": …}` names from the seat (it
        is deleted when it serves no other seat); no such link is no error."""
        seat_id = self._seat(invite, credential)
        endpoint = data.get("endpoint") if isinstance(data, Mapping) else None
        if not isinstance(endpoint, str) or not endpoint:
            raise BadSubscription("bad_subscription", words="push_not_subscription")
        if len(endpoint) > MAX_ENDPOINT:
            raise BadSubscription(
                "bad_subscription", words="push_endpoint_long", limit=MAX_ENDPOINT
            )
        if "\x00" in endpoint:  # never stored (no push service's URL has one;
            return  # PostgreSQL takes none): nothing to unlink
        self.store.unsubscribe(seat_id, endpoint)
