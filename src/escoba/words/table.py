"""The words of a table: its forms and the service's refusals, a seat's
devices, time on the table, inviting and the robots, how a game ended."""

from __future__ import annotations

from typing import Final

from escoba.words.message import DAYS, HOURS, counted, sentence

TABLE: Final = {
    # -- The forms of the table page ---------------------------------------
    "pick_card": sentence("Primero toca una carta de tu mano."),
    "pick_capture": sentence("Toca las cartas de la mesa que quieres llevarte."),
    "pick_claim": sentence("Toca las cartas de la mesa que van con la carta que quedó."),
    # -- The table service's refusals ---------------------------------------
    "stale": sentence("La mesa cambió desde que la viste: mira cómo quedó y vuelve a jugar."),
    "busy": sentence("La mesa está ocupada: prueba otra vez."),
    "no_table": sentence("Esa mesa no existe."),
    "bad_target": sentence(
        "La partida se juega a 21 o a 31 puntos (a 15 o a 30 con las reglas de la casa)."
    ),
    "two_targets": sentence(
        "Se indicaron dos metas distintas, %(points)s y %(named)s puntos: indica una sola."
    ),
    "already_started": sentence("La partida ya empezó: puedes mirarla."),
    "lobby_closed": sentence("La partida ya empezó."),
    "table_full": sentence("La mesa está completa: puedes mirar la partida."),
    "no_free_seat": sentence("No quedan lugares libres."),
    "name_taken": sentence(
        "Ya hay alguien en la mesa con ese nombre o uno que se le parece: elige otro."
    ),
    "unknown_robot": sentence("Los robots de la mesa son: %(robots)s."),
    "not_a_robot": sentence("Ahí no hay un robot."),
    "bad_partner": sentence("Elige a otro jugador de la mesa como pareja."),
    "not_enough": sentence("Hacen falta de 2 a 4 jugadores para empezar."),
    "not_creator": sentence("Solo quien creó la mesa puede hacer eso."),
    "not_seated": sentence("No estás sentado en esta mesa."),
    "not_started": sentence("La partida todavía no empezó."),
    "not_playing": sentence("No juegas en esta partida."),
    "no_game": sentence("No hay una partida en juego."),
    "not_absent": counted(
        "Todavía no: el jugador de turno tiene %(hours)s hora para jugar.",
        "Todavía no: el jugador de turno tiene %(hours)s horas para jugar.",
        by="hours",
        settings=HOURS,
    ),
    "self_absence": sentence("Eres tú quien tiene el turno: juega una carta."),
    "not_finished": sentence("La partida todavía no terminó."),
    "record_not_ready": sentence("El registro se descarga cuando la partida termina."),
    "game_story_not_ready": sentence("La partida entera se puede leer cuando termina."),
    # the replay of a round (escoba.web.html.story_routes)
    "no_round_title": sentence("No hay repetición"),
    "no_round": sentence(
        "Solo se pueden repetir las rondas terminadas de una partida, "
        "y esa no lo es. Vuelve a la mesa: el resumen de cada ronda lleva a su repetición."
    ),
    "no_step": sentence("Esa jugada no está en la repetición de la ronda."),
    # a table's games by number (escoba.web.table.history)
    "no_such_game_title": sentence("No hay tal partida"),
    "no_such_game": sentence(
        "Esta mesa no jugó una partida con ese número. La lista de sus partidas lleva a cada una."
    ),
    "no_rematch": sentence(
        "No hay revancha después de un abandono, una ausencia o una mesa vencida."
    ),
    "already_accepted": sentence("Ya pediste la revancha."),
    "choose_pairs": sentence("Elige MANTENER o CAMBIAR las parejas."),
    "empty_name": sentence("Escribe tu nombre."),
    "name_too_long": counted(
        "El nombre es muy largo (máximo %(limit)s letra).",
        "El nombre es muy largo (máximo %(limit)s letras).",
        by="limit",
        settings={"limit": "name_max_length"},
    ),
    "bad_name": sentence("El nombre tiene caracteres no válidos."),
    "invisible_name": sentence("El nombre necesita al menos una letra o un número que se vea."),
    "robot_name": sentence("Ese nombre es de robot: elige otro."),
    "too_many_marks": sentence(
        "Hay demasiados acentos o signos sobre una misma letra: %(limit)s como mucho."
    ),
    "empty_chat": sentence("Escribe algo antes de enviar."),
    "invisible_chat": sentence(
        "El mensaje no tiene nada que se vea: escribe al menos una letra, un número o un signo."
    ),
    "chat_too_long": counted(
        "El mensaje es muy largo (máximo %(limit)s letra).",
        "El mensaje es muy largo (máximo %(limit)s letras).",
        by="limit",
        settings={"limit": "chat_max_length"},
    ),
    "spectator": sentence("Solo quienes están sentados pueden escribir."),
    "unknown_notice": sentence("No hay avisos de la clase «%(text)s»."),
    "chat_rate": sentence("Vas muy rápido: espera unos segundos."),
    "old_seat_link": sentence(
        "Ese enlace ya no sirve: los enlaces que abrían un lugar para siempre se retiraron. "
        "Para pasar tu lugar a este dispositivo, toca «Seguir en otro dispositivo» en el "
        "que lo tiene (en la mesa, o en Mis mesas) y escribe aquí el código que te muestra."
    ),
    # -- «Seguir en otro dispositivo», a seat's devices ----------------------
    "transfer_malformed": sentence(
        "Ese código no es válido: tiene 10 letras y números, como K7P2M-X9QRT."
    ),
    "transfer_unknown": sentence("Ese código no existe: revisa que esté bien escrito."),
    "transfer_used": sentence("Ese código ya se usó: pide uno nuevo en el otro dispositivo."),
    "transfer_expired": sentence("Ese código venció: pide uno nuevo en el otro dispositivo."),
    "transfer_list": sentence(
        "Ese código pasa todas las mesas de un dispositivo y solo se abre en un navegador: "
        "para un token, pide el código de una sola mesa (en la mesa, «Seguir en otro "
        "dispositivo»)."
    ),
    "token_retired": sentence(
        "Ese token ya no abre el lugar: viajó en uno de los enlaces retirados o un código lo "
        "reemplazó. Para tener uno nuevo, toca «Seguir en otro dispositivo» en el navegador "
        "que tiene el lugar y canjea el código en POST /api/transfer."
    ),
    "nothing_to_transfer": sentence("Este dispositivo no tiene mesas para pasar."),
    "no_such_device": sentence("Ese dispositivo ya no tiene este lugar."),
    # -- Time on the table (web/rendering/times.py): %(left)s is «dentro de 8 h»,
    # %(since)s «hace 5 h», %(moment)s a date and time -----------------------
    "turn_of_since": sentence("Turno de %(name)s · %(since)s"),
    "absence_countdown": sentence("TERMINAR POR AUSENCIA disponible %(left)s"),
    "absence_warning": sentence(
        "Juega antes de %(moment)s (%(left)s): después podrán TERMINAR POR AUSENCIA."
    ),
    "absence_warning_urgent": sentence(
        "¡Queda poco! Si no juegas antes de %(moment)s (%(left)s), podrán TERMINAR POR "
        "AUSENCIA y tu lado perderá la partida."
    ),
    "absence_due_self": sentence(
        "Ya pueden TERMINAR POR AUSENCIA: si juegas ahora, la partida sigue."
    ),
    "expiry_warning": sentence("Si nadie juega, la mesa vence %(left)s"),
    "expiry_due": counted(
        "Pasó %(days)s día sin jugadas: la mesa vence en cualquier momento.",
        "Pasaron %(days)s días sin jugadas: la mesa vence en cualquier momento.",
        by="days",
        settings=DAYS,
    ),
    # -- Inviting: the invite page, the share button, who is watching ---------
    "invite_title": sentence("%(name)s te invita a jugar Escoba del 15"),
    # the target and the rules in one sentence (say_rules(…, "invite_rules"))
    "invite_rules_site": sentence(
        "Partida a %(points)s puntos con las reglas del sitio: gana el primero que llegue."
    ),
    "invite_rules_house": sentence(
        "Partida a %(points)s puntos con reglas de la casa (%(rules)s): gana el primero que llegue."
    ),
    "invite_rules_house_target": sentence(
        "Partida a %(points)s puntos con reglas de la casa: gana el primero que llegue."
    ),
    "invite_seated": counted(
        "Ya se sentó %(names)s.",
        "Ya se sentaron %(names)s.",
        by="people",
    ),
    "invite_free": counted(
        "Queda %(free)s lugar libre.",
        "Quedan %(free)s lugares libres.",
        by="free",
    ),
    "invite_robots": counted(
        "%(robots)s es un robot: juega solo y enseguida.",
        "%(robots)s son robots: juegan solos y enseguida.",
        by="count",
    ),
    # how well each robot plays (escoba.bots.RobotInfo.level): a word beside its
    # name («Tito · aprende») and a short description
    "robot_level_learning": sentence("aprende"),
    "robot_level_good": sentence("buena"),
    "robot_level_strong": sentence("fuerte"),
    "robot_about_learning": sentence("Aprende a jugar: a veces no ve un 15, o no elige el mejor."),
    "robot_about_good": sentence("Juega bien: mira qué le deja en la mesa al siguiente."),
    "robot_about_strong": sentence("Juega fuerte: lleva la cuenta de las cartas que faltan salir."),
    "invite_next": sentence("Qué pasa ahora"),
    "invite_step_join": sentence("Escribe tu nombre y toca SENTARME."),
    "invite_step_start": sentence("%(name)s toca EMPEZAR cuando estén todos."),
    "invite_step_turn": sentence(
        "Cuando sea tu turno te lo diremos: la página lo muestra, y si activas «Avisos» "
        "en este dispositivo también te llega un aviso."
    ),
    "share_text": sentence("%(name)s te invita a jugar Escoba del 15, a %(points)s puntos."),
    "copy_refused": sentence(
        "El navegador no dejó copiar: el enlace quedó seleccionado, cópialo a mano."
    ),
    "watching_lobby": sentence("Estás mirando esta mesa: puedes leer el chat, pero no escribir."),
    "watching_full": sentence(
        "La mesa está completa, así que estás mirando: puedes leer el chat, pero no escribir. "
        "La partida empieza cuando %(name)s toque EMPEZAR."
    ),
    "watching_game": sentence(
        "La partida ya empezó, así que estás mirando: ves la mesa y las jugadas (no las "
        "cartas de nadie) y puedes leer el chat, pero no escribir."
    ),
    "watching_over": sentence(
        "Esta partida terminó: estás mirando cómo quedó la mesa, y puedes leer el chat."
    ),
    # -- How a game ended (say_result) --------------------------------------
    "result_won": counted(
        "¡%(winners)s gana la partida!", "¡%(winners)s ganan la partida!", by="people"
    ),
    "result_abandoned": sentence("%(loser)s abandonó la partida."),
    "result_absent": counted(
        "%(loser)s no jugó en más de %(hours)s hora.",
        "%(loser)s no jugó en más de %(hours)s horas.",
        by="hours",
        settings=HOURS,
    ),
    "result_winners": counted("%(winners)s gana.", "%(winners)s ganan.", by="people"),
    "result_shared": sentence("%(winners)s comparten la victoria."),
    "result_expired": counted(
        "La mesa venció tras %(days)s día sin jugadas: sin ganador.",
        "La mesa venció tras %(days)s días sin jugadas: sin ganador.",
        by="days",
        settings=DAYS,
    ),
    "result_no_winner": sentence("La partida terminó sin ganador."),
}
