"""The JSON API's schema: what a client sends, what it gets back and every
refusal it can meet, as the pydantic models FastAPI publishes in
`/openapi.json`.

The answers are made without these models (`api.table_json`, on the hot read
of every turn): the models describe that JSON exactly (every field required
unless the JSON may leave it out, no other field), and the test suite checks
every answer it gets against the published schema, so a field added to a view
without its model fails there instead of going undocumented.

A claim's cards have one name everywhere: `cards`, every card the claim
takes with the left card first, in the command as in the view's history,
its `legal_actions` and the game record (shared/RECORD.md).

Over 500 lines on purpose: it is the whole contract, one small model per JSON
object and the refusals by status, kept in one file so that a client's author
reads it in one place (as `/docs` shows it)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
    create_model,
)
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError

from escoba.bots import SEATABLE_KEYS
from escoba.engine import EndReason, Phase, RuleSet
from escoba.engine.cards import NOTATION
from escoba.i18n import LANGUAGES
from escoba.web.errors import Invalid
from escoba.web.pages import TableStatus

# ---------------------------------------------------------------------------
# Cards

#: The notation of RULES.md: value 1-10, then the suit (D H S C).
CARD_PATTERN = r"^(10|[1-9])[DHSC]$"
_CARD_NOTATIONS = frozenset(NOTATION)

Card = Annotated[
    str,
    Field(
        pattern=CARD_PATTERN,
        description="A card in the notation of RULES.md: `7D`, `10S`.",
        examples=["7D"],
    ),
]


def _card_in(value: Any) -> Any:
    """A card of a command: in the notation, exactly (the answers' own), or a
    422 `invalid` that says how a card is written, whatever is wrong with it."""
    if isinstance(value, str) and value not in _CARD_NOTATIONS:
        raise PydanticCustomError(
            "card", "«{text}» no es una carta (se escribe valor y palo: 7D, 10S)", {"text": value}
        )
    return value


CardIn = Annotated[Card, BeforeValidator(_card_in)]
Cards = Annotated[list[Card], Field(max_length=40)]
CardsIn = Annotated[list[CardIn], Field(max_length=40)]

# ---------------------------------------------------------------------------
# What a client sends


class StrictIn(BaseModel):
    """Every request body is read with strict types: `"3"`, `4.0` or `true`
    is no version (lax pydantic would take them for 3, 4 and 1), and a client
    that sends one learns it from a 422 instead of acting on a guess."""

    model_config = ConfigDict(strict=True)


def _integer(value: Any) -> Any:
    """Strict mode does not reach a literal's values, which compare by
    equality: 21.0 would pass for 21 (and `true` for a literal 1)."""
    if type(value) is not int:
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    return value


class RulesIn(StrictIn):
    """The table's rules as a record names them (shared/RECORD.md, «The
    rules of the game»); a key left out is the site's rule. The house rules
    of RULES.md («Scoring a round», *Variants*) are chosen here."""

    model_config = ConfigDict(strict=True, extra="forbid")

    target: Annotated[Literal[15, 21, 30, 31], BeforeValidator(_integer)] | None = Field(
        default=None,
        description="Points to win: the site's 21 or 31, or the variants' 15 or 30 "
        "(left out: the body's `target`).",
    )
    thirty_is_double: bool = Field(
        default=True, description="A first table of 30 is two escobas (false: one)."
    )
    compulsory_capture: bool = Field(
        default=False, description="A player who can make 15 must capture."
    )
    setenta: bool = Field(default=False, description="La setenta replaces «most sevens».")
    ties: Literal["nobody", "each"] = Field(
        default="nobody",
        description="A tie for the most cards, diamonds or sevens (setenta): the point to "
        "nobody (the site's) or to each tied side.",
    )


class CreateIn(StrictIn):
    name: str = Field(max_length=200, description="Your name at the table.")
    target: Annotated[Literal[21, 31], BeforeValidator(_integer)] = Field(
        default=21, description="Points to win under the site's rules."
    )
    rules: RulesIn | None = Field(
        default=None, description="House rules; left out: the site's rules to `target`."
    )

    def rule_set(self) -> RuleSet:
        """The rules of the new table; two different targets named (`target`
        and `rules.target`) are refused."""
        if self.rules is None:
            return RuleSet(target=self.target)
        named = self.rules.target
        if named is not None and "target" in self.model_fields_set and named != self.target:
            raise Invalid("bad_target", words="two_targets", points=self.target, named=named)
        return RuleSet(
            target=named if named is not None else self.target,
            thirty_is_double=self.rules.thirty_is_double,
            compulsory_capture=self.rules.compulsory_capture,
            setenta=self.rules.setenta,
            ties=self.rules.ties,
        )


class JoinIn(StrictIn):
    name: str = Field(max_length=200)


class VersionIn(StrictIn):
    version: int = Field(description="The table version your command was made on.")


def _seatable(robot: str) -> str:
    if robot not in SEATABLE_KEYS:
        raise ValueError(f"one of {', '.join(SEATABLE_KEYS)}")
    return robot


#: A robot's key, one of escoba.bots.SEATABLE (the schema lists them).
RobotKey = Annotated[
    str,
    AfterValidator(_seatable),
    WithJsonSchema({"type": "string", "enum": list(SEATABLE_KEYS)}),
]


class RobotIn(VersionIn):
    robot: RobotKey


class PositionIn(VersionIn):
    position: int = Field(ge=0, le=3)


class PlayIn(StrictIn):
    """LLEVAR (with the table cards the card takes) or DEJAR EN LA MESA
    (`capture` empty)."""

    type: Literal["play"]
    card: CardIn = Field(description="The card of your hand you play.")
    capture: CardsIn = Field(
        default_factory=list, description="The table cards it takes; empty to leave it."
    )


class ClaimIn(StrictIn):
    """LLEVAR EL 15: take the card the previous player left on a 15."""

    type: Literal["claim"]
    cards: CardsIn = Field(
        description="Every card you take: the left card (the view's `claimable`) and the "
        "table cards that make 15 with it, as `legal_actions` and the history list them."
    )


class ActIn(VersionIn):
    action: Annotated[PlayIn | ClaimIn, Field(discriminator="type")]


class RematchIn(VersionIn):
    pairs: Literal["keep", "change"] | None = Field(
        default=None, description="With four, the creator: MANTENER (keep) or CAMBIAR (change)."
    )


class ChatIn(StrictIn):
    text: str = Field(max_length=2000)


NoticeKindName = Literal["turn", "round", "end", "absence", "warning", "expiry", "chat"]


class NoticesIn(StrictIn):
    kinds: list[Annotated[str, Field(max_length=40)]] = Field(
        max_length=32,
        description="Every kind of notice your seat hears of from now on (the others: none). "
        "`turn`: your turn begins; `round`: a round waits for SIGUIENTE RONDA; `end`: the "
        "game ended; `absence`: TERMINAR POR AUSENCIA became possible against someone; "
        "`warning`: it soon becomes possible against you; `expiry`: the table expires "
        "soon for want of play; `chat`: someone wrote.",
        examples=[["turn", "round", "end"]],
    )


class EmailIn(StrictIn):
    """An address for your seat's notices (the server must have SMTP settings)."""

    email: str = Field(max_length=1000, description="The address, as a person types it.")
    mode: Literal["now", "daily"] = Field(
        default="now",
        description="`now`: an e-mail per notice (at most one per table within the server's "
        "quiet period); `daily`: one digest a day of the tables that wait on you.",
    )
    lang: Literal["es", "pt_BR", "en"] | None = Field(
        default=None,
        description="The e-mails' language; by default the request's Accept-Language, else es.",
    )


