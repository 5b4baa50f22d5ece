"""The words of the game's rules: the engine's refusals of a move, the moves
that cannot be read, a table's rules and the round's leftover check."""

from __future__ import annotations

from typing import Final

from escoba.words.message import counted, sentence

RULES: Final = {
    # -- The rules (escoba.engine: IllegalAction) --------------------------
    "game_over": sentence("La partida ya terminó."),
    "round_in_play": sentence("La ronda todavía se está jugando."),
    "round_over": sentence("La ronda terminó: falta tocar SIGUIENTE RONDA."),
    "no_such_seat": sentence("Ese asiento no está en la mesa."),
    "not_your_turn": sentence("No es tu turno."),
    "unknown_action": sentence("Esa jugada no existe."),
    "repeated_card": sentence("Elegiste la misma carta dos veces."),
    "not_on_table": counted(
        "Esa carta no está en la mesa: %(cards)s.",
        "Esas cartas no están en la mesa: %(cards)s.",
        by="cards",
    ),
    "not_in_hand": sentence("La carta %(card)s no está en tu mano."),
    "not_fifteen": sentence("Esas cartas suman %(sum)s, no 15."),
    "must_capture": sentence("En esta mesa levantar es obligatorio: puedes llevarte un 15."),
    "no_fifteen": sentence("No hay un 15 para llevar."),
    "not_your_fifteen": sentence("Solo el jugador siguiente puede llevar ese 15."),
    "empty_claim": sentence("Elige las cartas de la mesa que suman 15."),
    "claim_includes_card": sentence("La carta %(card)s ya va en el 15: elige las otras."),
    # the API's claim names every card it takes, the left one first
    "claim_missing_card": sentence(
        "LLEVAR EL 15 se lleva la carta que quedó en la mesa: incluye %(card)s en las cartas."
    ),
    # -- Moves that cannot be read (escoba.engine: InputError) -------------
    "not_a_card": sentence("«%(text)s» no es una carta (se escribe valor y palo: 7D, 10S)."),
    "action_not_object": sentence("La jugada debe ser un objeto JSON."),
    "action_without_card": sentence("Falta la carta que juegas."),
    "capture_not_a_list": sentence('Las cartas que llevas deben ser una lista como ["8D", "4S"].'),
    "claim_without_group": sentence(
        'Para LLEVAR EL 15 indica las cartas de la mesa: ["4S", "6C"].'
    ),
    "unknown_action_type": sentence("Tipo de jugada desconocido: usa «play» o «claim»."),
    # -- A table's rules (say_rules) and the round's leftover check ---------
    "rules_site": sentence("Reglas del sitio, a %(points)s puntos."),
    "rules_house": sentence("Reglas de la casa, a %(points)s puntos: %(rules)s."),
    "rules_house_target": sentence("Reglas de la casa: a %(points)s puntos."),
    "rule_setenta": sentence("la setenta"),
    "rule_ties_each": sentence("empates: punto para cada uno"),
    "rule_compulsory_capture": sentence("captura obligatoria"),
    "rule_thirty_single": sentence("30 en la mesa cuenta una escoba"),
    # the cards left at a round's end sum 10 plus a multiple of 15 (RULES.md,
    # «A round» 7): the check as numbers («25 = 10 + 15»), and what it is
    "leftover_check": sentence(
        "Cuenta de los restos: suman %(check)s "
        "(lo que queda siempre suma 10 más un múltiplo de 15)."
    ),
}
