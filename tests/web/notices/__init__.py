"""The tests of the notices' room (escoba.web.notices): each concern alone,
without the app, and through it."""
