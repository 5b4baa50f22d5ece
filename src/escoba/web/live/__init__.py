"""The live updates: the server-sent streams, the bridges that carry a
table's new version between processes (PostgreSQL, Redis, SQLite's watcher),
«Mis mesas» live.

May import: devices, table, base."""
