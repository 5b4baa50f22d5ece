"""The ASGI entry point for uvicorn/gunicorn: `escoba.web.asgi:app`."""

from escoba.web.app import create_app

app = create_app(migrate=False)  # `escoba serve` and `escoba migrate` migrate first
