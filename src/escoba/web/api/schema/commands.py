"""What a client sends: the body of every command, strict (an unknown field
is refused), each field checked where it is read."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from escoba.bots import SEATABLE_KEYS
from escoba.engine import RuleSet
from escoba.i18n import ALL_LANGUAGES
from escoba.web.api.schema.cards import CardIn, CardsIn
from escoba.web.base.errors import Invalid


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
    # no length of its own: a line over the settings' limit, however long
    # (the body's limit aside), is refused in words (`chat_too_long`)
    text: str = Field(
        description="The line; one over the server's `chat_max_length` is refused: chat_too_long."
    )


class TransferIn(StrictIn):
    code: str = Field(
        max_length=64,
        description="A «Seguir en otro dispositivo» code of one seat, as shown "
        "(`XXXXX-XXXXX`; any case, with or without its dash).",
    )


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
    lang: Literal["es", "pt_BR", "en", "es_AR"] | None = Field(
        default=None,
        description="The e-mails' language; by default the request's Accept-Language, else es.",
    )


#: The languages a seat's notices may be written in.
Lang = Annotated[
    str,
    AfterValidator(lambda lang: _one_of(lang, ALL_LANGUAGES)),
    WithJsonSchema({"type": "string", "enum": list(ALL_LANGUAGES)}),
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
