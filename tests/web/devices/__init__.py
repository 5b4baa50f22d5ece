"""The tests of the devices' room (escoba.web.devices): each concern alone,
without the app, and through it."""
