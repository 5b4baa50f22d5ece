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

#: Format characters that shape visible text, which a chat line keeps: the
#: joiners (ZWNJ in Persian and the Indic scripts, ZWJ in emoji such as 👩‍💻
#: and in conjuncts), the implicit direction marks (LRM, RLM, ALM), the
#: combining grapheme joiner and the Mongolian vowel separator.
_SHAPING: Final = frozenset({0x200C, 0x200D, 0x200E, 0x200F, 0x061C, 0x034F, 0x180E})
#: The direction marks may stand anywhere; the other shaping characters only
#: after something they can shape.
_DIRECTION_MARKS: Final = frozenset({0x200E, 0x200F, 0x061C})
#: Variation selectors (emoji or text presentation, ideographic variants;
#: Mongolian's free variation selectors): each chooses the look of the
#: character before it.
_SELECTORS: Final = frozenset(
    {0x180B, 0x180C, 0x180D, 0x180F, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}
)
#: Tag characters: invisible, except as the letters of a flag's emoji tag
#: sequence (🏴 then tags, ended by CANCEL TAG U+E007F).
_TAGS: Final = frozenset(range(0xE0020, 0xE0080))
_BLACK_FLAG: Final = 0x1F3F4
#: Format characters that show: the prepended concatenation marks (the
#: Arabic number sign and its kin draw a sign over the digits that follow).
_SHOWN_FORMAT: Final = frozenset(
    {*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD}
)
#: Characters that draw a blank though they are symbols: BRAILLE PATTERN BLANK.
_BLANK_SYMBOLS: Final = frozenset({0x2800})

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


def _shows(ch: str) -> bool:
    """A character that draws something of its own: not a space, not an
    invisible character (a format character that shows excepted), not a
    blank symbol, not a mark (which draws on the character before it)."""
    if ord(ch) in _SHOWN_FORMAT:
        return True
    category = unicodedata.category(ch)
    return not (
        category[0] in "ZM" or category == "Cc" or is_invisible(ch) or ord(ch) in _BLANK_SYMBOLS
    )


def shows_something(text: str) -> bool:
    """At least one character that others see: a chat line of spaces,
    invisible letters (U+3164), blank Braille or marks on nothing shows
    nothing."""
    return any(_shows(ch) for ch in text)


def strip_invisible(text: str) -> str:
    """`text` without the characters that draw nothing and shape nothing:
    zero-width spaces, word joiners, a byte-order mark, soft hyphens, the
    Hangul fillers, invisible operators, tags outside a flag, and a joiner
    or variation selector with nothing before it to join or vary (at the
    start, after a space, after another selector). What shapes visible text
    stays: ZWJ in 👩‍💻, ZWNJ in Persian, the direction marks, the selector
    of ❤️, a flag's tags; and so do the format characters that show."""
    if text.isascii():
        return text
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        if not is_invisible(ch) or code in _SHOWN_FORMAT or code in _DIRECTION_MARKS:
            out.append(ch)
            continue
        before = ord(out[-1]) if out else None
        # something to join or vary: a character that shows, or a mark on one
        after_letter = bool(out) and (
            _shows(out[-1])
            or (unicodedata.category(out[-1])[0] == "M" and before not in _IGNORABLE)
        )
        if code in _SELECTORS:
            keep = after_letter
        elif code in _SHAPING:  # a joiner: after a character, or after an emoji's selector
            keep = after_letter or before in _SELECTORS
        elif code in _TAGS:
            keep = before == _BLACK_FLAG or (before in _TAGS and before != 0xE007F)
        else:
            keep = False
        if keep:
            out.append(ch)
    return "".join(out)


#: At most this many non-spacing marks on one letter. Real writing needs up
#: to three: Tibetan stacks (སྒྲོ in the name Dolma), Hebrew with dagesh,
#: shin dot and vowel (שַּׁ); Vietnamese has two (ệ), Devanagari's nukta and
#: anusvara two. A long stack («Zalgo» text) draws over the lines above and
#: below it.
MAX_MARKS_PER_LETTER: Final = 3


def most_marks_on_a_letter(text: str) -> int:
    """The most non-spacing or enclosing marks (Mn, Me) on one letter of
    `text`, counted decomposed (NFD), as they are drawn: «ệ» is e and two
    marks however it was typed, and a precomposed «Ź» hides none of its
    layers. Spacing marks (Mc) take room of their own, so they neither count
    nor end the letter; invisible ones (variation selectors) are no marks."""
    most = run = 0
    for ch in unicodedata.normalize("NFD", text):
        category = unicodedata.category(ch)
        if category in ("Mn", "Me") and not is_invisible(ch):
            run += 1
            most = max(most, run)
        elif category != "Mc":
            run = 0
    return most


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


_BARE_DROPS: Final = frozenset({"Mn", "Me"})


def _bare(key: str) -> str:
    """A compared form without its accents and punctuation: decomposed, with
    no marks drawn on a letter (Mn, Me: accents, rings, tildes; the spacing
    ones, Mc, take room of their own and stay), no punctuation and no
    spaces. «Aná», «Åna» and «Ana.» read as «Ana» at a glance; «Anabel»,
    «Josep» and «Ana 🌙» keep what sets them apart."""
    return "".join(
        ch
        for ch in unicodedata.normalize("NFD", key)
        if unicodedata.category(ch) not in _BARE_DROPS and unicodedata.category(ch)[0] not in "PZ"
    )


def _keys(text: str) -> frozenset[str]:
    """The forms two names are compared in. Skeletons keep case (an «I»
    reads as an «l»), but «ANA» beside «Ana» is the same name too: so the
    skeleton folded, and the skeleton of the folded text; and each of them
    bare, without accents, rings or punctuation («Aná», «Åna», «Ana.»),
    when something is left of it (a name of symbols alone keeps its own)."""
    keys = {_fold(skeleton(text)), skeleton(_fold(text))}
    keys |= {bare for bare in map(_bare, keys) if bare}
    return frozenset(keys)


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
