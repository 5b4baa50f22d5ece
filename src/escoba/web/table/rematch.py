"""La revancha: the first person to ask for it proposes it (PROPONER
REVANCHA), the others then accept (ACEPTAR REVANCHA); when every person at
the table has asked, a new game starts there (robots need no asking: a
person alone with robots starts it at once). With four, the creator's
request carries MANTENER or CAMBIAR for the pairs."""

from __future__ import annotations

from escoba.web.base.errors import Invalid
from escoba.web.table.allowed import rematch_refusal
from escoba.web.table.command_path import CommandPath, Outcome
from escoba.web.table.lobby import Lobby
from escoba.web.table.store import (
    MAX_SEATS,
    Credential,
    TableDraft,
    TableTx,
    creators_partner,
)


class Rematches:
    """La revancha, a command of the one path (`path`); its new game is
    dealt as the lobby deals one (`lobby`)."""

    def __init__(self, path: CommandPath, lobby: Lobby) -> None:
        self.path = path
        self.lobby = lobby

    def accept_rematch(
        self, invite: str, token: Credential, version: int, pairs: str | None = None
    ) -> Outcome:
        """Ask for the rematch: propose it, or accept it once proposed (the
        seats that asked say which); `pairs` is MANTENER (`keep`) or CAMBIAR
        (`change`) from the creator of a table of four."""

        def command(tx: TableTx) -> None:
            table = tx.table
            seat = self.path.player(table, token)
            refusal = rematch_refusal(table, seat, self.path.state(tx))
            if refusal is not None:
                raise refusal
            if len(table.seats) == MAX_SEATS and seat.position == 0:
                if pairs not in ("keep", "change"):
                    raise Invalid("choose_pairs")
                if pairs == "change":
                    table.partner_position = next_partner(table)
            seat.rematch = True
            self.path.log_entry(tx, seat.position, "rematch", {"pairs": pairs})
            humans = [s for s in table.seats if s.robot is None]
            if all(s.rematch for s in humans):
                for s in table.seats:
                    s.rematch = False
                self.lobby.begin_game(tx)

        return self.path.run(invite, token, version, command)


def next_partner(table: TableDraft) -> int:
    """CAMBIAR: the creator's next partner, in turn among the other three."""
    others = sorted(s.position for s in table.seats if s.position != 0)
    current = creators_partner(table)
    assert current is not None  # (a rematch's pairs are chosen at four)
    return others[(others.index(current) + 1) % len(others)]
