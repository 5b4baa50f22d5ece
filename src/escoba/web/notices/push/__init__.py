"""Web Push (RFC 8030, 8291, 8292): the server's VAPID keys, the checked
subscriptions of seats, and the channel that sends notices to them.

May import: table, base."""

from escoba.web.notices.push.channel import PushChannel
from escoba.web.notices.push.endpoints import EndpointGuard, Subscription
from escoba.web.notices.push.store import PushStore
from escoba.web.notices.push.vapid import Vapid

__all__ = ["EndpointGuard", "PushChannel", "PushStore", "Subscription", "Vapid"]
