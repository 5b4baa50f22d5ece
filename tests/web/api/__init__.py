"""The JSON API (escoba.web.api): its schema, its refusals."""
