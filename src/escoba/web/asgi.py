"""The ASGI entry point for uvicorn/gunicorn: `escoba.web.asgi:app`
(`uvicorn escoba.web.asgi:app --workers 4`, after `escoba migrate`)."""

from escoba.web.app import create_app
from escoba.web.base.logs import configure
from escoba.web.base.settings import Settings

_settings = Settings()
configure(_settings.log_format, _settings.log_level)
# `escoba serve` and `escoba migrate` migrate first
app = create_app(_settings, migrate=False, serving=True)
