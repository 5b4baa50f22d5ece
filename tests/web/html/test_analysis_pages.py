"""The analysis on the pages (issues 28 and 34): a round's replay shows each
step's verdict (its mark, its cost and why, what Luna would have played,
the hindsight labelled as such), the position before the play with both
plays marked, and, while the server still weighs the round, its
progress, asking again every 2 s until it is done; the end of a game shows
each player's points given away per round and their three costliest plays,
each a link to its step."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from escoba.analysis.model import StepAnalysis
from escoba.analysis.wording import say_mark, say_reason, say_seat
from escoba.engine import Action, View, parse_card
from escoba.web.app import create_app
from escoba.web.base.clock import ManualClock
from escoba.web.base.settings import Settings
from escoba.web.table.analyses import analyse_position

from ..conftest import first_legal
from ..helpers import create, join, move_seat, play_until_over, service_of, text_of
from ..table.test_analyses import WORLDS, against_a_robot, finish_round, strip_lines
from ..table.test_game_history import short_game


@pytest.fixture
def client(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    app = create_app(settings, clock=clock, rng=random.Random(4), brain=first_legal)
    with TestClient(app) as c:
        yield c


def analysis_block(html: str) -> str:
    start = html.index('id="analisis"')
    return html[start : html.index("</section>", start)]


def test_the_replay_says_the_analysis_is_running_then_shows_each_steps_verdict(
    client: TestClient,
) -> None:
    ana = against_a_robot(client)
    finish_round(ana, random.Random(11))
    page = client.get(f"/t/{ana.invite}/ronda/1?paso=1")
    assert page.status_code == 200
    block = analysis_block(page.text)
    assert 'hx-trigger="every 2s"' in block
    assert f'hx-get="/t/{ana.invite}/ronda/1/analisis?paso=1"' in block
    assert "Luna está analizando la ronda: 0 de" in text_of(block)
    service = service_of(client)
    service.analysis_queue.run_all()
    read = service.analyses.round_analysis(ana.invite, 1)
    assert read.analysis is not None
    fragment = client.get(f"/t/{ana.invite}/ronda/1/analisis?paso=1")
    assert fragment.status_code == 200
    assert "hx-trigger" not in fragment.text  # done: the asking stops
    marked = [s for s in read.analysis.steps if s.mark is not None]
    assert marked, "random play gave nothing away"
    for step in marked:
        html = analysis_block(client.get(f"/t/{ana.invite}/ronda/1?paso={step.step}").text)
        assert f'data-mark="{step.mark}"' in html
        assert say_mark(step.mark, "es") in text_of(html)
        assert "Luna habría" in text_of(html)
        assert "Costó" in text_of(html)
        if step.hindsight is not None:
            assert "A posteriori" in text_of(html)
    best = next(s for s in read.analysis.steps if s.is_best and s.method != "forced")
    html = analysis_block(client.get(f"/t/{ana.invite}/ronda/1?paso={best.step}").text)
    assert 'data-mark="none"' in html and "Es la mejor jugada que encontró Luna" in text_of(html)
    # the round's marked plays, each a link to its step
    links = re.findall(rf'href="/t/{ana.invite}/ronda/1\?paso=(\d+)#analisis"', html)
    assert [int(k) for k in links] == [s.step for s in marked]


def test_the_analysis_is_in_every_language(client: TestClient) -> None:
    ana = against_a_robot(client)
    finish_round(ana, random.Random(12))
    service_of(client).analysis_queue.run_all()
    for lang, words in (("en", "analysis"), ("pt_BR", "análise"), ("es", "análisis")):
        client.cookies.set("lang", lang)
        html = client.get(f"/t/{ana.invite}/ronda/1?paso=1", headers={"Accept-Language": lang})
        assert words in text_of(analysis_block(html.text)).lower(), lang


def test_the_end_of_the_game_shows_each_players_costliest_plays(client: TestClient) -> None:
    ana = against_a_robot(client)
    play_until_over([ana], random.Random(13))
    assert ana.token is not None
    move_seat(client, ana.invite, ana.token)
    table = client.get(f"/t/{ana.invite}").text
    assert f'hx-get="/t/{ana.invite}/analisis"' in table
    running = client.get(f"/t/{ana.invite}/analisis").text
    assert 'hx-trigger="every 2s"' in running
    assert "Luna está analizando la partida" in text_of(running)
    service = service_of(client)
    service.analysis_queue.run_all()
    done = client.get(f"/t/{ana.invite}/analisis").text
    assert "hx-trigger" not in done
    reads = service.analyses.game_analyses(ana.invite)
    assert reads and all(r.status == "done" for r in reads)
    for seat, name in enumerate(("Ana", "Tito")):
        block = done[done.index(f'data-seat="{seat}">') + 14 :]
        block = block[: block.index("</div>")]
        assert text_of(block).startswith(f"{name}: regaló")
        costly = sorted(
            (
                (s.given_away, r.round, s.step)
                for r in reads
                for s in (r.analysis.steps if r.analysis else ())
                if s.seat == seat and s.given_away > 0
            ),
            key=lambda t: (-t[0], t[1], t[2]),
        )[:3]
        links = re.findall(rf'href="/t/{ana.invite}/ronda/(\d+)\?paso=(\d+)#analisis"', block)
        assert [(int(r), int(k)) for r, k in links] == [(r, k) for _, r, k in costly]
        if costly:  # what is listed is said to be the costliest, not all that was given away
            assert "Sus jugadas más costosas (las demás, en la repetición" in text_of(block)
        for r in reads:
            assert f"Ronda {r.round}:" in text_of(block)


def test_bad_analysis_urls_get_a_page_never_a_500(client: TestClient) -> None:
    ana = against_a_robot(client)
    for path in ("/ronda/1/analisis", "/ronda/x/analisis", "/ronda/1/analisis?paso=zz"):
        r = client.get(f"/t/{ana.invite}{path}")
        assert r.status_code in (404, 409), (path, r.status_code)
    assert client.get("/t/AAAAAAAAAAAA/analisis").status_code == 404
    assert client.get(f"/t/{ana.invite}/analisis").status_code == 200


# --------------------------------------------------------------------------
# Why, and the position before the play (issue 34), at a few worlds


@pytest.fixture
def quick(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    """The app with a small analysis, whose robots draw their random moves
    from one seeded generator (the app's brain gets a generator seeded by
    the OS): the same games, and the same costly plays, in every run and on
    every database."""
    small = settings.model_copy(update={"analysis_worlds": WORLDS})
    moves = random.Random(2)

    def seeded(robot: str, view: View, rng: random.Random) -> Action:
        return first_legal(robot, view, moves)

    app = create_app(small, clock=clock, rng=random.Random(4), brain=seeded)
    with TestClient(app) as c:
        yield c


def position_html(html: str) -> str:
    start = html.index('id="replay-position"')
    return html[start : html.index("</section>", start)]


def test_a_marked_step_says_why_and_shows_the_position_with_both_plays_marked(
    quick: TestClient,
) -> None:
    ana = against_a_robot(quick)
    finish_round(ana, random.Random(11))
    service = service_of(quick)
    service.analysis_queue.run_all()
    read = service.analyses.round_analysis(ana.invite, 1)
    assert read.analysis is not None
    marked = [s for s in read.analysis.steps if s.mark is not None]
    assert marked
    replay = service.story.round_replay(ana.invite, 1)
    for step in marked:
        page = quick.get(f"/t/{ana.invite}/ronda/1?paso={step.step}").text
        block = analysis_block(page)
        # every marked play has its reasons, in words, after its cost
        assert step.reasons
        said = text_of(block)
        # a spectator reads them of the player, by name
        for reason in step.reasons:
            assert say_reason(reason, read.names, "es", about=step.seat) in said
        first = say_reason(step.reasons[0], read.names, "es", about=step.seat)
        assert said.index("Costó") < said.index(first)
        # the position before the play: the hand, the table, both plays marked
        position = position_html(page)
        story_step = replay.story.steps[step.step]
        hand = re.findall(r'class="position-card[^"]*" data-card="(\w+)"', position)
        assert set(story_step.hand_before) | set(story_step.table_before) == {
            parse_card(c) for c in hand
        }
        played = re.findall(r'class="position-card is-played[^"]*" data-card="(\w+)"', position)
        suggested = re.findall(
            r'class="position-card[^"]*is-suggested" data-card="(\w+)"', position
        )
        if step.played.kind == "play":
            assert str(step.played.card) in played
        if step.best.kind == "play":
            assert str(step.best.card) in suggested
        assert "Lo que veía" in text_of(position) and "Luna" in text_of(position)
    # what each seat gave away agrees with its marked plays (or says what the others gave)
    html = text_of(analysis_block(quick.get(f"/t/{ana.invite}/ronda/1?paso=1").text))
    for seat in read.analysis.seats:
        assert say_seat(seat, read.names, "es", read.analysis.steps) in html


def test_the_block_that_brings_the_analysis_marks_luna_s_play_on_the_position(
    quick: TestClient,
) -> None:
    """The page opened while the analysis ran shows the position with the
    play made; the block that brings the analysis sends it again, out of
    band, with Luna's play marked."""
    ana = against_a_robot(quick)
    finish_round(ana, random.Random(11))
    page = quick.get(f"/t/{ana.invite}/ronda/1?paso=1").text
    before = position_html(page)
    assert "is-played" in before and "is-suggested" not in before
    service = service_of(quick)
    service.analysis_queue.run_all()
    fragment = quick.get(f"/t/{ana.invite}/ronda/1/analisis?paso=1").text
    after = position_html(fragment)
    assert 'hx-swap-oob="true"' in after and "mark-suggested" in after
    # the deal and the end have no position
    assert 'id="replay-position"' not in quick.get(f"/t/{ana.invite}/ronda/1?paso=0").text
    # an analysis stored before the reasons existed still shows, and says so
    strip_lines(quick)
    read = service.analyses.round_analysis(ana.invite, 1)
    assert read.analysis is not None
    step = next(s for s in read.analysis.steps if s.mark is not None)
    for lang, note in (
        ("es", "Esta ronda se analizó antes de que el análisis dijera por qué"),
        ("en", "This round was analysed before the analysis said why"),
    ):
        quick.cookies.set("lang", lang)
        page = quick.get(f"/t/{ana.invite}/ronda/1?paso={step.step}")
        assert page.status_code == 200
        assert note in text_of(analysis_block(page.text))
        fragment = quick.get(f"/t/{ana.invite}/ronda/1/analisis?paso={step.step}")
        assert fragment.status_code == 200 and note in text_of(fragment.text)


