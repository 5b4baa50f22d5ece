"""The words of the analysis of a round and of the coach
(escoba.analysis.wording, escoba.analysis.coach)."""

from __future__ import annotations

from typing import Final

from escoba.words.message import counted, sentence

ANALYSIS: Final = {
    # -- The analysis of a round (escoba.analysis.wording): %(robot)s is the
    # robot whose search weighed the plays («Luna»), %(cost)s a number of
    # points («0,8»), %(card)s and %(cards)s cards named with their articles
    "analysis_played_take": sentence("%(name)s jugó %(card)s y se llevó %(cards)s."),
    "analysis_played_escoba": sentence("%(name)s jugó %(card)s y se llevó %(cards)s: ¡ESCOBA!"),
    "analysis_played_leave": sentence("%(name)s dejó %(card)s en la mesa."),
    "analysis_played_claim": sentence("%(name)s hizo LLEVAR EL 15: %(cards)s."),
    "analysis_played_claim_escoba": sentence("%(name)s hizo LLEVAR EL 15: %(cards)s. ¡ESCOBA!"),
    "analysis_best_take": sentence("%(robot)s habría jugado %(card)s y se llevaba %(cards)s."),
    "analysis_best_escoba": sentence(
        "%(robot)s habría jugado %(card)s y se llevaba %(cards)s: ¡ESCOBA!"
    ),
    "analysis_best_leave": sentence("%(robot)s habría dejado %(card)s en la mesa."),
    "analysis_best_claim": sentence("%(robot)s habría hecho LLEVAR EL 15: %(cards)s."),
    "analysis_best_claim_escoba": sentence(
        "%(robot)s habría hecho LLEVAR EL 15: %(cards)s. ¡ESCOBA!"
    ),
    "analysis_mark_imprecise": sentence("Imprecisa"),
    "analysis_mark_mistake": sentence("Error"),
    "analysis_mark_blunder": sentence("Error grave"),
    "analysis_cost": counted("Costó %(cost)s punto.", "Costó %(cost)s puntos.", by="cost"),
    "analysis_is_best": sentence("Es la mejor jugada que encontró %(robot)s."),
    "analysis_near_best": sentence(
        "Tan buena como la de %(robot)s: la diferencia no supera la incertidumbre del cálculo."
    ),
    "analysis_forced": sentence("Era la única jugada posible."),
    "analysis_exact": sentence("Ya se podían saber todas las cartas: la cuenta es exacta."),
    "analysis_expected": sentence(
        "Puntos esperados en la ronda: %(mine)s para su lado y %(others)s para el otro."
    ),
    "analysis_expected_three": sentence(
        "Puntos esperados en la ronda: %(mine)s para su lado y %(others)s para cada uno de "
        "los otros, de media."
    ),
    "analysis_hindsight_cost": counted(
        "A posteriori, viendo todas las cartas: costó %(cost)s punto.",
        "A posteriori, viendo todas las cartas: costó %(cost)s puntos.",
        by="cost",
    ),
    "analysis_hindsight_best": sentence("A posteriori, viendo todas las cartas: era la mejor."),
    "analysis_seat_given_away": counted(
        "%(name)s regaló %(cost)s punto en la ronda.",
        "%(name)s regaló %(cost)s puntos en la ronda.",
        by="cost",
    ),
    "analysis_seat_clean": sentence("%(name)s no regaló puntos en la ronda."),
    # -- The coach (escoba.analysis.coach): what a play would leave ----------
    "coach_escoba": sentence("Te llevas toda la mesa: ¡ESCOBA!"),
    "coach_table_sum": sentence("La mesa queda en %(sum)s."),
    "coach_sweep": sentence(
        "Con una carta que vale %(value)s, el siguiente barre la mesa: la probabilidad de "
        "que tenga una es del %(percent)s %%."
    ),
    "coach_sweep_none_left": sentence(
        "Solo una carta que vale %(value)s barrería la mesa, y ya salieron todas."
    ),
    "coach_no_sweep": sentence("Ninguna carta sola barre esa mesa."),
    "coach_claim_left": sentence(
        "Dejas %(card)s, que hace 15 con la mesa: el siguiente puede LLEVAR EL 15."
    ),
    "coach_takes_seven_of_diamonds": sentence("Te llevas %(card)s: un punto."),
    "coach_takes_sevens": counted(
        "Te llevas %(count)s siete.", "Te llevas %(count)s sietes.", by="count"
    ),
    "coach_takes_diamonds": counted(
        "Te llevas %(count)s carta de %(suit)s.",
        "Te llevas %(count)s cartas de %(suit)s.",
        by="count",
    ),
    "coach_leaves_seven_of_diamonds": sentence(
        "Dejas %(card)s en la mesa: la probabilidad de que el siguiente pueda llevárselo "
        "es del %(percent)s %%."
    ),
    "coach_leaves_sevens": counted(
        "Queda %(count)s siete en la mesa para el siguiente.",
        "Quedan %(count)s sietes en la mesa para el siguiente.",
        by="count",
    ),
    "coach_leaves_diamonds": counted(
        "Queda %(count)s carta de %(suit)s en la mesa para el siguiente.",
        "Quedan %(count)s cartas de %(suit)s en la mesa para el siguiente.",
        by="count",
    ),
    "coach_leftover_mine": sentence(
        "ÚLTIMAS: si nadie más levanta, lo que quede en la mesa al final es tuyo."
    ),
    "coach_leftover_partner": sentence(
        "ÚLTIMAS: si nadie más levanta, lo que quede en la mesa al final es de tu pareja, %(name)s."
    ),
    "coach_leftover_other": sentence(
        "ÚLTIMAS: si nadie más levanta, lo que quede en la mesa al final es de %(name)s."
    ),
    "coach_leftover_nobody": sentence(
        "ÚLTIMAS: nadie levantó en la ronda, así que si nadie levanta, lo que quede en la "
        "mesa no será de nadie."
    ),
    "coach_leftover_mine_final": sentence("Es la última carta: lo que queda en la mesa es tuyo."),
    "coach_leftover_partner_final": sentence(
        "Es la última carta: lo que queda en la mesa es de tu pareja, %(name)s."
    ),
    "coach_leftover_other_final": sentence(
        "Es la última carta: lo que queda en la mesa es de %(name)s."
    ),
    "coach_leftover_nobody_final": sentence(
        "Es la última carta: nadie levantó en la ronda, así que lo que queda no es de nadie."
    ),
}
