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
    "analysis_cost": counted(
        "Costó %(cost)s punto, contando lo que ganaba el otro lado.",
        "Costó %(cost)s puntos, contando lo que ganaba el otro lado.",
        by="cost",
    ),
    "analysis_cost_three": counted(
        "Costó %(cost)s punto, contando la mitad de lo que ganaba cada uno de los otros.",
        "Costó %(cost)s puntos, contando la mitad de lo que ganaba cada uno de los otros.",
        by="cost",
    ),
    "analysis_is_best": sentence("Es la mejor jugada que encontró %(robot)s."),
    "analysis_near_best": sentence(
        "Tan buena como la de %(robot)s: la diferencia no supera la incertidumbre del cálculo."
    ),
    "analysis_forced": sentence("Era la única jugada posible."),
    "analysis_exact": sentence("Ya se podían saber todas las cartas: la cuenta es exacta."),
    # %(side)s: the player who moved, with their partner at four («Ana y Carmen»)
    "analysis_expected": counted(
        "%(side)s podía esperar %(played)s punto en la ronda con esta jugada.",
        "%(side)s podía esperar %(played)s puntos en la ronda con esta jugada.",
        by="played",
    ),
    "analysis_expected_pair": counted(
        "%(side)s podían esperar %(played)s punto en la ronda con esta jugada.",
        "%(side)s podían esperar %(played)s puntos en la ronda con esta jugada.",
        by="played",
    ),
    "analysis_expected_both": counted(
        "%(side)s podía esperar %(played)s punto en la ronda con esta jugada, "
        "y %(best)s con la de %(robot)s.",
        "%(side)s podía esperar %(played)s puntos en la ronda con esta jugada, "
        "y %(best)s con la de %(robot)s.",
        by="played",
    ),
    "analysis_expected_both_pair": counted(
        "%(side)s podían esperar %(played)s punto en la ronda con esta jugada, "
        "y %(best)s con la de %(robot)s.",
        "%(side)s podían esperar %(played)s puntos en la ronda con esta jugada, "
        "y %(best)s con la de %(robot)s.",
        by="played",
    ),
    "analysis_hindsight_made_best": sentence(
        "A posteriori, viendo todas las cartas: la jugada hecha era la mejor."
    ),
    "analysis_hindsight_suggested_best": counted(
        "A posteriori, viendo todas las cartas: la mejor era la de %(robot)s, y la jugada "
        "hecha costó %(cost)s punto.",
        "A posteriori, viendo todas las cartas: la mejor era la de %(robot)s, y la jugada "
        "hecha costó %(cost)s puntos.",
        by="cost",
    ),
    "analysis_hindsight_other_best": counted(
        "A posteriori, viendo todas las cartas: ni la jugada hecha ni la de %(robot)s era la "
        "mejor, y la hecha costó %(cost)s punto.",
        "A posteriori, viendo todas las cartas: ni la jugada hecha ni la de %(robot)s era la "
        "mejor, y la hecha costó %(cost)s puntos.",
        by="cost",
    ),
    "analysis_seat_given_away": counted(
        "%(name)s regaló %(cost)s punto en la ronda.",
        "%(name)s regaló %(cost)s puntos en la ronda.",
        by="cost",
    ),
    "analysis_seat_given_away_unmarked": counted(
        "%(name)s regaló %(cost)s punto en la ronda: %(marked)s en sus jugadas marcadas y "
        "%(rest)s en jugadas de poco costo, sin marca.",
        "%(name)s regaló %(cost)s puntos en la ronda: %(marked)s en sus jugadas marcadas y "
        "%(rest)s en jugadas de poco costo, sin marca.",
        by="cost",
    ),
    "analysis_seat_clean": sentence("%(name)s no regaló puntos en la ronda."),
    # -- Why a play cost (escoba.analysis.reasons): said to the player who
    # made it, when they read it; %(name)s is another player, %(card)s a
    # card with its article
    "analysis_reason_sweep": sentence(
        "Dejaste la mesa en %(sum)s: %(name)s la barría con un %(value)s, y la probabilidad "
        "de que tuviera uno era del %(percent)s %%."
    ),
    "analysis_reason_missed_escoba": sentence("Podías llevarte toda la mesa: ¡ESCOBA!"),
    "analysis_reason_claim_left": sentence(
        "Dejaste %(card)s, que hacía 15 con la mesa: %(name)s podía LLEVAR EL 15."
    ),
    "analysis_reason_cards": counted(
        "Te llevaste %(took)s carta donde podías llevarte %(could)s.",
        "Te llevaste %(took)s cartas donde podías llevarte %(could)s.",
        by="took",
    ),
    "analysis_reason_diamonds": counted(
        "Te llevaste %(took)s carta de %(suit)s donde podías llevarte %(could)s.",
        "Te llevaste %(took)s cartas de %(suit)s donde podías llevarte %(could)s.",
        by="took",
    ),
    "analysis_reason_sevens": counted(
        "Te llevaste %(took)s siete donde podías llevarte %(could)s.",
        "Te llevaste %(took)s sietes donde podías llevarte %(could)s.",
        by="took",
    ),
    "analysis_reason_left_card": sentence("Dejaste %(card)s en la mesa."),
    "analysis_reason_missed_card": sentence("Podías llevarte %(card)s."),
    "analysis_reason_leftover": sentence("En ÚLTIMAS lo que queda es para %(name)s."),
    "analysis_reason_line": counted(
        "Lo que más pesó: %(line)s (%(cost)s punto).",
        "Lo que más pesó: %(line)s (%(cost)s puntos).",
        by="cost",
    ),
    # -- The same reasons said of the player who made the play (%(who)s),
    # to anyone else: another seat, a spectator, the command line
    # (wording.say_reason picks them; the API's codes are the ones above).
    # The leftover's and the line's name nobody as «you»: they have none.
    "analysis_about_sweep": sentence(
        "%(who)s dejó la mesa en %(sum)s: %(name)s la barría con un %(value)s, y la "
        "probabilidad de que tuviera uno era del %(percent)s %%."
    ),
    "analysis_about_missed_escoba": sentence("%(who)s podía llevarse toda la mesa: ¡ESCOBA!"),
    "analysis_about_claim_left": sentence(
        "%(who)s dejó %(card)s, que hacía 15 con la mesa: %(name)s podía LLEVAR EL 15."
    ),
    "analysis_about_cards": counted(
        "%(who)s se llevó %(took)s carta donde podía llevarse %(could)s.",
        "%(who)s se llevó %(took)s cartas donde podía llevarse %(could)s.",
        by="took",
    ),
    "analysis_about_diamonds": counted(
        "%(who)s se llevó %(took)s carta de %(suit)s donde podía llevarse %(could)s.",
        "%(who)s se llevó %(took)s cartas de %(suit)s donde podía llevarse %(could)s.",
        by="took",
    ),
    "analysis_about_sevens": counted(
        "%(who)s se llevó %(took)s siete donde podía llevarse %(could)s.",
        "%(who)s se llevó %(took)s sietes donde podía llevarse %(could)s.",
        by="took",
    ),
    "analysis_about_left_card": sentence("%(who)s dejó %(card)s en la mesa."),
    "analysis_about_missed_card": sentence("%(who)s podía llevarse %(card)s."),
    # the scoring lines, as a sentence names them (%(suit)s «oros»,
    # «diamantes»; the 7 of diamonds is named by its card's words)
    "analysis_line_escobas": sentence("las escobas"),
    "analysis_line_cards": sentence("las cartas"),
    "analysis_line_diamonds": sentence("las cartas de %(suit)s"),
    "analysis_line_sevens": sentence("los sietes"),
    "analysis_line_setenta": sentence("la setenta"),
    "analysis_line_leftover": sentence("lo que queda en la mesa en ÚLTIMAS"),
    "analysis_old": sentence(
        "Esta ronda se analizó antes de que el análisis dijera por qué: sin detalle por línea."
    ),
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
