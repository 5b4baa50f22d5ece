"""Seats and sides: with 4 players partners sit opposite (0+2 against 1+3)."""

from __future__ import annotations


def side_of(seat: int, players: int) -> int:
    return seat % 2 if players == 4 else seat


def side_count(players: int) -> int:
    return 2 if players == 4 else players


def seats_of_side(side: int, players: int) -> tuple[int, ...]:
    return tuple(s for s in range(players) if side_of(s, players) == side)


def next_seat(seat: int, players: int) -> int:
    """Play goes «to the right»: seat k is followed by seat k+1."""
    return (seat + 1) % players
