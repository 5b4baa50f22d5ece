"""The words of a round's points: why each line of the round summary gave
its points to whom («Luna: 22, Ana: 18. 1 punto para Luna.»), under the
line's name, which links to its paragraph of the rules page. `counts` is
each side's count as «Luna: 22» items, joined by «, »;
`who` is a side's name, or the tied sides' names joined by «y»."""

from __future__ import annotations

from typing import Final

from escoba.words.message import counted, sentence

SCORING: Final = {
    # a side with no setenta (a suit missing): «Ana y Tito: coja»
    "score_coja": sentence("coja"),
    # -- Most cards, diamonds, sevens or the highest setenta ----------------
    "why_most": counted(
        "%(counts)s. %(points)s punto para %(who)s, por tener más.",
        "%(counts)s. %(points)s puntos para %(who)s, por tener más.",
        by="points",
    ),
    "why_cards_double": sentence(
        "%(counts)s. 2 puntos para %(who)s, por tener más y los demás menos de 10 cartas."
    ),
    "why_diamonds_all": sentence("%(counts)s. 2 puntos para %(who)s, por tener los 10 del palo."),
    "why_sevens_all": sentence("%(counts)s. 2 puntos para %(who)s, por tener los cuatro sietes."),
    "why_setenta_most": sentence(
        "%(counts)s. 1 punto para %(who)s, por tener la setenta más alta."
    ),
    "why_tie": sentence("%(counts)s. Empate arriba: el punto no es para nadie."),
    "why_tie_each": sentence(
        "%(counts)s. Empate arriba y en esta mesa los empates dan punto a cada uno: "
        "1 punto para %(who)s."
    ),
    "why_none": sentence("%(counts)s. Nadie tiene ninguno: el punto no es para nadie."),
    "why_setenta_all_coja": sentence(
        "%(counts)s. Todos están cojos (les falta algún palo): el punto no es para nadie."
    ),
    "why_setenta_coja": sentence("Sin cartas de algún palo la setenta está coja y no gana."),
    # -- The seven of diamonds and the escobas ------------------------------
    "why_seven_of_diamonds": sentence("Es de %(who)s: 1 punto."),
    "why_seven_of_diamonds_nobody": sentence("No se lo llevó nadie: el punto no es para nadie."),
    "why_escobas": sentence("%(counts)s. Cada escoba es 1 punto para quien la hizo."),
    "why_no_escobas": sentence("Nadie hizo escoba en esta ronda."),
}
