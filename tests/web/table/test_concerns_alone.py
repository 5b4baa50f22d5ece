"""The table's concerns built alone, without the service that builds them
and without HTTP (issue 36, lila's `Finisher`): the commands on nothing but
a command path, the reads on nothing but the database and the store, and a
concern that builds on another given it by hand."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from escoba import engine as eng
from escoba.web.base.clock import ManualClock
from escoba.web.base.errors import Conflict, Forbidden
from escoba.web.table.command_path import CommandPath
from escoba.web.table.ending import Ending
from escoba.web.table.history import GameHistory
from escoba.web.table.jobs import Jobs
from escoba.web.table.lobby import Joined, Lobby
from escoba.web.table.page_building import PageBuilding
from escoba.web.table.pages import TableStatus
from escoba.web.table.play import Playing
from escoba.web.table.reads import Reads
from escoba.web.table.rematch import Rematches
from escoba.web.table.story import StoryReads

from ..alone import Heard, database_alone
from ..conftest import first_legal


@pytest.fixture
def path(db_url: str, clock: ManualClock) -> Iterator[CommandPath]:
    """A command path of the test's own: its first listener a `Heard`."""
    with database_alone(db_url) as (db, settings):
        yield CommandPath(db, settings, clock, Heard(), brain=first_legal, rng=random.Random(3))


def _heard(path: CommandPath) -> Heard:
    listener = path.after_commit.listeners[0]
    assert isinstance(listener, Heard)
    return listener


def _started(lobby: Lobby, reads: Reads, target: int = 21) -> tuple[Joined, Joined]:
    ana = lobby.create_table("Ana", eng.RuleSet(target=target))
    beto = lobby.join(ana.invite, "Beto")
    lobby.start(ana.invite, ana.token, reads.version(ana.invite))
    return ana, beto


def _to_its_end(playing: Playing, reads: Reads, ana: Joined, beto: Joined) -> eng.Result:
    """The game played on, each seat's first legal play, to its points."""
    seats = {}
    for player in (ana, beto):
        seat = reads.seat_for(player.invite, player.token)
        assert seat is not None and seat.game_seat is not None
        seats[seat.game_seat] = player
    while True:
        state = reads.game_state(ana.invite)
        assert state is not None
        version = reads.version(ana.invite)
        if state.result is not None:
            return state.result
        if state.phase is eng.Phase.ROUND_OVER:
            playing.next_round(ana.invite, ana.token, version)
            continue
        player = seats[state.round.turn]
        playing.act(ana.invite, player.token, version, eng.view(state, state.round.turn).legal[0])


def test_the_lobby_play_and_ending_run_on_a_bare_path(path: CommandPath) -> None:
    lobby, playing, ending = Lobby(path), Playing(path), Ending(path)
    reads = Reads(path.db, path.store)
    ana, beto = _started(lobby, reads)
    state = reads.game_state(ana.invite)
    assert state is not None and state.players == 2
    seat = reads.seat_for(ana.invite, ana.token)
    assert seat is not None
    mover = ana if seat.game_seat == state.round.turn else beto
    version = reads.version(ana.invite)
    action = eng.view(state, state.round.turn).legal[0]
    outcome = playing.act(ana.invite, mover.token, version, action)
    assert outcome.version == version + 1 == reads.version(ana.invite)
    # the same move again, on the version it was made on: stale, nothing written
    with pytest.raises(Conflict):
        playing.act(ana.invite, mover.token, version, action)
    assert reads.version(ana.invite) == version + 1
    ending.abandon(ana.invite, beto.token, reads.version(ana.invite))
    final = reads.game_state(ana.invite)
    assert final is not None and final.result is not None
    kinds = [row.kind for row in reads.log(ana.invite)]
    assert kinds == ["create", "join", "start", "action", "end"]
    # every commit was told to the path's hook, the creation through its door
    heard = _heard(path).changes
    assert [c.version for c in heard] == [1, 2, 3, 4, 5]
    assert heard[0].commit is None and heard[-1].commit is not None


