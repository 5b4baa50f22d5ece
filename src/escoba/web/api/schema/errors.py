"""Every refusal a client can meet: its code, its HTTP status, what it
means; the error models by status and the `responses` a route declares."""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from pydantic import (
    Field,
    create_model,
)

from escoba.web.api.schema.views import Out


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
    ErrorCode(
        "headers_too_large",
        431,
        "The request's head (its line and headers) is over the size limit (16 KB by "
        "default); the connection is closed.",
    ),
    ErrorCode("not_found", 404, "The API has no such path."),
    ErrorCode("method_not_allowed", 405, "The path does not take that method (see `Allow`)."),
    ErrorCode("forbidden_origin", 403, "A browser sent the command from another site."),
    ErrorCode("rate_limited", 429, "Too many commands in a short time (see `Retry-After`)."),
    ErrorCode("busy", 503, "The database was busy or unreachable: nothing changed, try again."),
    # who you are
    ErrorCode("no_table", 404, "No table has that invite."),
    ErrorCode("no_round", 404, "The game has no finished round of that number."),
    ErrorCode("no_such_game", 404, "The table played no game of that number."),
    ErrorCode("email_unavailable", 404, "This server sends no e-mail (it has no SMTP settings)."),
    ErrorCode(
        "token_retired",
        401,
        "Your token was retired: it travelled in the old `/t/{invite}/continue/{token}` "
        "links (every seat made before they were retired got a new one), or a transfer "
        "code replaced it. Redeem a code of the seat at `POST /api/transfer` for a new one.",
    ),
    ErrorCode("not_seated", 403, "Your token holds no seat at this table (reads included)."),
    ErrorCode("not_creator", 403, "Only the table's creator may do that."),
    ErrorCode("not_playing", 403, "Your seat plays no part in this game."),
    ErrorCode("spectator", 403, "Only seated players write in the chat."),
    ErrorCode(
        "self_absence", 403, "You are the player on turn: play instead of ending for absence."
    ),
    # transfer codes redeemed for a token (`POST /api/transfer`)
    ErrorCode("transfer_malformed", 422, "That is no code: 10 letters and digits."),
    ErrorCode("transfer_unknown", 404, "No code is that one."),
    ErrorCode("transfer_used", 409, "The code was used already: make a new one."),
    ErrorCode("transfer_expired", 409, "The code expired: make a new one."),
    ErrorCode(
        "transfer_list",
        409,
        "The code gives a device's whole list of tables, which opens in a browser only: "
        "make a code of one seat (its table's «Seguir en otro dispositivo»).",
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
    ErrorCode("already_accepted", 409, "You already asked for the rematch (proposed, accepted)."),
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
    ErrorCode(
        "too_many_marks",
        422,
        "A name or a chat line with more than 3 accents or other non-spacing marks on one "
        "letter (counted decomposed, NFD: «ệ» has two).",
    ),
    ErrorCode("bad_target", 422, "A game is played to 21 or 31 points (15 or 30 as a house rule)."),
    ErrorCode("unknown_robot", 422, "The robots are carmen, tito and luna."),
    ErrorCode("not_a_robot", 422, "There is no robot in that position."),
    ErrorCode("bad_partner", 422, "Choose another player of the table as partner."),
    ErrorCode("choose_pairs", 422, "With four, the creator chooses `keep` or `change`."),
    ErrorCode("empty_chat", 422, "A chat line needs some text."),
    ErrorCode(
        "invisible_chat",
        422,
        "The chat line shows nothing: only characters that draw nothing (zero-width "
        "spaces, U+3164, blank Braille, marks on nothing), which are removed from a line.",
    ),
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
    """The `responses=` of a route: the refusals it can answer with. Where a
    token may be refused (403), a retired one is a 401 (`token_retired`)."""
    if 403 in statuses:
        statuses = (*statuses, 401)
    return {
        status: {"model": ERROR_MODELS[status], "description": HTTPStatus(status).phrase}
        for status in sorted(statuses)
    }


#: What any request may meet: an unknown table or path, a wrong method, a
#: parameter that is no valid value, a head too large, a busy database.
ANY = (404, 405, 422, 431, 503)
#: What a command's body may meet, before the command runs.
BODY = (400, 403, 408, 413, 415, 422, 429)