#: the reasons that name the player who made the play (the others name
#: nobody as «you»: whose the leftover is, what weighed most)
PERSONAL = (
    "analysis_reason_sweep",
    "analysis_reason_missed_escoba",
    "analysis_reason_claim_left",
    "analysis_reason_cards",
    "analysis_reason_diamonds",
    "analysis_reason_sevens",
    "analysis_reason_left_card",
    "analysis_reason_missed_card",
)


def test_each_reason_speaks_to_the_player_who_made_the_play_and_of_them_to_others(
    quick: TestClient,
) -> None:
    """Tito's costly play, read by Ana and by a spectator: «Tito dejó…»,
    never «Dejaste…»; Ana's own: «Dejaste…» to her, «Ana dejó…» to a
    spectator. In the replay's page and in the block it asks for, in every
    language."""
    ana = against_a_robot(quick)
    finish_round(ana, random.Random(11))
    service = service_of(quick)
    service.analysis_queue.run_all()
    read = service.analyses.round_analysis(ana.invite, 1)
    assert read.analysis is not None and read.names == ("Ana", "Tito")

    def personal(seat: int) -> StepAnalysis:
        assert read.analysis is not None
        return next(
            s
            for s in read.analysis.steps
            if s.seat == seat and any(r.code in PERSONAL for r in s.reasons)
        )

    tito, mine = personal(1), personal(0)

    def said(step: StepAnalysis, lang: str = "es") -> tuple[str, str]:
        quick.cookies.set("lang", lang)
        page = quick.get(f"/t/{ana.invite}/ronda/1?paso={step.step}")
        block = quick.get(f"/t/{ana.invite}/ronda/1/analisis?paso={step.step}")
        assert page.status_code == block.status_code == 200
        return text_of(analysis_block(page.text)), text_of(block.text)

    second_person = re.compile(r"\b(Dejaste|Te llevaste|Podías|You|Você)\b")
    # a spectator: both plays of the player, by name
    for step in (tito, mine):
        for text in said(step):
            for reason in step.reasons:
                assert say_reason(reason, read.names, "es", about=step.seat) in text
            assert not second_person.search(text), text
    # Ana, at her seat: her play to her, Tito's of Tito
    assert ana.token is not None
    move_seat(quick, ana.invite, ana.token)
    for text in said(mine):
        for reason in mine.reasons:
            assert say_reason(reason, read.names, "es") in text
        assert second_person.search(text), text
    for lang in ("es", "pt_BR", "en"):
        for text in said(tito, lang):
            for reason in tito.reasons:
                words = say_reason(reason, read.names, lang, about=1)
                assert words in text, (lang, words)
                assert words != say_reason(reason, read.names, lang) or reason.code not in PERSONAL
            assert not second_person.search(text), (lang, text)
            assert "Tito " in text


