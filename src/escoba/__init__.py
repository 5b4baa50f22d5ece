"""Escoba del 15: a rules engine, robots and an invite-table web app."""

__version__ = "0.1.0"