#: The languages a seat's notices may be written in.
Lang = Annotated[
    str,
    AfterValidator(lambda lang: _one_of(lang, LANGUAGES)),
    WithJsonSchema({"type": "string", "enum": list(LANGUAGES)}),
]


def _one_of(value: str, allowed: Iterable[str]) -> str:
    if value not in allowed:
        raise ValueError(f"one of {', '.join(allowed)}")
    return value


class PushKeysIn(StrictIn):
    p256dh: str = Field(
        max_length=100,
        description="The browser's ECDH public key: base64url of an uncompressed P-256 point "
        "(65 bytes).",
    )
    auth: str = Field(max_length=50, description="The auth secret: base64url of 16 bytes.")


class PushEndpointIn(StrictIn):
    endpoint: str = Field(
        max_length=1024,
        description="The push service's URL for the subscription (`https://`, on a public "
        "address; no credentials or fragment).",
    )


class PushSubscriptionIn(PushEndpointIn):
    """A Web Push subscription, as a browser's `PushSubscription.toJSON()`
    gives it, for your seat's notices (your turn, the end of a round or of the
    game, an absence…): they name the table and who is waiting, never a card."""

    expiration_time: float | None = Field(
        default=None, alias="expirationTime", description="As the browser gives it (unused)."
    )
    keys: PushKeysIn
    lang: Lang = Field(default="es", description="The language of the notices.")


