"""The JSON API: its routes (a table's, its games', a seat's e-mail
address), its OpenAPI schema (schema/, one module per thing it describes)
and its docs page.

May import: frame, notices (a seat's e-mail address), table, base."""
