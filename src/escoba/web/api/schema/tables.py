"""What a client gets: the table around the view (its seats, what the
viewer can do, the chat, a seat's notices, e-mail and transfer codes),
each made from what the service read by its `of`."""

from __future__ import annotations

from typing import Literal

from pydantic import (
    Field,
)

from escoba.web.api.schema.commands import NoticeKindName
from escoba.web.api.schema.views import Out, RulesOut, ViewOut
from escoba.web.table.pages import Allowed, PageSeat, TablePage, TableStatus
from escoba.words import Limits, say_result

#: The API's words (a refusal's message, how a game ended) are Spanish, the
#: site's language: its codes are for programs.
API_LANG = "es"


class SeatPublic(Out):
    position: int = Field(description="The lobby position, 0-3 (0: the creator).")
    name: str
    robot: str | None = Field(description="The robot's key (as `POST /robots` takes it).")
    game_seat: int | None = Field(description="The engine seat, once the game started.")
    creator: bool
    you: bool
    rematch: bool = Field(
        description="Asked for the rematch since the game ended: the first to ask proposed "
        "it (PROPONER REVANCHA), the others accepted (ACEPTAR REVANCHA). Robots never ask."
    )

    @classmethod
    def of(cls, seat: PageSeat) -> SeatPublic:
        return cls(
            position=seat.position,
            name=seat.name,
            robot=seat.robot,
            game_seat=seat.game_seat,
            creator=seat.is_creator,
            you=seat.is_you,
            rematch=seat.rematch_accepted,
        )


class CanOut(Out):
    """What your seat may do now (all false for a spectator)."""

    join: bool
    start: bool
    manage: bool = Field(description="Add or remove robots, choose the partner (the creator).")
    chat: bool
    leave: bool = Field(description="ABANDONAR.")
    next_round: bool = Field(description="SIGUIENTE RONDA.")
    absence: bool = Field(description="TERMINAR POR AUSENCIA.")
    rematch: bool = Field(
        description="`POST /rematch`: PROPONER REVANCHA when no seat's `rematch` is true yet, "
        "else ACEPTAR REVANCHA (false once you have asked)."
    )

    @classmethod
    def of(cls, can: Allowed) -> CanOut:
        """The page's `Allowed`, its fields by name (the viewer's others,
        such as `absent_seat`, are the page's alone)."""
        return cls.model_validate(can, from_attributes=True)


class TableOut(Out):
    """The table as your seat sees it; every command answers with it too."""

    invite: str
    status: TableStatus = Field(
        description="`lobby`: seats filling; `playing`: a game is on (between rounds too); "
        "`finished`: the game ended; `expired`: days without a game action."
    )
    target: int
    rules: RulesOut = Field(description="The table's rules, those of every game at it.")
    version: int = Field(description="Every command names the version it was made on.")
    game_number: int
    seats: list[SeatPublic]
    you: int | None = Field(description="Your lobby position, or null for a spectator.")
    names: list[str] = Field(description="Player names by engine seat (play order).")
    view: ViewOut | None = Field(description="Your seat's view of the game; null in the lobby.")
    result: str | None = Field(description="How the game ended, in words.")
    can: CanOut

    @classmethod
    def of(cls, page: TablePage, limits: Limits) -> TableOut:
        """`limits`: the settings the result's words quote (the hours of an
        absence)."""
        view = page.view
        result = None if view is None else view.result
        return cls(
            invite=page.invite,
            status=page.status,
            target=page.target,
            rules=RulesOut.of(page.rules),
            version=page.version,
            game_number=page.game_number,
            seats=[SeatPublic.of(s) for s in page.seats],
            you=None if page.you is None else page.you.position,
            names=list(page.names),
            view=None if view is None else ViewOut.of(view),
            result=(
                None
                if view is None or result is None
                else say_result(result, page.names, view.players, API_LANG, limits=limits)
            ),
            can=CanOut.of(page.can),
        )


class SeatOut(Out):
    invite: str
    token: str = Field(description="Keep it secret: it is your seat. Send it as a bearer token.")
    position: int
    table_url: str
    continue_url: str = Field(
        description="Opens this seat in a browser: a «Seguir en otro dispositivo» link, good "
        "for one use within ESCOBA_TRANSFER_CODE_MINUTES (10 by default). "
        "`POST /api/tables/{invite}/transfer` makes a fresh one."
    )
    table: TableOut = Field(description="The table as your new seat sees it.")


class NoticesOut(Out):
    kinds: list[NoticeKindName] = Field(
        description="The kinds of notice your seat hears of when its table is not open "
        "(until it chooses: all but `chat`)."
    )


class EmailOut(Out):
    """Your seat's address for its notices. A new one hears nothing until the
    link of the confirmation e-mail sent to it is opened."""

    email: str | None = Field(description="The address (its domain in lower case); null: none.")
    mode: Literal["now", "daily"]
    confirmed: bool = Field(description="Its confirmation link was opened: notices go to it.")


class TransferOut(Out):
    """A «Seguir en otro dispositivo» code for your seat: whoever opens `url`
    (or types `code` at `/seguir`) in a browser gets the seat there. One use;
    only its hash is kept."""

    code: str = Field(
        description="10 characters, shown as `XXXXX-XXXXX`.", examples=["K7P2M-X9QRT"]
    )
    url: str = Field(description="The link that redeems it (a page that asks first).")
    expires_at: str = Field(description="When it stops working (ISO 8601, UTC).")


class ChatOut(Out):
    id: int
    position: int
    name: str
    text: str
    at: str = Field(description="When it was written (ISO 8601).")
