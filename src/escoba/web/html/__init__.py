"""The HTML pages: every route that answers a page or a form (the table, its
story and replays, analyses, devices and codes, e-mail and push choices, the
installable app, health and the streams, the first lesson).

May import: frame, rendering, live, notices, devices, table, base."""
