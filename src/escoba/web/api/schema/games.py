"""What a client gets of a table's games (issue 34): every game played at
the table, the game in play included, with its result and its rounds."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, PlainSerializer

from escoba.web.api.schema.views import Out, ResultOut
from escoba.web.table.history import GameLine, TableGames

#: A moment as Python writes it (`2026-01-01T12:00:00+00:00`, where pydantic
#: would write `Z`): the answers' form since they were first made.
Moment = Annotated[datetime, PlainSerializer(lambda at: at.isoformat(), when_used="json")]


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
    started_at: Moment | None = Field(description="When it was dealt (UTC).")
    ended_at: Moment | None = Field(description="When it ended (UTC); null while played.")

    @classmethod
    def of(cls, line: GameLine) -> GameOut:
        return cls(
            number=line.number,
            status="playing" if line.in_play else "finished",
            current=line.current,
            names=list(line.names),
            positions=list(line.positions),
            result=None if line.result is None else ResultOut.of(line.result),
            totals=list(line.totals),
            rounds=[
                GameRoundOut(number=n, points=list(points), totals=list(totals))
                for n, points, totals in line.rounds
            ],
            started_at=line.began,
            ended_at=line.ended,
        )


class SeriesWinsOut(Out):
    position: int = Field(description="A seat's lobby position.")
    wins: int = Field(description="The games its side won at this table.")


class GamesOut(Out):
    """Every game played at the table, first to last, and the series they make."""

    invite: str
    games: list[GameOut]
    series: list[SeriesWinsOut] = Field(description="Games won per lobby position.")
    decided: int = Field(description="The games that ended with a winner.")

    @classmethod
    def of(cls, games: TableGames) -> GamesOut:
        return cls(
            invite=games.invite,
            games=[GameOut.of(g) for g in games.games],
            series=[SeriesWinsOut(position=p, wins=w) for p, w in games.wins],
            decided=games.decided,
        )
