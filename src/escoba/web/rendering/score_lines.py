"""The words of a table that lead to the rules page (`/reglas#…`): why each
line of a round summary gave its points to whom, and the table's rules
sentence with each house rule's name linked to its paragraph.

Why each line of a round summary gave its points to whom, in a sentence
of the catalog (`escoba.words.scoring`), and the paragraph of the rules page
(`/reglas#…`) that explains the line. The sentences read the engine's own
scores (`SideScore`): who got the points is the engine's decision, the words
only say which case of the rule it was (a majority, a tie, the 2 points of
all the cards of a kind, a «coja» setenta)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from babel.numbers import format_decimal
from markupsafe import Markup, escape

from escoba.engine.rules import RuleSet
from escoba.engine.state import SideScore
from escoba.names import AND
from escoba.words import say, say_html

#: Each line of the summary → its paragraph of the rules page.
ANCHORS: Final = {
    "escobas": "escobas",
    "cards": "mas-cartas",
    "diamonds": "oros",
    "sevens": "sietes",
    "setenta": "setenta",
    "seven_of_diamonds": "siete-de-oros",
}


@dataclass(frozen=True, slots=True)
class WhyLine:
    """One line's reason: `line` names it (`ANCHORS`' keys), `anchor` its
    paragraph of /reglas, `text` the sentence (names kept as markup)."""

    line: str
    anchor: str
    text: Markup


def _and(items: Sequence[Markup], lang: str) -> Markup:
    if len(items) <= 1:
        return items[0] if items else Markup("")
    word = AND.get(lang, AND["es"])
    return Markup("{} {} {}").format(Markup(", ").join(items[:-1]), word, items[-1])


def _counts(labels: Sequence[Markup], counts: Sequence[object], lang: str) -> list[Markup]:
    """Each side's count, «Luna: 22» (the same in every language)."""
    return [
        Markup("{}: {}").format(label, count if isinstance(count, Markup) else _number(count, lang))
        for label, count in zip(labels, counts, strict=True)
    ]


def _number(value: object, lang: str) -> str:
    return format_decimal(value, locale=lang) if isinstance(value, int) else str(value)


def _majority(
    line: str,
    labels: Sequence[Markup],
    counts: Sequence[int | None],
    points: Sequence[int],
    lang: str,
) -> Markup:
    """A line won by «the most»: cards, diamonds, sevens or la setenta."""
    shown = [say_html("score_coja", lang) if c is None else c for c in counts]
    listed = _counts(labels, shown, lang)
    winners = [i for i, p in enumerate(points) if p > 0]
    if len(winners) > 1:
        who = _and([labels[i] for i in winners], lang)
        text = say_html("why_tie_each", lang, counts=listed, who=who)
    elif winners:
        top = winners[0]
        who = labels[top]
        if points[top] == 2:
            code = {"cards": "why_cards_double", "diamonds": "why_diamonds_all"}.get(
                line, "why_sevens_all"
            )
            text = say_html(code, lang, counts=listed, who=who)
        elif line == "setenta":
            text = say_html("why_setenta_most", lang, counts=listed, who=who)
        else:
            text = say_html("why_most", lang, counts=listed, who=who, points=points[top])
    elif line == "setenta" and all(c is None for c in counts):
        text = say_html("why_setenta_all_coja", lang, counts=listed)
    elif not any(counts):
        text = say_html("why_none", lang, counts=listed)
    else:
        text = say_html("why_tie", lang, counts=listed)
    coja = [c is None for c in counts]
    if line == "setenta" and any(coja) and not all(coja):
        text = Markup("{} {}").format(text, say_html("why_setenta_coja", lang))
    return text


def why_lines(
    scores: Sequence[SideScore], labels: Sequence[Markup], rules: RuleSet, lang: str = "es"
) -> tuple[WhyLine, ...]:
    """The reasons of a round's points, line by line in the summary's order
    (escobas, cards, diamonds, sevens or la setenta, the 7 of diamonds)."""
    setenta = any(s.setenta_rule for s in scores) or rules.setenta
    out: list[WhyLine] = []

    escobas = [s.escobas for s in scores]
    if any(escobas):
        text = say_html("why_escobas", lang, counts=_counts(labels, escobas, lang))
    else:
        text = say_html("why_no_escobas", lang)
    out.append(WhyLine("escobas", ANCHORS["escobas"], text))

    lines: list[tuple[str, list[int | None], list[int]]] = [
        ("cards", [s.cards for s in scores], [s.points_cards for s in scores]),
        ("diamonds", [s.diamonds for s in scores], [s.points_diamonds for s in scores]),
    ]
    if setenta:
        lines.append(("setenta", [s.setenta for s in scores], [s.points_sevens for s in scores]))
    else:
        lines.append(("sevens", [s.sevens for s in scores], [s.points_sevens for s in scores]))
    for line, counts, points in lines:
        text = _majority(line, labels, counts, points, lang)
        out.append(WhyLine(line, ANCHORS[line], text))

    holders = [labels[i] for i, s in enumerate(scores) if s.seven_of_diamonds]
    if holders:
        text = say_html("why_seven_of_diamonds", lang, who=holders[0])
    else:
        text = say_html("why_seven_of_diamonds_nobody", lang)
    out.append(WhyLine("seven_of_diamonds", ANCHORS["seven_of_diamonds"], text))
    return tuple(out)


#: Each house rule (`RuleSet.variants`) → its paragraph of /reglas.
RULE_ANCHORS: Final = {
    "setenta": "setenta",
    "ties_each": "empates",
    "compulsory_capture": "captura-obligatoria",
    "thirty_single": "treinta",
}


def _link(anchor: str, text: str | Markup) -> Markup:
    href = "/reglas" + (f"#{anchor}" if anchor else "")
    return Markup('<a class="rules-link" href="{}">{}</a>').format(href, text)


def rules_sentence(rules: RuleSet, lang: str = "es") -> Markup:
    """`say_rules`' sentence with its words linked to the rules page: the
    site's rules to the page, each house rule's name to its paragraph (with
    the comma or the full stop after it, so that the sentence reads the same
    without its tags), a target of the house to «Otros puntos para ganar»."""
    if rules.is_site:
        return _link("", say("rules_site", lang, points=rules.target))
    variants = rules.variants()
    if not variants:
        return _link("objetivo", say("rules_house_target", lang, points=rules.target))
    named = [say(f"rule_{v}", lang) for v in variants]
    text = say("rules_house", lang, points=rules.target, rules=named)
    out, pos = Markup(""), text.find(":") + 1
    out += escape(text[:pos])
    for variant, name in zip(variants, named, strict=True):
        start = text.find(name, pos)
        if start < 0:  # a translation that words the list otherwise
            return _link("variantes", text)
        end = start + len(name)
        end += 1 if text[end : end + 1] in (",", ".", ";") else 0
        out += escape(text[pos:start]) + _link(RULE_ANCHORS[variant], text[start:end])
        pos = end
    return out + escape(text[pos:])
