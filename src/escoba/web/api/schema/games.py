"""What a client gets of a table's games (issue 34): every game played at
the table, the game in play included, with its result and its rounds."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from escoba.web.api.schema.views import Out, ResultOut


class GameRoundOut(Out):
    """A finished round of a game: its points and the running totals, by side."""

    number: int = Field(description="The round's number in its game, from 1.")
    points: list[int] = Field(description="The round's points, by side index.")
    totals: list[int] = Field(description="The totals by side after the round.")


class GameOut(Out):
    """One game of the table. Its record is `GET /games/{number}/record`, each
    finished round's analysis `GET /games/{number}/rounds/{n}/analysis`."""

    number: int = Field(description="The game's number at the table, from 1.")
    status: Literal["playing", "finished"] = Field(
        description="`playing`: the game in play, not over yet; `finished`: over "
        "(by points, abandon, absence or expiry)."
    )
    current: bool = Field(
        description="The table's current game: the one its other paths (`/record`, "
        "`/rounds/{n}/analysis`) answer for."
    )
    names: list[str] = Field(description="Player names by engine seat (play order).")
    positions: list[int] = Field(description="The lobby position of each engine seat.")
    result: ResultOut | None = Field(description="How it ended; null while it is played.")
    totals: list[int] = Field(description="Points by side after its finished rounds.")
    rounds: list[GameRoundOut] = Field(description="Its finished rounds, in order.")
    started_at: datetime | None = Field(description="When it was dealt (UTC).")
    ended_at: datetime | None = Field(description="When it ended (UTC); null while played.")


class SeriesWinsOut(Out):
    position: int = Field(description="A seat's lobby position.")
    wins: int = Field(description="The games its side won at this table.")


class GamesOut(Out):
    """Every game played at the table, first to last, and the series they make."""

    invite: str
    games: list[GameOut]
    series: list[SeriesWinsOut] = Field(description="Games won per lobby position.")
    decided: int = Field(description="The games that ended with a winner.")
