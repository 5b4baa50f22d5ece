"""E-mail notices: the SMTP sender, the channel, a seat's confirmed address
and its signed links.

May import: table, base."""
