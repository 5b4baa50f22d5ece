"""Inviting: the invite page a newcomer sees at a lobby with a free seat
(who invites, to what, what happens next, the form to sit down first); the
creator's share button; and someone at a full, started or finished table
told plainly that they are watching."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from escoba.web.base.assets import static_url

from ..helpers import page_table, version_of

HX = {"HX-Request": "true"}


def text_of(markup: str) -> str:
    """What a page reads as, tags dropped."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def add_robot(creator: TestClient, invite: str, robot: str) -> None:
    version = version_of(creator.get(f"/t/{invite}").text)
    creator.post(f"/t/{invite}/robots", data={"version": version, "robot": robot})


def test_a_newcomer_sees_who_invites_to_what_and_what_happens_next(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    add_robot(site, invite, "tito")
    newcomer = TestClient(site.app)
    page = newcomer.get(f"/t/{invite}").text
    text = text_of(page)
    assert "Ana te invita a jugar Escoba del 15" in text
    # the target and the rules, once
    assert "Partida a 21 puntos con las reglas del sitio: gana el primero que llegue." in text
    facts = re.search(r'<ul class="invite-facts">.*?</ul>', page, re.S)
    assert facts is not None and text_of(facts[0]).count("21") == 1
    # the lobby below, under its heading «Mesa a 21 puntos», does not say it again
    assert text.count("21 puntos") == 2 and "Reglas del sitio" not in text
    assert "Ya se sentaron Ana y Tito robot aprende. Quedan 2 lugares libres." in text
    assert "Tito es un robot: juega solo y enseguida." in text
    assert "Qué pasa ahora" in text
    steps = text[text.index("Qué pasa ahora") :]
    assert steps.index("Escribe tu nombre y toca SENTARME.") < steps.index(
        "Ana toca EMPEZAR cuando estén todos."
    )
    assert "Cuando sea tu turno te lo diremos" in steps
    # the form to sit down comes before the facts
    assert page.index('action="/t/' + invite + '/join"') < page.index("invite-facts")
    assert "Estás mirando" not in text
    # in the newcomer's language
    newcomer.cookies.set("lang", "en")
    text = text_of(newcomer.get(f"/t/{invite}").text)
    assert "Ana invites you to play Escoba del 15" in text
    assert "Ana and Tito robot learning are already seated. 2 seats are free." in text
    assert "A game to 21 points under the site's rules: the first to get there wins." in text
    # and sitting down makes a player of them: the invitation is gone
    newcomer.cookies.set("lang", "es")
    joined = newcomer.post(f"/t/{invite}/join", data={"name": "Beto"})
    assert joined.status_code == 200
    assert "invite-page" not in joined.text and "Estás mirando" not in joined.text


def test_the_invitation_says_the_house_rules_with_the_target_in_one_sentence(
    site: TestClient,
) -> None:
    r = site.post(
        "/tables",
        data={"name": "Ana", "target": "15", "setenta": "1", "compulsory_capture": "1"},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    invite = r.headers["location"].rsplit("/", 1)[1]
    newcomer = TestClient(site.app)
    sentences = {
        "es": "Partida a 15 puntos con reglas de la casa (la setenta, captura obligatoria): "
        "gana el primero que llegue.",
        "en": "A game to 15 points under house rules (the setenta, compulsory capture): the "
        "first to get there wins.",
        "pt_BR": "Partida a 15 pontos com regras da casa (a setenta, captura obrigatória): "
        "ganha quem chegar primeiro.",
    }
    for lang, sentence in sentences.items():
        newcomer.cookies.set("lang", lang)
        page = newcomer.get(f"/t/{invite}").text
        assert "invite-page" in page
        facts = re.search(r'<ul class="invite-facts">.*?</ul>', page, re.S)
        assert facts is not None
        text = text_of(facts[0])
        assert sentence in text
        assert text.count("15") == 1  # the target once
    # house rules with nothing but another target
    r = site.post("/tables", data={"name": "Ana", "target": "30"}, follow_redirects=False)
    newcomer.cookies.set("lang", "es")
    text = text_of(newcomer.get(r.headers["location"]).text)
    assert "Partida a 30 puntos con reglas de la casa: gana el primero que llegue." in text


def test_the_invitation_says_each_robot_s_level(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    add_robot(site, invite, "luna")
    add_robot(site, invite, "carmen")
    page = TestClient(site.app).get(f"/t/{invite}").text
    seated = re.search(r"Ya se sentaron.*?</li>", page, re.S)
    assert seated is not None
    for name, word in (("Luna", "fuerte"), ("Carmen", "buena")):
        mark = re.search(
            rf'{name}</bdi> <span class="tag tag-robot">robot</span> '
            r'<span class="tag tag-level" title="([^"]+)">([^<]+)</span>',
            seated[0],
        )
        assert mark is not None and mark[2] == word and len(mark[1]) > 10
    assert seated[0].count("tag-level") == 2  # Ana has none
    assert "Ya se sentaron Ana, Luna robot fuerte y Carmen robot buena." in text_of(page)
    # the line about robots names them plainly
    assert "Luna y Carmen son robots: juegan solos y enseguida." in text_of(page)


def test_one_free_seat_and_no_robot(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    for name in ("Beto", "Carla"):
        TestClient(site.app).post(f"/t/{invite}/join", data={"name": name})
    text = text_of(TestClient(site.app).get(f"/t/{invite}").text)
    assert "Ya se sentaron Ana, Beto y Carla. Queda 1 lugar libre." in text
    assert "robot:" not in text


def test_the_creator_gets_the_share_button_not_the_invitation(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    page = site.get(f"/t/{invite}").text
    assert "invite-page" not in page
    button = re.search(r'<button class="btn share-button"[^>]*>[^<]*</button>', page, re.S)
    assert button, page
    tag = html.unescape(button.group(0))
    assert f'data-share-url="http://testserver/t/{invite}"' in tag
    assert 'data-share-title="Escoba del 15"' in tag
    assert 'data-share-text="Ana te invita a jugar Escoba del 15, a 21 puntos."' in tag
    assert 'data-share-input="#invite-link"' in tag
    assert 'data-share-label="COMPARTIR"' in tag and 'data-copied="¡Copiado!"' in tag
    assert "data-copy-refused=" in tag and 'aria-describedby="share-status"' in tag
    assert tag.endswith(">COPIAR</button>")  # until share.js finds the Web Share API
    assert 'id="share-status" role="status"' in page
    for script in ("share.js", "time.js"):
        assert f'<script src="{static_url(script)}" defer></script>' in page
    site.cookies.set("lang", "en")
    tag = html.unescape(
        re.findall(r'<button class="btn share-button"[^>]*>', site.get(f"/t/{invite}").text)[0]
    )
    assert 'data-share-label="SHARE"' in tag and "Ana invites you to play" in tag
    # a seated guest shares in their own name
    beto = TestClient(site.app)
    beto.post(f"/t/{invite}/join", data={"name": "Beto"})
    assert "Beto te invita a jugar Escoba del 15, a 21 puntos." in html.unescape(
        beto.get(f"/t/{invite}").text
    )
    for script in ("share.js", "time.js"):
        assert site.get(static_url(script)).status_code == 200


def test_a_visitor_who_only_watches_a_lobby_is_told_so_and_may_still_sit(
    site: TestClient,
) -> None:
    invite = page_table(site, "Ana")
    visitor = TestClient(site.app)
    page = visitor.get(f"/t/{invite}?mirar=1").text
    assert "invite-page" not in page
    assert "Estás mirando esta mesa: puedes leer el chat, pero no escribir." in text_of(page)
    assert f'<a href="/t/{invite}">Quiero sentarme</a>' in page
    # the board the live stream brings keeps saying so
    assert f'hx-get="/t/{invite}/board?mirar=1"' in page
    board = visitor.get(f"/t/{invite}/board?mirar=1", headers=HX).text
    assert "Estás mirando esta mesa" in text_of(board)
    # without ?mirar=1 the board leaves that to the invitation above it
    assert "Estás mirando" not in text_of(visitor.get(f"/t/{invite}/board", headers=HX).text)


def test_at_a_full_table_the_visitor_is_watching(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    for robot in ("tito", "carmen", "luna"):
        add_robot(site, invite, robot)
    page = TestClient(site.app).get(f"/t/{invite}").text
    text = text_of(page)
    assert "invite-page" not in page and "SENTARME" not in text
    assert (
        "La mesa está completa, así que estás mirando: puedes leer el chat, pero no escribir. "
        "La partida empieza cuando Ana toque EMPEZAR."
    ) in text
    assert "Quien mira puede leer el chat, pero no escribir." in text


def test_at_a_started_then_finished_table_the_visitor_is_watching(site: TestClient) -> None:
    invite = page_table(site, "Ana")
    add_robot(site, invite, "tito")
    site.post(f"/t/{invite}/start", data={"version": version_of(site.get(f"/t/{invite}").text)})
    visitor = TestClient(site.app)
    page = visitor.get(f"/t/{invite}").text
    text = text_of(page)
    assert "La partida ya empezó, así que estás mirando" in text and "invite-page" not in page
    assert "(no las cartas de nadie)" in text
    visitor.cookies.set("lang", "pt_BR")
    assert "A partida já começou, então você está assistindo" in text_of(
        visitor.get(f"/t/{invite}/board", headers=HX).text
    )
    visitor.cookies.set("lang", "es")
    # the players do not read it
    assert "estás mirando" not in text_of(site.get(f"/t/{invite}").text)
    site.post(f"/t/{invite}/leave", data={"version": version_of(site.get(f"/t/{invite}").text)})
    page = visitor.get(f"/t/{invite}").text
    text = text_of(page)
    assert "Esta partida terminó: estás mirando cómo quedó la mesa, y puedes leer el chat." in text
    assert "La partida ya empezó" not in text
    assert '<a class="btn" href="/">Crear otra mesa</a>' in page


def test_only_the_creator_is_told_to_add_a_robot(site: TestClient) -> None:
    """At a table of one, «suma un robot» is for its creator, who alone can;
    the invitee reads what sitting down does, a watcher what is missing."""
    invite = page_table(site, "Ana")
    robot = "Manda el enlace o suma un robot"
    assert robot in text_of(site.get(f"/t/{invite}").text)
    newcomer = text_of(TestClient(site.app).get(f"/t/{invite}").text)
    assert robot not in newcomer and "suma un robot" not in newcomer
    assert "cuando te sientes, Ana podrá tocar EMPEZAR" in newcomer
    watcher = text_of(TestClient(site.app).get(f"/t/{invite}?mirar=1").text)
    assert "suma un robot" not in watcher and "te sientes" not in watcher
    assert "falta que alguien más se siente" in watcher
