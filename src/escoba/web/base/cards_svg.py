"""The 40 cards and the card back as SVG, in each deck design.

A card's drawing is drawn once, in a sprite of its design (`sprite`: one
`<symbol>` a card, served as a content-named static file, web/base/assets.py, kept
by the browser a year); a page holds for each card a small inline `<svg>`
that names it, in the viewer's language, for screen readers, and shows its
drawing with `<use href="<sprite>#c7D">` (`card_svg`): a board weighs a
few hundred bytes a card instead of two kilobytes. The corner rank and pip
are big on purpose: a card is about 60 px wide on a phone. The French design
keeps its four classic pips, and so does the Brazilian one, the French faces
swapped (J = 8, Q = 9: its own sprite, drawn with the letters its names
give, `names.rank_label`); the Spanish suits are simple vector shapes drawn
here (a gold coin, a cup, a sword, a club). Face cards carry a round mark
with their capture value (8, 9, 10), as on the site, so a J is read as the
8 or the 9 at a glance whatever the design. The back stays a drawing of its
own (`card_back_svg`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from markupsafe import Markup

from escoba.engine.cards import NOTATION
from escoba.names import Design, card_name, is_face, rank_label

WIDTH: Final = 60
HEIGHT: Final = 90
_FONT: Final = "system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif"

# Shapes in a unit box centred on (0, 0), spanning about [-1, 1].
_DIAMOND: Final = '<path d="M0,-1L0.72,0L0,1L-0.72,0Z" fill="{c}"/>'
_HEART: Final = (
    '<path d="M0,0.95C-0.35,0.62-1,0.2-1,-0.34C-1,-0.82-0.42,-1.02 0,-0.56'
    'C0.42,-1.02 1,-0.82 1,-0.34C1,0.2 0.35,0.62 0,0.95Z" fill="{c}"/>'
)
_SPADE: Final = (
    '<path d="M0,-1C0.32,-0.6 1,-0.22 1,0.24C1,0.66 0.5,0.82 0.12,0.5L0.3,1H-0.3'
    'L-0.12,0.5C-0.5,0.82-1,0.66-1,0.24C-1,-0.22-0.32,-0.6 0,-1Z" fill="{c}"/>'
)
_CLUB: Final = (
    '<g fill="{c}"><circle cx="0" cy="-0.5" r="0.42"/><circle cx="-0.5" cy="0.14" r="0.42"/>'
    '<circle cx="0.5" cy="0.14" r="0.42"/><path d="M-0.12,0L0.12,0L0.3,1H-0.3Z"/></g>'
)
# Spanish suits: their own colours, drawn as simple original shapes.
_ORO: Final = (
    '<g><circle r="0.96" fill="#f2b705" stroke="#8a5a00" stroke-width="0.12"/>'
    '<circle r="0.6" fill="none" stroke="#8a5a00" stroke-width="0.1"/>'
    '<circle r="0.2" fill="#8a5a00"/></g>'
)
_COPA: Final = (
    '<g><path d="M-0.78,-0.92H0.78C0.78,-0.22 0.42,0.12 0.13,0.18V0.55L0.5,0.74V0.96H-0.5'
    'V0.74L-0.13,0.55V0.18C-0.42,0.12-0.78,-0.22-0.78,-0.92Z" fill="#c62828" '
    'stroke="#7f1212" stroke-width="0.08"/>'
    '<path d="M-0.78,-0.92H0.78V-0.72H-0.78Z" fill="#f2b705"/></g>'
)
_ESPADA: Final = (
    '<g><path d="M0,-1L0.3,-0.66V0.36H-0.3V-0.66Z" fill="#cfd8dc" '
    'stroke="#1f4e9c" stroke-width="0.1"/>'
    '<path d="M0,-0.7V0.3" stroke="#1f4e9c" stroke-width="0.08"/>'
    '<path d="M-0.72,0.34H0.72V0.56H-0.72Z" fill="#1f4e9c"/>'
    '<path d="M-0.15,0.56H0.15V0.84H-0.15Z" fill="#1f4e9c"/>'
    '<circle cx="0" cy="0.88" r="0.17" fill="#1f4e9c"/></g>'
)
_BASTO: Final = (
    '<g><path d="M-0.26,1L-0.5,-0.5C-0.56,-1.04 0.56,-1.04 0.5,-0.5L0.26,1Z" '
    'fill="#8d5a2b" stroke="#4e2e10" stroke-width="0.1"/>'
    '<path d="M0.4,-0.16L0.78,-0.4L0.42,0.06Z" fill="#2e7d32"/>'
    '<path d="M-0.36,0.3L-0.74,0.1L-0.34,0.52Z" fill="#2e7d32"/>'
    '<circle cx="0" cy="-0.55" r="0.13" fill="#4e2e10"/>'
    '<circle cx="0.05" cy="0.2" r="0.1" fill="#4e2e10"/></g>'
)

_FRENCH_SUITS: Final = (
    (_DIAMOND.format(c="#c62828"), "#c62828"),
    (_HEART.format(c="#c62828"), "#c62828"),
    (_SPADE.format(c="#1a1a1a"), "#1a1a1a"),
    (_CLUB.format(c="#1a1a1a"), "#1a1a1a"),
)
#: Per design, per suit index (D H S C): the shape and the ink of its rank.
_SUITS: Final[dict[Design, tuple[tuple[str, str], ...]]] = {
    Design.FRENCH: _FRENCH_SUITS,
    Design.BRAZILIAN: _FRENCH_SUITS,
    Design.SPANISH: (
        (_ORO, "#8a5a00"),
        (_COPA, "#b71c1c"),
        (_ESPADA, "#1f4e9c"),
        (_BASTO, "#2e6b2f"),
    ),
}

# Pip layouts for 1..7 in the centre area, as fractions of its box.
_LAYOUTS: Final[dict[int, tuple[tuple[float, float], ...]]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.12), (0.5, 0.88)),
    3: ((0.5, 0.12), (0.5, 0.5), (0.5, 0.88)),
    4: ((0.18, 0.12), (0.82, 0.12), (0.18, 0.88), (0.82, 0.88)),
    5: ((0.18, 0.12), (0.82, 0.12), (0.5, 0.5), (0.18, 0.88), (0.82, 0.88)),
    6: ((0.18, 0.12), (0.82, 0.12), (0.18, 0.5), (0.82, 0.5), (0.18, 0.88), (0.82, 0.88)),
    7: (
        (0.18, 0.12),
        (0.82, 0.12),
        (0.5, 0.31),
        (0.18, 0.5),
        (0.82, 0.5),
        (0.18, 0.88),
        (0.82, 0.88),
    ),
}
# The centre area: right of the corner column, inside the border.
_AREA_X: Final = 22.0
_AREA_W: Final = 32.0
_AREA_Y: Final = 14.0
_AREA_H: Final = 62.0


def _place(shape: str, x: float, y: float, size: float) -> str:
    return f'<g transform="translate({x:g} {y:g}) scale({size:g})">{shape}</g>'


_WORTH: Final = {"es": "vale", "pt_BR": "vale", "en": "worth"}
_BACK: Final = {
    "es": "carta boca abajo",
    "pt_BR": "carta virada para baixo",
    "en": "face-down card",
}


def _title(card: int, design: Design, lang: str) -> str:
    name = card_name(card, design, lang)
    if is_face(card):
        return f"{name} ({_WORTH.get(lang, 'vale')} {card // 4 + 1})"
    return name


def _face_panel(shape: str, ink: str, rank: str) -> str:
    """Q/J/K, J/Q/K, sota/caballo/rey: a framed panel with the big rank and pip."""
    return (
        f'<rect x="20" y="8" width="36" height="74" rx="3" fill="{ink}" fill-opacity="0.08" '
        f'stroke="{ink}" stroke-width="1.2"/>'
        f'<text x="38" y="44" text-anchor="middle" font-family="Georgia,serif" '
        f'font-weight="700" font-size="26" fill="{ink}" fill-opacity="0.85">{escape(rank)}</text>'
        + _place(shape, 38, 62, 9)
    )


def _value_mark(value: int, ink: str) -> str:
    """The round mark with a face card's capture value (8, 9 or 10)."""
    return (
        f'<circle cx="10" cy="50" r="8" fill="{ink}"/>'
        f'<text x="10" y="54.2" text-anchor="middle" font-family="{_FONT}" font-weight="700" '
        f'font-size="{11 if value == 10 else 12}" fill="#fff">{value}</text>'
    )


