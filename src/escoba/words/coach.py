"""The words of the coach's advice (escoba.analysis.advice): which play it
would make, and the facts that weighed, as clauses joined in one sentence
(«Yo llevaría el 15 con el 7 de picas: te llevas el 7 de diamantes, que vale
un punto, y la mesa queda en 4, que nadie barre con una carta.»). A clause
(`coach_why_*`) starts in lower case and ends with no stop: it is put after
the colon of a `coach_advice_*` sentence, two of them joined by «y»."""

from __future__ import annotations

from typing import Final

from escoba.words.message import counted, sentence

COACH: Final = {
    # -- The play the coach would make: %(card)s the hand card, %(cards)s the
    # cards taken (with their articles), %(why)s one or two clauses below
    "coach_advice_take": sentence("Yo llevaría el 15 con %(card)s: %(why)s."),
    "coach_advice_take_group": sentence("Yo me llevaría %(cards)s con %(card)s: %(why)s."),
    "coach_advice_claim": sentence("Yo haría LLEVAR EL 15 con %(cards)s: %(why)s."),
    "coach_advice_leave": sentence("Yo dejaría %(card)s en la mesa: %(why)s."),
    # -- Why: what the play takes
    "coach_why_escoba": sentence("te llevas toda la mesa y haces ESCOBA"),
    "coach_why_claim": counted(
        "te llevas %(count)s carta sin gastar ninguna de tu mano",
        "te llevas %(count)s cartas sin gastar ninguna de tu mano",
        by="count",
    ),
    "coach_why_seven_of_diamonds": sentence("te llevas %(card)s, que vale un punto"),
    "coach_why_sevens": counted(
        "te llevas %(count)s siete", "te llevas %(count)s sietes", by="count"
    ),
    "coach_why_diamonds": counted(
        "te llevas %(count)s carta de %(suit)s",
        "te llevas %(count)s cartas de %(suit)s",
        by="count",
    ),
    "coach_why_cards": counted(
        "te llevas %(count)s carta", "te llevas %(count)s cartas", by="count"
    ),
    # -- Why: what the play leaves (%(sum)s the table's sum after it,
    # %(value)s the value of the one card that sweeps it, %(name)s a player)
    "coach_why_no_sweep": sentence("la mesa queda en %(sum)s, que nadie barre con una carta"),
    "coach_why_none_left": sentence(
        "la mesa queda en %(sum)s, que solo barre una carta que vale %(value)s, y ya salieron todas"
    ),
    "coach_why_sweep": sentence(
        "la mesa queda en %(sum)s, que el siguiente barre si tiene una carta que vale %(value)s "
        "(una probabilidad del %(percent)s %%)"
    ),
    "coach_why_partner_sweep": sentence(
        "la mesa queda en %(sum)s, que tu pareja, %(name)s, barre con una carta que vale %(value)s"
    ),
    "coach_why_claim_left": sentence("hace 15 con la mesa, y el siguiente puede LLEVAR EL 15"),
    "coach_why_leftover_mine": sentence("en ÚLTIMAS lo que queda en la mesa es tuyo"),
    "coach_why_leftover_partner": sentence(
        "en ÚLTIMAS lo que queda en la mesa es de tu pareja, %(name)s"
    ),
    "coach_why_leftover_other": sentence("en ÚLTIMAS lo que queda en la mesa es de %(name)s"),
    "coach_why_leftover_nobody": sentence(
        "en ÚLTIMAS lo que queda en la mesa no es de nadie, porque nadie levantó en la ronda"
    ),
}
