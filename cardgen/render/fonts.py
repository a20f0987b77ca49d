"""Fonts: TrueType files from `fonts/` (or the game's folder), registered once per process, checked for coverage.

A game names font roles in `settings.fonts` (`body`, `heading`, or its own); each role is a font file. A role that
ends in a family of four files (Regular, Bold, Italic, BoldItalic next to each other) gets `<b>`/`<i>` support.
Every font is embedded and subset by reportlab; a character a font lacks is an error naming the card, never a blank
box in print.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from cardgen.errors import DataError, Location, Problem, did_you_mean, display_path

DEFAULT_ROLES = {
    "body": "NotoSans-Regular.ttf",
    "heading": "NotoSansDisplay-Bold.ttf",
}
_STYLE_SUFFIXES = {"bold": "Bold", "italic": "Italic", "bolditalic": "BoldItalic"}


@dataclass(frozen=True)
class FontRole:
    """A registered font role: the reportlab name of each face, and the characters the regular face covers."""

    name: str
    regular: str
    bold: str
    italic: str
    bold_italic: str
    covered: frozenset[int]


_REGISTERED: dict[Path, tuple[str, frozenset[int]]] = {}


def register_file(path: Path) -> tuple[str, frozenset[int]]:
    """Register one TrueType file with reportlab (once per process); return its name and covered code points."""
    path = path.resolve()
    if path in _REGISTERED:
        return _REGISTERED[path]
    if not path.is_file():
        raise DataError(f"{display_path(path)}: font file not found")
    name = f"cg-{path.stem}"
    try:
        font = TTFont(name, str(path))
    except TTFError as exc:
        raise DataError(
            f"{display_path(path)}: cannot use this font ({exc}); cardgen needs TrueType outlines"
        ) from None
    except Exception as exc:  # a file that is not a font at all
        raise DataError(f"{display_path(path)}: not a readable TrueType font ({exc})") from None
    pdfmetrics.registerFont(font)
    covered = frozenset(font.face.charToGlyph)
    _REGISTERED[path] = (name, covered)
    return _REGISTERED[path]


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
        candidate = (folder / file).resolve()
        if candidate.is_file() and folder.resolve() in candidate.parents:
            return candidate
    known = sorted(p.name for p in fonts_dir.glob("*.ttf"))
    raise DataError(
        f"font '{file}' not found in {display_path(game_dir)} or {display_path(fonts_dir)}{did_you_mean(file, known)}"
    )


def _role(role: str, file: str, fonts_dir: Path, game_dir: Path) -> FontRole:
    path = _locate(file, fonts_dir, game_dir)
    regular, covered = register_file(path)
    faces = {"regular": regular}
    stem = path.stem.removesuffix("-Regular")
    for style, suffix in _STYLE_SUFFIXES.items():
        sibling = path.with_name(f"{stem}-{suffix}{path.suffix}")
        faces[style] = register_file(sibling)[0] if sibling.is_file() and sibling != path else regular
    pdfmetrics.registerFontFamily(
        regular, normal=regular, bold=faces["bold"], italic=faces["italic"], boldItalic=faces["bolditalic"]
    )
    return FontRole(role, regular, faces["bold"], faces["italic"], faces["bolditalic"], covered)


def missing_characters(text: str, role: FontRole) -> list[str]:
    """The characters of `text` the role's font cannot draw (whitespace and controls excluded)."""
    return sorted({ch for ch in set(text) if ord(ch) not in role.covered and not ch.isspace()})


def no_glyph(text: str, role: FontRole) -> str | None:
    """'the font of 'body' has no glyph for '☃' (U+2603)', or None when the role's font draws all of `text`."""
    missing = missing_characters(text, role)
    if not missing:
        return None
    chars = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in missing)
    return f"the font of '{role.name}' has no glyph for {chars}"
