"""What people type for others to read — names and chat lines — and the ways
such text can deceive: a name that shows nothing, a name that passes for a
robot or for someone else at the table, a chat line that turns the rest of
the line around.

Lookalikes are judged by Unicode's confusable *skeletons* (UTS #39, section
4): two strings are confusable when their skeletons are equal. The mapping
comes from Unicode's own `confusables.txt`, as shipped (and kept up to date)
by the `confusable_homoglyphs` package; nothing here lists lookalikes by hand.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, Final

from confusable_homoglyphs.confusables import confusables_data

#: Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt) other
#: than the format characters (category Cf, all treated as invisible here):
#: they draw nothing. Among them the Hangul fillers are *letters* (Lo), so a
#: name made of U+3164 alone would otherwise pass for one with a letter.
_IGNORABLE: Final = frozenset(
    {
        0x034F,  # combining grapheme joiner
        0x115F,  # Hangul choseong filler
        0x1160,  # Hangul jungseong filler
        0x17B4,  # Khmer vowel inherent aq
        0x17B5,  # Khmer vowel inherent aa
        0x180B,  # Mongolian free variation selectors one to three
        0x180C,
        0x180D,
        0x180F,  # Mongolian free variation selector four
        0x3164,  # Hangul filler
        0xFFA0,  # halfwidth Hangul filler
        *range(0xFE00, 0xFE10),  # variation selectors
        *range(0xE0100, 0xE01F0),  # variation selectors supplement
    }
)

#: The explicit directional formatting characters, by their bidi class:
#: embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
#: One of them in a chat line reorders what follows it on screen. The
#: implicit marks (LRM, RLM, ALM) stay: right-to-left writers need them, and
#: they cannot reorder anything outside the line's own isolated element.
_BIDI_EXPLICIT: Final = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})

#: Words that say «robot» in the languages the pages speak: a person's name
#: with one of them would read like the robot mark the pages show.
_ROBOT_WORDS: Final = ("robot", "robots", "robô", "robôs", "bot", "bots")

#: The package writes right-to-left strings between two LEFT-TO-RIGHT MARKs
#: (for display); they are no part of the characters.
_LRM: Final = "\u200e"


def is_invisible(ch: str) -> bool:
    """A character that draws nothing: a format character or another
    default-ignorable code point."""
    return unicodedata.category(ch) == "Cf" or ord(ch) in _IGNORABLE


def has_visible_letter_or_digit(text: str) -> bool:
    """At least one letter or digit that shows on screen (so not a Hangul
    filler): a name must be something other people can read."""
    return any(unicodedata.category(ch)[0] in "LN" and not is_invisible(ch) for ch in text)


def strip_bidi_controls(text: str) -> str:
    """`text` without embeddings, overrides and isolates (U+202A–U+202E,
    U+2066–U+2069): a line may not reverse what follows it."""
    if text.isascii():
        return text
    return "".join(ch for ch in text if unicodedata.bidirectional(ch) not in _BIDI_EXPLICIT)


def _neighbours(ch: str) -> list[str]:
    """The strings `confusables.txt` pairs with `ch`: its prototype when `ch`
    is a source, the sources mapped to it when `ch` is a prototype."""
    found: Any = confusables_data.get(ch) or confusables_data.get(f"{_LRM}{ch}{_LRM}") or ()
    return [str(h["c"]).replace(_LRM, "") for h in found]


@lru_cache(maxsize=8192)
def _prototype(ch: str) -> str:
    """What `ch` stands for in a skeleton. The package keeps the pairs of
    `confusables.txt` in both directions; in that file every source is one
    code point and maps to one prototype, which maps to nothing (a skeleton
    of a skeleton is itself). So a character paired with several is a
    prototype; one paired only with a longer string, or with a prototype of
    several, is that one's source. A pair that only knows each other (one
    source, one prototype, both single characters) cannot be told apart
    from the data, and either of the two is as good a representative as
    long as both map to the same one: the smaller code point."""
    found = _neighbours(ch)
    if len(found) != 1:
        return ch
    other = found[0]
    if len(other) > 1 or len(_neighbours(other)) > 1:
        return other
    return min(ch, other)


@lru_cache(maxsize=4096)
def skeleton(text: str) -> str:
    """The UTS #39 skeleton: decomposed (NFD), invisible characters dropped,
    each character replaced by its prototype, decomposed again. «Аna» with
    a Cyrillic А, «Ａｎａ» in fullwidth letters and «Ana» share one."""
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(_prototype(ch) for ch in decomposed if not is_invisible(ch))
    return unicodedata.normalize("NFD", mapped)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _keys(text: str) -> frozenset[str]:
    """The forms two names are compared in. Skeletons keep case (an «I»
    reads as an «l»), but «ANA» beside «Ana» is the same name too: so the
    skeleton folded, and the skeleton of the folded text."""
    return frozenset({_fold(skeleton(text)), skeleton(_fold(text))})


def look_alike(a: str, b: str) -> bool:
    """Whether two names could be taken one for the other on screen."""
    return not _keys(a).isdisjoint(_keys(b))


def _letters(text: str) -> str:
    """Only the letters, marks and digits: «L u n a!» reads as «Luna»."""
    return "".join(ch for ch in text if unicodedata.category(ch)[0] in "LMN")


def _words(text: str) -> list[str]:
    out: list[str] = []
    word: list[str] = []
    for ch in text:
        if unicodedata.category(ch)[0] in "LMN":
            word.append(ch)
        elif word:
            out.append("".join(word))
            word = []
    if word:
        out.append("".join(word))
    return out


def looks_like_a_robot(name: str, robot_names: Iterable[str]) -> bool:
    """Whether a person's `name` could pass for a robot on screen: a robot's
    name however spelt («Luna», «LUNA», «L u n a», «Ｌuna», «Lunabot»), or a
    name that says «robot» («Luna (robot)», «Ana bot», «Robotina»)."""
    bare = _keys(_letters(name))
    robots = [_keys(_letters(r)) for r in robot_names]
    if any(not bare.isdisjoint(robot) for robot in robots):
        return True
    words = {key for word in _words(name) for key in _keys(word)}
    robot_words = {key for word in _ROBOT_WORDS for key in _keys(word)}
    if not words.isdisjoint(robot_words):
        return True
    robot_key = _fold(skeleton("robot"))
    bot_key = _fold(skeleton("bot"))
    for key in bare:
        if robot_key in key:
            return True
        for trimmed in (key.removesuffix(bot_key), key.removeprefix(bot_key)):
            if trimmed != key and any(trimmed in robot for robot in robots):
                return True
    return False