def card_drawing(card: int, design: Design) -> str:
    """What the card `card` (0..39, value-major) shows, in a 60×90 box: the
    body of its symbol in the sprite."""
    value = card // 4 + 1
    shape, ink = _SUITS[design][card % 4]
    rank = rank_label(card, design)
    parts = [
        f'<rect x="0.75" y="0.75" width="{WIDTH - 1.5}" height="{HEIGHT - 1.5}" rx="5" '
        'fill="#fffdf6" stroke="#8a8a8a" stroke-width="1.5"/>',
        f'<text x="10" y="20" text-anchor="middle" font-family="{_FONT}" font-weight="800" '
        f'font-size="{17 if len(rank) > 1 else 20}" fill="{ink}">{escape(rank)}</text>',
        _place(shape, 10, 31, 7),
    ]
    if is_face(card):
        parts.append(_face_panel(shape, ink, rank))
        parts.append(_value_mark(value, ink))
    else:
        size = 13.0 if value == 1 else 6.2
        for fx, fy in _LAYOUTS[value]:
            parts.append(_place(shape, _AREA_X + fx * _AREA_W, _AREA_Y + fy * _AREA_H, size))
    # the small rank upside down in the opposite corner, as on real cards
    parts.append(
        f'<g transform="rotate(180 {WIDTH / 2:g} {HEIGHT / 2:g})">'
        f'<text x="7" y="13" text-anchor="middle" font-family="{_FONT}" font-weight="700" '
        f'font-size="10" fill="{ink}">{escape(rank)}</text></g>'
    )
    return "".join(parts)