def test_a_rematch_deals_its_game_as_the_lobby_it_is_given(path: CommandPath) -> None:
    lobby = Lobby(path)
    rematches, playing = Rematches(path, lobby), Playing(path)
    reads = Reads(path.db, path.store)
    ana, beto = _started(lobby, reads, target=15)
    _to_its_end(playing, reads, ana, beto)
    with pytest.raises(Forbidden):  # no seat: no rematch
        rematches.accept_rematch(ana.invite, "forged-token", reads.version(ana.invite))
    rematches.accept_rematch(ana.invite, ana.token, reads.version(ana.invite))
    first = reads.game_state(ana.invite)
    assert first is not None and first.result is not None  # one asked: no new game yet
    rematches.accept_rematch(ana.invite, beto.token, reads.version(ana.invite))
    second = reads.game_state(ana.invite)
    assert second is not None and second.result is None and not second.finished_rounds
    assert [r.kind for r in reads.log(ana.invite)][-3:] == ["rematch", "rematch", "start"]
    with pytest.raises(Conflict):  # the new game is being played: no rematch to ask
        rematches.accept_rematch(ana.invite, ana.token, reads.version(ana.invite))


def test_the_robots_jobs_play_as_the_playing_they_are_given(path: CommandPath) -> None:
    lobby, playing = Lobby(path), Playing(path)
    jobs = Jobs(path, playing)
    reads = Reads(path.db, path.store)
    ana = lobby.create_table("Ana", 21)
    lobby.add_robot(ana.invite, ana.token, reads.version(ana.invite), "tito")
    lobby.start(ana.invite, ana.token, reads.version(ana.invite))
    table_id = reads.table_id(ana.invite)
    state = reads.game_state(ana.invite)
    assert state is not None
    if state.round.turn == 0:  # Ana first: she plays, then Tito is on turn
        page = PageBuilding(
            path.db,
            path.store,
            path.clock,
            path.settings,
            StoryReads(path.db, path.store, GameHistory(path.db, path.store)),
        ).page(ana.invite, ana.token, with_chat=False)
        assert page.view is not None
        playing.act(ana.invite, ana.token, page.version, page.view.legal[0])
    assert jobs.robot_tables() == [table_id]
    assert jobs.play_robots(table_id) >= 1
    after = reads.game_state(ana.invite)
    assert after is not None
    assert after.round.turn == 0 or after.phase is not eng.Phase.PLAYING  # Ana's turn again
    assert jobs.robot_tables() == []
    robot_moves = [r for r in reads.log(ana.invite) if r.kind == "action" and r.position == 1]
    assert robot_moves


def test_the_reads_of_a_game_stand_on_the_database_and_the_store(path: CommandPath) -> None:
    """A game before a rematch read by a history, a story and a page built
    alone, as a process that never saw it would."""
    lobby, playing = Lobby(path), Playing(path)
    rematches = Rematches(path, lobby)
    reads = Reads(path.db, path.store)
    ana, beto = _started(lobby, reads, target=15)
    result = _to_its_end(playing, reads, ana, beto)
    for player in (ana, beto):
        rematches.accept_rematch(ana.invite, player.token, reads.version(ana.invite))
    history = GameHistory(path.db, path.store)
    first = history.played_game(ana.invite, 1)
    assert not first.current and first.names == ("Ana", "Beto")
    assert first.state is not None and first.state.result is not None
    story = StoryReads(path.db, path.store, history)
    assert story.record_file(ana.invite, 1)[1] == 1
    page = PageBuilding(path.db, path.store, path.clock, path.settings, story).page(
        ana.invite, ana.token
    )
    assert page.status is TableStatus.PLAYING and page.game_number == 2
    assert page.series is not None and page.series.games == 1
    won = {position for position, wins in page.series.wins if wins}
    assert won == {first.positions[side] for side in result.winners}
