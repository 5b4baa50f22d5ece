"""Web Push (RFC 8030, 8291, 8292): the server's VAPID keys, the checked
subscriptions of seats, and the channel that sends notices to them."""

from escoba.web.push.channel import PushChannel
from escoba.web.push.endpoints import EndpointGuard, Subscription
from escoba.web.push.store import PushStore
from escoba.web.push.vapid import Vapid

__all__ = ["EndpointGuard", "PushChannel", "PushStore", "Subscription", "Vapid"]
