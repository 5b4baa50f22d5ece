"""The frame of every request: the routes' shared dependencies (who is
asking, which seat), the guards in front of every request, the protocol's
headers, the move off the old seat cookies.

May import: rendering, live, notices, devices, table, base."""