def symbol_id(card: int) -> str:
    """The card's symbol in its design's sprite: `c` and its notation (`c7D`)."""
    return f"c{NOTATION[int(card)]}"


def sprite_name(design: Design) -> str:
    """The sprite's name among the static files (web/base/assets.py)."""
    return f"cards-{design.value}.svg"


def sprite(design: Design) -> str:
    """The 40 drawings of a design as one SVG document of symbols."""
    symbols = "".join(
        f'<symbol id="{symbol_id(card)}" viewBox="0 0 {WIDTH} {HEIGHT}">'
        f"{card_drawing(card, design)}</symbol>\n"
        for card in range(40)
    )
    return f'<svg xmlns="http://www.w3.org/2000/svg">\n{symbols}</svg>\n'


@lru_cache(maxsize=512)
def card_svg(
    card: int, design: Design = Design.FRENCH, lang: str = "es", sprite_url: str | None = None
) -> Markup:
    """The card `card` (0..39, value-major) as an inline SVG image named in
    `lang`, its drawing from the sprite at `sprite_url` (by default the
    sprite's plain static URL)."""
    title = _title(card, design, lang)
    url = sprite_url or f"/static/{sprite_name(design)}"
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="card-svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label={quoteattr(title)} data-card-design="{design.value}">'
        f"<title>{escape(title)}</title>"
        f"<use href={quoteattr(url + '#' + symbol_id(card))}/></svg>"
    )


@lru_cache(maxsize=4)
def card_back_svg(lang: str = "es") -> Markup:
    """The back of a card: a lattice on deep red with the game's «15»."""
    label = escape(_BACK.get(lang, _BACK["es"]))
    lines = []
    for k in range(-90, 61, 10):
        lines.append(f"M{k},5L{k + 85},90")
        lines.append(f"M{k + 85},5L{k},90")
    lattice = "".join(lines)
    return Markup(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="card-svg card-back" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{label}">'
        f"<title>{label}</title>"
        f'<rect x="0.75" y="0.75" width="{WIDTH - 1.5}" height="{HEIGHT - 1.5}" rx="5" '
        'fill="#7a1f2b" stroke="#f4e3c1" stroke-width="1.5"/>'
        f'<svg x="5" y="5" width="{WIDTH - 10}" height="{HEIGHT - 10}" viewBox="5 5 50 80">'
        f'<path d="{lattice}" stroke="#b8454f" stroke-width="1.2" fill="none"/></svg>'
        '<rect x="5" y="5" width="50" height="80" rx="3" fill="none" stroke="#f4e3c1" '
        'stroke-width="1"/>'
        '<ellipse cx="30" cy="45" rx="15" ry="11" fill="#7a1f2b" stroke="#f4e3c1" '
        'stroke-width="1.2"/>'
        f'<text x="30" y="50.5" text-anchor="middle" font-family="{_FONT}" font-weight="800" '
        'font-size="15" fill="#f4e3c1">15</text></svg>'
    )
