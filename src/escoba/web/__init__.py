"""The invite-table web app, in rooms by concern, each a package over the ones
below it (pyproject.toml's layers contract): html, api, frame, then rendering,
live and notices, then table, then base. `app.py` puts them together,
`asgi.py` serves them, `cli.py` is `escoba serve`."""