# ---------------------------------------------------------------------------
# What a client gets: the view of a seat


class Out(BaseModel):
    """An answer's object: exactly these fields (`additionalProperties` is
    false), so that the published schema is the whole answer."""

    model_config = ConfigDict(extra="forbid")


class RulesOut(Out):
    """The table's rules (shared/RECORD.md, «The rules of the game»)."""

    target: int = Field(description="Points to win.")
    thirty_is_double: bool = Field(description="A first table of 30 is two escobas.")
    compulsory_capture: bool = Field(description="A player who can make 15 must capture.")
    setenta: bool = Field(description="La setenta replaces «most sevens».")
    ties: Literal["nobody", "each"] = Field(
        description="Who scores a tie for the most: nobody (the site's) or each tied side."
    )


class SeatCountsOut(Out):
    """What everyone sees of one seat this round."""

    seat: int = Field(description="The engine seat, in play order from 0.")
    side: int = Field(description="Its side (partners share one with four players).")
    hand_size: int
    captured: int = Field(description="Cards this seat took this round.")
    escobas: int = Field(description="Its escobas this round.")
    dealer: bool
    on_turn: bool


class PlayOut(Out):
    """A card played: LLEVAR (`capture` holds the table cards it took) or
    DEJAR EN LA MESA (`capture` empty)."""

    type: Literal["play"]
    card: Card
    capture: Cards


class ClaimOut(Out):
    """LLEVAR EL 15: `cards` is every card taken, the left card first."""

    type: Literal["claim"]
    cards: Cards


Action = Annotated[PlayOut | ClaimOut, Field(discriminator="type")]


class PlayedOut(PlayOut):
    """A play of this round, as the game record has it."""

    seat: int
    escoba: bool = Field(description="It emptied the table.")


class ClaimedOut(ClaimOut):
    """A claim of this round, as the game record has it."""

    seat: int
    escoba: bool = Field(description="It emptied the table.")


Played = Annotated[PlayedOut | ClaimedOut, Field(discriminator="type")]


class TableTakeOut(Out):
    """The first four table cards made 15 (one escoba) or 30 (two, unless
    the rules say one): the dealer took them."""

    seat: int
    cards: Cards
    escobas: int


class LeftoverOut(Out):
    """The cards left on the table at the end of a round, and who took them
    (`seat` null: nobody captured in the round)."""

    seat: int | None
    cards: Cards


def _no_default(schema: dict[str, Any]) -> None:
    """A field that some answers leave out, never null: no `default` shown."""
    schema.pop("default", None)


