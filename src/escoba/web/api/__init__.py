"""The JSON API: its routes, its OpenAPI schema (schema/, one module per
thing it describes) and its docs page.

May import: frame, notices, table, base."""
