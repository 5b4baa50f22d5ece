"""The HTML pages and their front end (escoba.web.html, rendering, static)."""