class LinesOut(Out):
    """The points each line of the round's summary gave the side, as its
    page shows them («22 → 1»); they add up to the side's `points`. The last
    line is `sevens`, or `setenta` under la setenta: one of the two."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"oneOf": [{"required": ["sevens"]}, {"required": ["setenta"]}]},
    )

    escobas: int = Field(description="One point an escoba.")
    cards: int = Field(description="The most cards.")
    diamonds: int = Field(description="The most diamonds (oros).")
    seven_of_diamonds: int = Field(description="The 7 of diamonds (el siete de oros).")
    sevens: int | SkipJsonSchema[None] = Field(
        default=None,
        json_schema_extra=_no_default,
        description="The most sevens; absent under la setenta (its line is `setenta`).",
    )
    setenta: int | SkipJsonSchema[None] = Field(
        default=None,
        json_schema_extra=_no_default,
        description="The best setenta, under la setenta only (absent otherwise): it "
        "replaces «most sevens».",
    )


class SideScoreOut(Out):
    """One side's counts after the leftover went to its taker, and the
    round's points."""

    escobas: int
    cards: int
    diamonds: int
    sevens: int
    seven_of_diamonds: bool
    points: int
    setenta: int | None = Field(
        default=None,
        description="Under la setenta only (absent otherwise): the side's setenta, or null "
        "when «coja» (no card of some suit).",
    )
    lines: LinesOut = Field(description="The round's points line by line.")


class LastRoundOut(Out):
    """The public summary of the last finished round (no deals: those were
    private)."""

    number: int
    dealer: int
    leftover: LeftoverOut
    sides: list[SideScoreOut] = Field(description="By side index.")
    totals: list[int] = Field(description="The running totals by side after the round.")


class ResultOut(Out):
    """How the game ended."""

    winners: list[int] = Field(description="Side indices; empty when nobody won.")
    reason: EndReason
    loser_seat: int | None = Field(
        default=None, description="Who left or was absent (only with `abandon` and `absence`)."
    )


class ViewOut(Out):
    """What one seat may know of the game (a spectator's: `seat` null, no
    hand): another seat's hand and the deck never appear here."""

    seat: int | None = Field(description="Your engine seat; null for a spectator.")
    rules: RulesOut
    players: int
    phase: Phase = Field(
        description="`playing`; `round_over`: the summary is up, waiting for SIGUIENTE "
        "RONDA; `game_over`."
    )
    round: int = Field(description="The round's number, from 1.")
    dealer: int
    turn: int | None = Field(description="The seat that must act; null between rounds.")
    hand: Cards = Field(description="Your cards, sorted; empty for a spectator.")
    table: Cards = Field(description="The face-up cards on the table, sorted.")
    seats: list[SeatCountsOut]
    side_captured: list[int] = Field(description="Cards taken this round, by side.")
    side_escobas: list[int] = Field(description="Escobas this round, by side.")
    totals: list[int] = Field(description="Points by side after the finished rounds.")
    deck_size: int = Field(description="Cards still to be dealt.")
    deal: int = Field(description="The number of the deal in play in this round, from 1.")
    last_deal: bool = Field(description="ÚLTIMAS: the deal in play is the round's last.")
    claimable: Card | None = Field(
        description="The chance of LLEVAR EL 15: the card the previous player left although "
        "it made 15, while `claim_seat` may still take it (before playing a card); else null."
    )
    claim_seat: int | None = Field(description="The seat that may take `claimable`.")
    table_take: TableTakeOut | None
    history: list[Played] = Field(description="This round's public actions, in order.")
    last_round: LastRoundOut | None
    result: ResultOut | None = Field(description="Null while the game goes on.")
    legal_actions: list[Action] = Field(
        description="Your legal actions, sorted (claims first); empty when it is not your "
        "turn. Each one is a valid `action` of `POST /actions` as it is."
    )


# ---------------------------------------------------------------------------
# What a client gets: the table


class SeatPublic(Out):
    position: int = Field(description="The lobby position, 0-3 (0: the creator).")
    name: str
    robot: str | None = Field(description="The robot's key (as `POST /robots` takes it).")
    game_seat: int | None = Field(description="The engine seat, once the game started.")
    creator: bool
    you: bool


class CanOut(Out):
    """What your seat may do now (all false for a spectator)."""

    join: bool
    start: bool
    manage: bool = Field(description="Add or remove robots, choose the partner (the creator).")
    chat: bool
    leave: bool = Field(description="ABANDONAR.")
    next_round: bool = Field(description="SIGUIENTE RONDA.")
    absence: bool = Field(description="TERMINAR POR AUSENCIA.")
    rematch: bool


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