def test_another_person_s_play_is_said_of_them_and_their_own_to_them(quick: TestClient) -> None:
    """Two people: Beto's costly play reads «Beto …» on Ana's device and
    «Dejaste… / Te llevaste…» on his own."""
    ana = create(quick, "Ana")
    beto = join(quick, ana.invite, "Beto")
    ana.command("/start")
    by_seat = {ana.game_seat(): ana, beto.game_seat(): beto}
    rng = random.Random(21)
    for _ in range(200):
        view = ana.table()["view"]
        if view["phase"] != "playing":
            break
        actor = by_seat[view["turn"]]
        actor.act(rng.choice(actor.table()["view"]["legal_actions"]))
    service = service_of(quick)
    service.analysis_queue.run_all()
    read = service.analyses.round_analysis(ana.invite, 1)
    assert read.analysis is not None
    seat = beto.game_seat()
    assert read.names[seat] == "Beto"
    step = next(
        s
        for s in read.analysis.steps
        if s.seat == seat and any(r.code in PERSONAL for r in s.reasons)
    )
    # the game in play's replay, and the same round at the game's own address
    urls = [f"/t/{ana.invite}{base}/ronda/1?paso={step.step}" for base in ("", "/partidas/1")]
    assert ana.token is not None and beto.token is not None
    second_person = re.compile(r"\b(Dejaste|Te llevaste|Podías)\b")
    quick.cookies.clear()
    move_seat(quick, ana.invite, ana.token)
    for url in urls:
        text = text_of(analysis_block(quick.get(url).text))
        for reason in step.reasons:
            assert say_reason(reason, read.names, "es", about=seat) in text
        assert not second_person.search(text), text
    quick.cookies.clear()
    move_seat(quick, ana.invite, beto.token)
    for url in urls:
        text = text_of(analysis_block(quick.get(url).text))
        for reason in step.reasons:
            assert say_reason(reason, read.names, "es") in text
        assert second_person.search(text), text


