"""The analyses' queue (`AnalysisQueue`) built alone, without HTTP: the
rows a finished round queues are served in the queue's order (the rounds
someone waits for first, then each table's oldest before any table's
second), each claimed once, and given back by a runner that stops."""

from __future__ import annotations

from escoba.engine import Phase
from escoba.web.table.analyses import AnalysisQueue
from escoba.web.table.lobby import Joined
from escoba.web.table.service import TableService

from ..alone import on_turn, play_once, playing


def _finish_rounds(service: TableService, ana: Joined, beto: Joined, rounds: int) -> None:
    """Play on until `rounds` rounds are finished (SIGUIENTE RONDA between)."""
    while True:
        state = service.reads.game_state(ana.invite)
        assert state is not None
        if len(state.finished_rounds) >= rounds or state.phase is Phase.GAME_OVER:
            return
        if state.phase is Phase.ROUND_OVER:
            service.playing.next_round(ana.invite, ana.token, service.reads.version(ana.invite))
            continue
        play_once(service, on_turn(service, ana, beto))


def test_the_queue_serves_each_tables_oldest_first_and_a_claim_once(
    bare_service: TableService,
) -> None:
    queue = bare_service.analysis_queue
    assert isinstance(queue, AnalysisQueue)
    first = playing(bare_service)
    second = playing(bare_service)
    _finish_rounds(bare_service, *first, rounds=2)
    _finish_rounds(bare_service, *second, rounds=1)
    pending = queue.pending()
    assert len(pending) == 3
    # the first table's first round, the second table's, then the first's second
    first_id = bare_service.reads.table_id(first[0].invite)
    jobs = [queue.claim(row) for row in pending]
    assert all(job is not None for job in jobs)
    assert [job.table_id == first_id for job in jobs if job is not None] == [True, False, True]
    assert [job.summary.number for job in jobs if job is not None] == [1, 1, 2]
    # claimed: nobody takes them again, and the backlog still counts them
    assert queue.pending() == [] and queue.claim(pending[0]) is None
    assert queue.backlog()[0] == 3
    queue.release(pending[0])  # a runner that stops gives its row back
    assert queue.pending() == [pending[0]]