# ---------------------------------------------------------------------------
# Refusals


@dataclass(frozen=True, slots=True)
class ErrorCode:
    code: str
    status: int
    when: str


#: Every refusal of the API: its code, its HTTP status and when it is made.
#: One mistake, one code; `invalid` and `not_playing` have two statuses
#: (their rows say when).
ERROR_CODES: tuple[ErrorCode, ...] = (
    # the request itself
    ErrorCode("bad_json", 400, "The body is not JSON (or not UTF-8)."),
    ErrorCode("invalid", 400, "The request's `Content-Length` is no number."),
    ErrorCode(
        "invalid",
        422,
        "A body or a parameter is missing, mistyped or out of range (a card not in the "
        "notation included); the message names the first wrong field.",
    ),
    ErrorCode("unsupported_media_type", 415, "The body was not sent as `application/json`."),
    ErrorCode("too_large", 413, "The body is over the size limit; it was not read."),
    ErrorCode("timeout", 408, "The body took too long to arrive."),
    ErrorCode("not_found", 404, "The API has no such path."),
    ErrorCode("method_not_allowed", 405, "The path does not take that method (see `Allow`)."),
    ErrorCode("forbidden_origin", 403, "A browser sent the command from another site."),
    ErrorCode("rate_limited", 429, "Too many commands in a short time (see `Retry-After`)."),
    ErrorCode("busy", 503, "The database was busy or unreachable: nothing changed, try again."),
    # who you are
    ErrorCode("no_table", 404, "No table has that invite."),
    ErrorCode("email_unavailable", 404, "This server sends no e-mail (it has no SMTP settings)."),
    ErrorCode("not_seated", 403, "Your token holds no seat at this table (reads included)."),
    ErrorCode("not_creator", 403, "Only the table's creator may do that."),
    ErrorCode("not_playing", 403, "Your seat plays no part in this game."),
    ErrorCode("spectator", 403, "Only seated players write in the chat."),
    ErrorCode(
        "self_absence", 403, "You are the player on turn: play instead of ending for absence."
    ),
    # the table
    ErrorCode("stale", 409, "The table moved on since the version you named: read it again."),
    ErrorCode("already_started", 409, "The game started: no more seats, robots or partners."),
    ErrorCode("table_full", 409, "No free seat is left."),
    ErrorCode("name_taken", 409, "Someone at the table has that name or one that looks like it."),
    ErrorCode("not_enough", 409, "A game needs 2 to 4 players."),
    ErrorCode("not_started", 409, "The game has not started yet."),
    ErrorCode("not_finished", 409, "The game is not over (a rematch, the record)."),
    ErrorCode("not_playing", 409, "No game is being played (abandon, absence)."),
    ErrorCode("already_accepted", 409, "You already accepted the rematch."),
    ErrorCode("no_rematch", 409, "No rematch after an abandon, an absence or an expiry."),
    ErrorCode("not_absent", 409, "The player on turn still has time to play."),
    # the game's rules
    ErrorCode("game_over", 409, "The game is over."),
    ErrorCode("round_over", 409, "The round is over: SIGUIENTE RONDA first."),
    ErrorCode("round_in_play", 409, "The round is still being played."),
    ErrorCode("no_such_seat", 409, "That seat is not at the table."),
    ErrorCode("not_your_turn", 409, "It is not your turn."),
    ErrorCode("unknown_action", 409, "No such action."),
    ErrorCode("not_in_hand", 409, "That card is not in your hand."),
    ErrorCode("repeated_card", 409, "The same card was named twice."),
    ErrorCode("not_on_table", 409, "Those cards are not on the table."),
    ErrorCode("not_fifteen", 409, "Those cards do not make 15."),
    ErrorCode("must_capture", 409, "These rules make capturing compulsory, and you can capture."),
    ErrorCode("no_fifteen", 409, "There is no 15 to claim."),
    ErrorCode("not_your_fifteen", 409, "Only the next player may claim that 15."),
    ErrorCode("empty_claim", 409, "A claim needs table cards besides the left card."),
    ErrorCode(
        "claim_missing_card", 409, "A claim's `cards` must include the left card (`claimable`)."
    ),
    ErrorCode(
        "claim_includes_card",
        409,
        "The left card named among the others (the pages' form, which names the others "
        "only; never through the API, whose `cards` include it).",
    ),
    # what you wrote
    ErrorCode("empty_name", 422, "A name is needed."),
    ErrorCode("name_too_long", 422, "The name is over the length limit."),
    ErrorCode("bad_name", 422, "The name has characters that are not allowed."),
    ErrorCode("invisible_name", 422, "The name has no letter or digit that shows."),
    ErrorCode("robot_name", 422, "That name is a robot's."),
    ErrorCode("bad_target", 422, "A game is played to 21 or 31 points (15 or 30 as a house rule)."),
    ErrorCode("unknown_robot", 422, "The robots are carmen, tito and luna."),
    ErrorCode("not_a_robot", 422, "There is no robot in that position."),
    ErrorCode("bad_partner", 422, "Choose another player of the table as partner."),
    ErrorCode("choose_pairs", 422, "With four, the creator chooses `keep` or `change`."),
    ErrorCode("empty_chat", 422, "A chat line needs some text."),
    ErrorCode("chat_too_long", 422, "The chat line is over the length limit."),
    ErrorCode("chat_rate", 429, "Too many chat lines in a short time."),
    ErrorCode("unknown_notice", 422, "No such kind of notice (see `NoticesIn`)."),
    ErrorCode("empty_email", 422, "An e-mail address is needed."),
    ErrorCode("email_too_long", 422, "The address is over 254 characters."),
    ErrorCode(
        "bad_email",
        422,
        "No e-mail address: one `@`, a dotted domain (or an internationalised one), no "
        "spaces, control characters, quotes or commas.",
    ),
    ErrorCode(
        "email_rate",
        429,
        "That address got its share of e-mail already (confirmations a day, or all e-mail "
        "an hour): nothing was saved.",
    ),
    ErrorCode(
        "bad_subscription",
        422,
        "Not a Web Push subscription this server takes: an endpoint that is no `https://` "
        "URL (or has credentials or a fragment, or is over 1024 characters), a `p256dh` "
        "that is no P-256 point, an `auth` that is not 16 bytes.",
    ),
    ErrorCode(
        "push_endpoint_refused",
        422,
        "The endpoint's host is, or resolves to, a loopback, private, link-local, multicast "
        "or reserved address (or is not found).",
    ),
)