def test_a_game_replaced_by_a_rematch_still_says_each_play_to_its_player(
    quick: TestClient,
) -> None:
    """After JUGAR LA REVANCHA the finished game's replay, at its own
    address, still knows who reads it: Ana's plays to her, Tito's of Tito."""
    ana = short_game(quick, seed=5)
    ana.command("/rematch")
    service = service_of(quick)
    job = next(
        j
        for j in (service.analysis_queue.claim(row) for row in service.analysis_queue.pending())
        if j is not None and j.summary.number == 1
    )
    steps = [analyse_position(s, action, n, WORLDS) for n, s, action in job.positions]
    service.analysis_queue.finish(job, steps)
    read = service.analyses.round_analysis(ana.invite, 1, 1)
    assert read.analysis is not None and read.status == "done"
    assert ana.token is not None
    move_seat(quick, ana.invite, ana.token)
    seat = read.names.index("Ana")
    second_person = re.compile(r"\b(Dejaste|Te llevaste|Podías)\b")
    told: set[bool] = set()
    for step in read.analysis.steps:
        if not any(r.code in PERSONAL for r in step.reasons):
            continue
        url = f"/t/{ana.invite}/partidas/1/ronda/1?paso={step.step}"
        text = text_of(analysis_block(quick.get(url).text))
        about = None if step.seat == seat else step.seat
        for reason in step.reasons:
            assert say_reason(reason, read.names, "es", about=about) in text
        assert bool(second_person.search(text)) == (about is None), text
        told.add(about is None)
    assert told == {True, False}, "both Ana's and Tito's plays gave points away"
