"""Fonts: TrueType and OpenType files from `fonts/` (or the game's folder), registered once per process, checked for
coverage.

A game names font roles in `settings.fonts` (`body`, `heading`, or its own); each role is a font file. A role that
ends in a family of four files (Regular, Bold, Italic, BoldItalic next to each other) gets `<b>`/`<i>` support.
Every font is embedded and subset by reportlab; a character a font lacks is an error naming the card, never a blank
box in print. reportlab embeds only TrueType outlines, so an OpenType font with PostScript (CFF) outlines is
converted to TrueType outlines with fontTools when it is registered (`truetype_outlines`).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from cardgen.errors import DataError, Location, Problem, did_you_mean, display_path
from cardgen.files import inside, real, require_regular

DEFAULT_ROLES = {
    "body": "NotoSans-Regular.ttf",
    "heading": "NotoSansDisplay-Bold.ttf",
}
STYLE_SUFFIXES = {"bold": "Bold", "italic": "Italic", "bolditalic": "BoldItalic"}
# The display typefaces in `fonts/` a game may name as a role (`settings.fonts: {title: Orbitron-Bold.ttf}`), each
# with its licence beside it (fonts/README.md); their Latin subsets (fontsource) lack some of Latin-1's symbols.
DISPLAY_FACES = {
    "Orbitron-Regular.ttf": "Orbitron: geometric, wide capitals for titles and ship names (with `-Bold`); "
    "no `^`, `©`, `®`, `«»`, `Ø`, `Þ`, `Ð`",
    "Orbitron-Bold.ttf": "Orbitron Bold",
    "Audiowide-Regular.ttf": "Audiowide: rounded technical display face for headings and faction names",
    "Exo2-Regular.ttf": "Exo 2: a futuristic sans for body text and stats (with `-Bold`, `-Italic`, `-BoldItalic`)",
}


@dataclass(frozen=True)
class FontRole:
    """A registered font role: the reportlab name of each face, and the characters the regular face covers (as
    characters: a text's are checked against them as one set difference, `missing_characters`)."""

    name: str
    regular: str
    bold: str
    italic: str
    bold_italic: str
    covered: frozenset[str]


class TrueTypeFont(TTFont):  # type: ignore[misc]  # reportlab has no type hints
    """reportlab's TrueType font, with `splitString` (the subset codes of a text's characters, called for every run
    of text drawn: a tenth of a large build's drawing, character by character in Python) answered from a table when
    every character of the text already has its code in the document's first subset — most card text, once its
    letters have been seen. The answer is reportlab's own, byte for byte (`tests/test_fonts.py` compares them)."""

    def splitString(self, text: str | bytes, doc: Any, encoding: str = "utf-8") -> list[tuple[int, bytes]]:
        state = self.state.get(doc)
        if state is not None and isinstance(text, str) and text:
            table = getattr(state, "cg_table", None)
            if table is None or state.cg_size != len(state.assignments):
                table = _first_subset(state)
            if not text.translate(table[1]):  # every character known in subset 0 (deleted by the check table)
                return [(0, text.translate(table[0]).encode("latin-1"))]
        return super().splitString(text, doc, encoding)  # type: ignore[no-any-return]


def _first_subset(state: Any) -> tuple[dict[int, int], dict[int, None]]:
    """The translation of every character coded in a font state's first subset to its code (no-break space coded as
    the space, as reportlab does), and a table deleting exactly those characters (what remains needs reportlab)."""
    codes = {char: n for char, n in state.assignments.items() if n < 256}
    if 32 in codes:
        codes[0xA0] = codes[32]
    state.cg_table = codes, dict.fromkeys(codes)
    state.cg_size = len(state.assignments)
    return state.cg_table  # type: ignore[no-any-return]


_REGISTERED: dict[Path, tuple[str, frozenset[int]]] = {}
_FILES: dict[str, Path] = {}  # each registered name's file (`font_file`)
# roles' bold and italic files, named in their families but not yet read (`families`): (regular's name, style)
_PENDING: dict[Path, tuple[str, str]] = {}


def families(regular: str | None = None, styles: Collection[str] = tuple(STYLE_SUFFIXES)) -> None:
    """Register the bold and italic faces the font roles name (of the family of `regular` only, when given; of
    `styles` only): before reportlab's `Paragraph` sets inline markup (`<b>`, `<i>`) in them. Most decks set plain
    text only and never read them."""
    for path, (family, style) in sorted(_PENDING.items()):
        if (regular is None or family == regular) and style in styles:
            register_file(path)
            del _PENDING[path]


def register_file(path: Path) -> tuple[str, frozenset[int]]:
    """Register one TrueType file with reportlab (once per process); return its name and covered code points."""
    path = real(path)
    if path in _REGISTERED:
        return _REGISTERED[path]
    if not path.is_file():
        raise DataError(f"{display_path(path)}: font file not found")
    name = f"cg-{path.stem}"
    try:
        font = TrueTypeFont(name, truetype_outlines(path))
    except TTFError as exc:
        raise DataError(
            f"{display_path(path)}: cannot use this font ({exc}); cardgen needs TrueType outlines"
        ) from None
    except Exception as exc:  # a file that is not a font at all
        raise DataError(f"{display_path(path)}: not a readable TrueType font ({exc})") from None
    pdfmetrics.registerFont(font)
    covered = frozenset(font.face.charToGlyph)
    _REGISTERED[path] = (name, covered)
    _FILES[name] = path
    return _REGISTERED[path]


SFNT_VERSIONS = (b"\x00\x01\x00\x00", b"true", b"OTTO")  # TrueType and OpenType fonts' first four bytes


def _font_header(path: Path) -> None:
    """Refuse a file whose first bytes are no TrueType or OpenType font's, as `register_file` would."""
    require_regular(path)
    with path.open("rb") as file:
        version = file.read(4)
    if version not in SFNT_VERSIONS:
        raise DataError(f"{display_path(path)}: not a readable TrueType font (it starts {version!r})")


def font_file(name: str) -> Path | None:
    """The file a font registered by `register_file` was read from (None for any other name)."""
    return _FILES.get(name)


_forgotten = 0  # how many times `forget` was called: what is kept by font name is stale after it


def generation() -> int:
    """A number that changes whenever the fonts are forgotten (`forget`): part of the key of anything kept by a
    font's name (a font file changed in place keeps its name)."""
    return _forgotten


def truetype_outlines(path: Path) -> Any:
    """The font file as reportlab can read it: the path of a TrueType file, or an OpenType font with PostScript (CFF)
    outlines converted to quadratic TrueType outlines in memory (fontTools' cu2qu, within 1 font unit)."""
    with path.open("rb") as file:
        if file.read(4) != b"OTTO":
            return str(path)
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont as Font
    from fontTools.ttLib import TTLibError, newTable

    try:
        font = Font(str(path), recalcTimestamp=False)  # the same file gives the same bytes: PDFs stay reproducible
        if "CFF " not in font:
            raise TTLibError("an OpenType font without a CFF table (CFF2 variable fonts are not supported)")
        order, glyph_set = font.getGlyphOrder(), font.getGlyphSet()
        glyf = newTable("glyf")
        glyf.glyphOrder, glyf.glyphs = order, {}
        for glyph_name in order:
            pen = TTGlyphPen(glyph_set)
            glyph_set[glyph_name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
            glyf.glyphs[glyph_name] = pen.glyph()
        font["loca"], font["glyf"] = newTable("loca"), glyf
        del font["CFF "]
        for table in ("VORG",):
            if table in font:
                del font[table]
        maxp = font["maxp"]
        maxp.tableVersion = 0x00010000
        for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                      "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):  # fmt: skip
            setattr(maxp, field, 1 if field == "maxZones" else 0)
        font["post"].formatType = 3.0  # no glyph names: reportlab does not need them
        font.sfntVersion = "\x00\x01\x00\x00"
        converted = io.BytesIO()
        font.save(converted)
    except Exception as exc:  # fontTools raises many kinds of errors for broken files
        raise DataError(
            f"{display_path(path)}: cannot convert this OpenType font to TrueType outlines ({exc}); "
            "use a .ttf version of the font"
        ) from None
    converted.seek(0)
    converted.name = str(path)
    return converted


def load_roles(
    settings_fonts: dict[str, str],
    fonts_dir: Path,
    game_dir: Path,
    where: Callable[[str], Location] | None = None,
) -> dict[str, FontRole]:
    """Register every font role a game uses (the defaults plus its own), looking in the game folder then `fonts/`.

    `where(role)` locates the line of game.yaml that asks for a role's font, for the errors of the game's own roles.
    """
    roles = {**DEFAULT_ROLES, **settings_fonts}
    result: dict[str, FontRole] = {}
    problems: list[Problem] = []
    for role, file in roles.items():
        try:
            result[role] = _role(role, file, fonts_dir, game_dir)
        except DataError as exc:
            located = where(role) if where and role in settings_fonts else None
            problems.extend(Problem(located or p.where, p.message) for p in exc.problems)
    if problems:
        raise DataError(problems)
    return result


def _locate(file: str, fonts_dir: Path, game_dir: Path) -> Path:
    for folder in (game_dir, fonts_dir):
        candidate = real(folder / file)
        if not inside(candidate, folder):
            continue
        require_regular(candidate)
        if candidate.is_file():
            return candidate
    known = sorted(p.name for p in fonts_dir.glob("*.[ot]tf"))
    raise DataError(
        f"font '{file}' not found in {display_path(game_dir)} or {display_path(fonts_dir)}{did_you_mean(file, known)}"
    )


def _role(role: str, file: str, fonts_dir: Path, game_dir: Path) -> FontRole:
    """The role's font registered, its bold, italic and bold italic files (`-Bold`, … beside it) named for
    reportlab's inline markup and registered when markup first needs them (`families`: a face costs about 2 MB)."""
    path = _locate(file, fonts_dir, game_dir)
    regular, covered = register_file(path)
    faces = {"regular": regular}
    stem = path.stem.removesuffix("-Regular")
    for style, suffix in STYLE_SUFFIXES.items():
        sibling = real(path.with_name(f"{stem}-{suffix}{path.suffix}"))
        # beside the role's file, as `_locate` finds it: a link leading out of its folder is no sibling
        if inside(sibling, path.parent) and sibling.is_file() and sibling != path:
            faces[style] = f"cg-{sibling.stem}"  # the name `register_file` gives it
            if sibling not in _REGISTERED:
                _font_header(sibling)  # a file that is no font at all is said now, at the role
                _PENDING[sibling] = (regular, style)
        else:
            faces[style] = regular
    pdfmetrics.registerFontFamily(
        regular, normal=regular, bold=faces["bold"], italic=faces["italic"], boldItalic=faces["bolditalic"]
    )
    # reportlab reads a face's style back from its name, the last mapping winning: a style without a file of its own
    # (drawn in the regular) made the regular read as that style, and `<b>` or `<i>` then did nothing
    addMapping(regular.lower(), 0, 0, regular)
    return FontRole(role, regular, faces["bold"], faces["italic"], faces["bolditalic"], frozenset(map(chr, covered)))


def missing_characters(text: str, role: FontRole) -> list[str]:
    """The characters of `text` the role's font cannot draw (whitespace and controls excluded)."""
    missing = set(text).difference(role.covered)
    return sorted(ch for ch in missing if not ch.isspace()) if missing else []


def no_glyph(text: str, role: FontRole) -> str | None:
    """'the font of 'body' has no glyph for '☃' (U+2603)', or None when the role's font draws all of `text`."""
    missing = missing_characters(text, role)
    if not missing:
        return None
    chars = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in missing)
    return f"the font of '{role.name}' has no glyph for {chars}"


def forget() -> None:
    """Read every font file again when next asked for (`cardgen watch`, after a font file changed in place).
    reportlab keeps the first font registered under a name for the life of the process, so its registry goes back
    to what a new process has (its own reset, `rl_config._reset`, which its tests use)."""
    from reportlab import rl_config

    global _forgotten
    rl_config._reset()
    _forgotten += 1
    _REGISTERED.clear()
    _FILES.clear()
    _PENDING.clear()