class ErrorOut(Out):
    """A refusal: it changed nothing."""

    error: str = Field(description="A stable code for programs.")
    message: str = Field(description="What went wrong, in words a player understands.")


def _error_model(status: int) -> type[ErrorOut]:
    rows = [e for e in ERROR_CODES if e.status == status]
    listing = "\n".join(f"- `{e.code}`: {e.when}" for e in rows)
    return create_model(
        f"Error{status}",
        __base__=ErrorOut,
        __doc__=f"A refusal with status {status} ({HTTPStatus(status).phrase}):\n\n{listing}",
        error=(
            str,
            Field(
                description="A stable code for programs.",
                json_schema_extra={"enum": [e.code for e in rows]},
            ),
        ),
    )


ERROR_MODELS: dict[int, type[ErrorOut]] = {
    status: _error_model(status) for status in sorted({e.status for e in ERROR_CODES})
}


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The `responses=` of a route: the refusals it can answer with."""
    return {
        status: {"model": ERROR_MODELS[status], "description": HTTPStatus(status).phrase}
        for status in sorted(statuses)
    }


#: What any request may meet: an unknown table or path, a wrong method, a
#: parameter that is no valid value, a busy database.
ANY = (404, 405, 422, 503)
#: What a command's body may meet, before the command runs.
BODY = (400, 403, 408, 413, 415, 422, 429)
