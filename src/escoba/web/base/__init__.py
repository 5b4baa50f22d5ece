"""The base every room stands on: settings, the database and its schema,
refusals, limits, logs, clocks, the static files and the cards' pictures.

May import: no other room (of escoba, the engine's types, names and words)."""
