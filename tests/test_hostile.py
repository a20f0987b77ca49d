"""Hostile and broken input, through the real command line: never a hang, a crash, an escape or a traceback.

Every case runs `python -m cardgen` in a subprocess on a copy of the demo game that one edit has broken (or on
options a user mistyped) and asserts what the README promises: exit 2 for input that cannot be read (1 for data that
breaks a rule), a located one-line error, no traceback and no "internal error", no file outside the output folder
touched, nothing partial or stale left in it, under 10 s and 500 MB.
"""

from __future__ import annotations

import io
import os
import shutil
import struct
import zlib
from collections.abc import Iterable
from pathlib import Path

import pytest
import spreadsheets
from hostile import SECONDS, Case, Workspace, make_workspace, run_cardgen

BUNDLED = Path(__file__).parent.parent / "card_data"
VALIDATE = ("validate", "demo")
TRUSTED = ("validate", "demo", "--trust-code")
LIST = ("list", "demo")
BUILD = ("build", "demo", "--out", "out", "--quiet")
DEMO_BUILT = (  # what a build of the demo game writes
    "demo/PRINT.md",
    "demo/board.pdf",
    "demo/calibration.pdf",
    "demo/print-guide.pdf",
    "demo/ships.pdf",
    "demo/tokens.pdf",
)


def _png(width: int, height: int) -> bytes:
    """A valid PNG header (and a tiny compressed body) claiming `width` × `height` pixels: a decompression bomb."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    body = zlib.compress(b"\0" * 1024, 9)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def _small_png() -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), "red").save(buffer, "PNG")
    return buffer.getvalue()


BOMB = "\n".join(
    ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
)


def ship_layout(ws: Workspace, snippet: str) -> None:
    """Put `snippet` into the ship layout, just inside <face>."""
    ws.edit("templates/demo/ship.xml.j2", '<face bg="paper">', '<face bg="paper">\n' + snippet)


def ship_field(ws: Workspace, old: str, new: str) -> None:
    ws.edit("data/demo/ships.yaml", old, new)


def game_field(ws: Workspace, old: str, new: str) -> None:
    ws.edit("data/demo/game.yaml", old, new)


def rules_add_check(ws: Workspace, check: str) -> None:
    ws.edit("data/demo/rules.yaml", "checks:\n", f"checks:\n  - {check}\n")


def svg(ws: Workspace, body: str) -> None:
    ws.write(
        "data/demo/art.svg",
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
        f"{body}</svg>",
    )
    ship_layout(ws, '<image src="art.svg" x="1" y="1" w="5" h="5"/>')


def image(ws: Workspace, name: str, content: bytes) -> None:
    ws.write(f"data/demo/{name}", content)
    ship_layout(ws, f'<image src="{name}" x="1" y="1" w="5" h="5"/>')


DIGITS = "9" * 5000
SE4X_ODDS = ("odds", "space-empires-4x", "--attacker")
RIFT_ODDS = ("odds", "rift-domination", "--attacker")


def many_ships(ws: Workspace, count: int) -> None:
    """The demo deck with `count` ships of different names: as many distinct faces."""
    rows = [f"  - {{id: s{i}, name: Ship {i}, cost: 2, attack: 1, hull: 1, faction: Union}}" for i in range(count)]
    ws.write("data/demo/ships.yaml", "type: ship\nfront: ship\ncards:\n" + "\n".join(rows) + "\n")


def se4x(ws: Workspace) -> None:
    """The workspace's data folder holds the bundled Space Empires 4X beside the demo game (for `cardgen odds`)."""
    shutil.copytree(BUNDLED / "space-empires-4x", ws.data / "space-empires-4x")


def rift(ws: Workspace) -> None:
    shutil.copytree(BUNDLED / "rift-domination", ws.data / "rift-domination")


def fifo(ws: Workspace, relative: str) -> None:
    """Put a FIFO where a file was (or is named): opening it for reading would wait for a writer forever."""
    path = ws.root / relative
    path.unlink(missing_ok=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)


def link(ws: Workspace, relative: str, target: str) -> None:
    """Make `relative` (a file or folder of the workspace) a symbolic link to `target` (relative to its folder)."""
    path = ws.root / relative
    if path.is_file():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)


def include(ws: Workspace, name: str) -> None:
    ship_layout(ws, f'{{% include "{name}" %}}')


def csv_deck(ws: Workspace, lines: Iterable[str]) -> None:
    """The demo ships read from ships.csv, written from `lines`."""
    ws.write("data/demo/ships.yaml", "type: ship\nfront: ship\ncards: {file: ships.csv}\n")
    spreadsheets.write_csv(ws.game / "ships.csv", lines)


def xlsx_deck(ws: Workspace, sheet: Iterable[str], strings: Iterable[str] | None = None) -> Path:
    """The demo ships read from ships.xlsx, its sheet (and shared strings) streamed from generators."""
    ws.write("data/demo/ships.yaml", "type: ship\nfront: ship\ncards: {file: ships.xlsx}\n")
    return spreadsheets.write_xlsx(ws.game / "ships.xlsx", sheet, strings)


UNPACKED = "the parts read would pass the limit of 20,000,000 bytes (a zip bomb?)"
ITEMS = "the table has more than 20,000 rows below the first (blank ones count), the item limit for one component"
CELL = "the cell holds 400,000 characters, more than the limit of 10,000"


# a rules file (engine.yaml) for the demo game: cardgen play reads it; each case below breaks one thing in it
DEMO_ENGINE = """cards: [{component: ships}]
zones:
  deck: {visible: nobody}
  hand: {each: player, visible: owner}
values:
  credits: {each: player}
setup:
  - move: cards('ships')
    to: deck
  - shuffle: deck
turn:
  - draw: deck
  - add: {credits: 1}
  - if: not deck
    then: [{end: done}]
score: credits
"""
PLAY = ("play", "demo", "--games", "2")


def engine(ws: Workspace, old: str = "", new: str = "") -> None:
    """Give the demo game a rules file, with `old` replaced by `new` (which must be there)."""
    assert old in DEMO_ENGINE
    ws.write("data/demo/engine.yaml", DEMO_ENGINE.replace(old, new) if old else DEMO_ENGINE)


def engine_turn(ws: Workspace, steps: str) -> None:
    """Give the demo game a rules file whose turn is `steps` (YAML list lines)."""
    ws.write("data/demo/engine.yaml", DEMO_ENGINE.split("turn:\n")[0] + "turn:\n" + steps + "score: credits\n")


CASES = [
    # --- YAML that would exhaust memory, crash libyaml or lie ---------------------------------------------------
    Case("yaml-alias-bomb", lambda ws: ws.write("data/demo/ships.yaml", BOMB), LIST, 2, "aliases expand"),
    Case(
        "yaml-alias-bomb-manifest", lambda ws: ws.write("data/demo/game.yaml", BOMB), LIST, 2, "data/demo/game.yaml:1"
    ),
    Case(
        "yaml-deep-flow",
        lambda ws: ws.write("data/demo/ships.yaml", "a: " + "[" * 60000 + "]" * 60000),
        LIST,
        2,
        "nests deeper than",  # cardgen's limit of 100, or libyaml's own (PyYAML 6.0.4 stops it while scanning)
    ),
    Case(
        "yaml-deep-mappings",
        lambda ws: ws.write("data/demo/ships.yaml", "a: " + "{b: " * 20000 + "1" + "}" * 20000),
        LIST,
        2,
        "nests deeper",
    ),
    Case(
        "yaml-deep-rules",
        lambda ws: ws.write("data/demo/rules.yaml", "facts: " + "[" * 5000 + "]" * 5000),
        VALIDATE,
        2,
        "data/demo/rules.yaml:1",
    ),
    Case("yaml-self-alias", lambda ws: ws.write("data/demo/ships.yaml", "cards: &c [*c]\n"), LIST, 2, "ships.yaml"),
    Case("yaml-too-large", None, ("--limit", "yaml_bytes=500", *LIST), 2, "larger than the limit"),
    Case(
        "yaml-duplicate-key",
        lambda ws: ship_field(ws, "    cost: 2\n", "    cost: 2\n    cost: 3\n"),
        LIST,
        2,
        "duplicate key 'cost' (first written on line 7)",
    ),
    Case("yaml-tab-indent", lambda ws: ship_field(ws, "    cost: 2\n", "\tcost: 2\n"), LIST, 2, "ships.yaml:7"),
    Case(
        "yaml-control-character",  # the reader's error had a position (in UTF-8 bytes) but no line
        lambda ws: ship_field(ws, "name: Scout", 'name: "Sc\u00e9\x07ut"'),
        LIST,
        2,
        "data/demo/ships.yaml:6: invalid YAML: unacceptable character #x0007 at column 15",
    ),
    Case("yaml-not-utf8", lambda ws: ws.write("data/demo/ships.yaml", b"cards: [\xff\xfe]\n"), LIST, 2, "not UTF-8"),
    Case(
        "yaml-binary-manifest",
        lambda ws: ws.write("data/demo/game.yaml", bytes(range(256)) * 4),
        LIST,
        2,
        "data/demo/game.yaml",
    ),
    Case("yaml-empty-manifest", lambda ws: ws.write("data/demo/game.yaml", ""), LIST, 2, "must be a mapping"),
    Case("yaml-manifest-list", lambda ws: ws.write("data/demo/game.yaml", "- a\n- b\n"), LIST, 2, "must be a mapping"),
    Case(
        "yaml-python-tag",
        lambda ws: ship_field(ws, "name: Scout", "name: !!python/object/apply:os.system [id]"),
        LIST,
        2,
        "ships.yaml:6",
    ),
    Case(
        "yaml-tagged-key", lambda ws: ws.write("data/demo/ships.yaml", "!0 :\n"), LIST, 2, "ships.yaml:1: invalid key"
    ),
    Case(
        "yaml-bad-merge",
        lambda ws: ship_field(ws, "    cost: 2\n", "    <<: 5\n    cost: 2\n"),
        LIST,
        2,
        "invalid merge",
    ),
    Case("yaml-unclosed-quote", lambda ws: ship_field(ws, "name: Scout", 'name: "Scout'), LIST, 2, "ships.yaml"),
    Case(
        "yaml-ships-not-mapping",
        lambda ws: ws.write("data/demo/ships.yaml", "just text\n"),
        LIST,
        2,
        "must be a mapping",
    ),
    # --- files outside the game folder, missing, or of the wrong kind -------------------------------------------
    Case(
        "file-escape-relative",
        lambda ws: game_field(ws, "file: ships.yaml", "file: ../../outside/game.yaml"),
        LIST,
        2,
        "lies outside the game folder",
    ),
    Case(
        "file-escape-absolute",
        lambda ws: game_field(ws, "file: ships.yaml", "file: /etc/hostname"),
        LIST,
        2,
        "lies outside the game folder",
    ),
    Case(
        "file-escape-symlink",
        lambda ws: ((ws.game / "ships.yaml").unlink(), (ws.game / "ships.yaml").symlink_to(ws.outside / "game.yaml")),
        LIST,
        2,
        "lies outside the game folder",
    ),
    Case("file-missing", lambda ws: (ws.game / "ships.yaml").unlink(), LIST, 2, "ships.yaml: file not found"),
    Case(
        "file-is-folder",
        lambda ws: ((ws.game / "ships.yaml").unlink(), (ws.game / "ships.yaml").mkdir()),
        LIST,
        2,
        "is a folder",
    ),
    Case("unknown-game", None, ("list", "dem"), 2, "unknown game 'dem' (did you mean 'demo'?)"),
    Case("data-dir-missing", None, ("--data-dir", "nowhere", "list"), 2, "data folder not found"),
    # --- symbolic links out of the templates folder; FIFOs and devices where a file should be -------------------
    Case(
        "layout-include-symlink-out",
        lambda ws: (
            link(ws, "templates/demo/leak.xml.j2", "../../outside/secret.txt"),
            include(ws, "demo/leak.xml.j2"),
        ),
        BUILD,
        2,
        "templates/demo/ship.xml.j2:4: demo: ships: card 'scout' front: templates/demo/leak.xml.j2: leads outside "
        "the templates folder templates (a symbolic link)",
    ),
    Case(
        "layout-include-through-symlinked-folder",
        lambda ws: (link(ws, "templates/demo/sub", "../../outside"), include(ws, "demo/sub/secret.txt")),
        BUILD,
        2,
        "templates/demo/ship.xml.j2:4: demo: ships: card 'scout' front: templates/demo/sub/secret.txt: leads outside "
        "the templates folder templates (a symbolic link)",
    ),
    Case(
        "layout-import-symlink-out",
        lambda ws: (
            ws.write("outside/ui.xml.j2", "{% macro leak() %}TOP-SECRET-CONTENT{% endmacro %}"),
            link(ws, "templates/demo/ui.xml.j2", "../../outside/ui.xml.j2"),
            ship_layout(
                ws, '{% import "demo/ui.xml.j2" as ui2 %}<text x="1" y="1" w="9" h="9">{{ ui2.leak() }}</text>'
            ),
        ),
        BUILD,
        2,
        "templates/demo/ship.xml.j2:4: demo: ships: card 'scout' front: templates/demo/ui.xml.j2: leads outside",
    ),
    Case(
        "layout-own-file-symlink-out",
        lambda ws: (
            ws.write("outside/ship.xml.j2", (ws.layouts / "ship.xml.j2").read_text() + "<!-- TOP-SECRET -->"),
            link(ws, "templates/demo/ship.xml.j2", "../../outside/ship.xml.j2"),
        ),
        BUILD,
        2,
        "data/demo/ships.yaml:4: scout.front: layout 'ship': templates/demo/ship.xml.j2: leads outside the templates "
        "folder templates (a symbolic link)",
    ),
    Case(
        "layout-shared-symlink-out",
        lambda ws: (
            ws.write("outside/ui.xml.j2", "{% macro title_bar(f, n, b) %}TOP-SECRET-CONTENT{% endmacro %}"),
            link(ws, "templates/_common/ui.xml.j2", "../../outside/ui.xml.j2"),
        ),
        BUILD,
        2,
        "templates/demo/ship.xml.j2:1: demo: ships: card 'scout' front: templates/_common/ui.xml.j2: leads outside",
    ),
    Case(
        "layout-macro-calls-itself",
        lambda ws: ship_layout(ws, "{% macro again(n) %}{{ again(n + 1) }}{% endmacro %}{{ again(1) }}"),
        BUILD,
        2,
        "templates/demo/ship.xml.j2:4: demo: ships: card 'scout' front: the layout calls itself without end",
    ),
    Case(
        "fifo-layout",
        lambda ws: fifo(ws, "templates/demo/ship.xml.j2"),
        BUILD,
        2,
        "data/demo/ships.yaml:4: scout.front: layout 'ship': templates/demo/ship.xml.j2: not a regular file (a FIFO)",
    ),
    Case(
        "preflight-not-a-pdf",
        lambda ws: ws.write("cards.pdf", "%PDF-1.4 this is no PDF at all"),
        ("preflight", "cards.pdf"),
        2,
        "cards.pdf: not a PDF cardgen can read",
    ),
    Case(
        "preflight-fifo",
        lambda ws: fifo(ws, "cards.pdf"),
        ("preflight", "cards.pdf"),
        2,
        "cards.pdf: not a regular file (a FIFO)",
    ),
    Case(
        "fifo-include",
        lambda ws: (fifo(ws, "templates/demo/part.xml.j2"), include(ws, "demo/part.xml.j2")),
        BUILD,
        2,
        "templates/demo/ship.xml.j2:4: demo: ships: card 'scout' front: templates/demo/part.xml.j2: not a regular "
        "file (a FIFO)",
    ),
    Case(
        "fifo-manifest",
        lambda ws: fifo(ws, "data/demo/game.yaml"),
        LIST,
        2,
        "data/demo/game.yaml: not a regular file (a FIFO)",
    ),
    Case(
        "fifo-component",
        lambda ws: fifo(ws, "data/demo/ships.yaml"),
        LIST,
        2,
        "data/demo/ships.yaml: not a regular file (a FIFO)",
    ),
    Case(
        "fifo-rules",
        lambda ws: fifo(ws, "data/demo/rules.yaml"),
        VALIDATE,
        2,
        "data/demo/rules.yaml: not a regular file (a FIFO)",
    ),
    Case(
        "fifo-checks",
        lambda ws: fifo(ws, "data/demo/checks.py"),
        TRUSTED,
        2,
        "data/demo/checks.py: not a regular file (a FIFO)",
    ),
    Case(
        "fifo-table",
        lambda ws: (
            ws.write("data/demo/ships.yaml", "type: ship\nfront: ship\ncards: {file: ships.csv}\n"),
            fifo(ws, "data/demo/ships.csv"),
        ),
        LIST,
        2,
        "data/demo/ships.yaml:3: cards.file: 'ships.csv': not a regular file (a FIFO)",
    ),
    Case(
        "fifo-table-xlsx",
        lambda ws: (
            ws.write("data/demo/ships.yaml", "type: ship\nfront: ship\ncards: {file: ships.xlsx}\n"),
            fifo(ws, "data/demo/ships.xlsx"),
        ),
        LIST,
        2,
        "data/demo/ships.yaml:3: cards.file: 'ships.xlsx': not a regular file (a FIFO)",
    ),
    Case(
        "fifo-image",
        lambda ws: (fifo(ws, "data/demo/art.png"), ship_layout(ws, '<image src="art.png" x="1" y="1" w="5" h="5"/>')),
        BUILD,
        2,
        "templates/demo/ship.xml.j2:4: demo: ships: card 'scout' front: data/demo/art.png: not a regular file (a FIFO)",
    ),
    Case(
        "fifo-image-in-svg",
        lambda ws: (fifo(ws, "data/demo/inner.png"), svg(ws, '<image xlink:href="inner.png" width="5" height="5"/>')),
        BUILD,
        2,
        "data/demo/art.svg:1: <image> refers to 'inner.png': not a regular file (a FIFO)",
    ),
    Case(
        "fifo-font",
        lambda ws: (
            fifo(ws, "data/demo/Body.ttf"),
            game_field(ws, "  back: card-back\n", "  back: card-back\n  fonts: {body: Body.ttf}\n"),
        ),
        BUILD,
        2,
        "data/demo/Body.ttf: not a regular file (a FIFO)",
    ),
    Case("fifo-project", lambda ws: fifo(ws, "cardgen.toml"), LIST, 2, "cardgen.toml: not a regular file (a FIFO)"),
    Case(
        "fifo-project-named",
        lambda ws: fifo(ws, "mine.toml"),
        ("--project", "mine.toml", *LIST),
        2,
        "mine.toml: not a regular file (a FIFO)",
    ),
    Case(
        "fifo-replay-log",
        lambda ws: fifo(ws, "game.log"),
        ("replay", "game.log"),
        2,
        "game.log: not a regular file (a FIFO)",
    ),
    Case(
        "fifo-balance-journal",
        lambda ws: fifo(ws, "out/bf/results-2p.jsonl"),
        ("--data-dir", str(BUNDLED), "balance", "battlefield-space", "--games", "2", "--out", "out/bf", "--resume"),
        2,
        "out/bf/results-2p.jsonl: not a regular file (a FIFO)",
    ),
    Case(
        "fifo-balance-compare",
        lambda ws: fifo(ws, "old.json"),
        (
            "--data-dir",
            str(BUNDLED),
            "balance",
            "battlefield-space",
            "--games",
            "2",
            "--out",
            "out/bf",
            "--compare",
            "old.json",
        ),
        2,
        "--compare old.json: not a regular file (a FIFO)",
    ),
    Case(
        "file-symlink-loop",
        lambda ws: link(ws, "data/demo/ships.yaml", "ships.yaml"),
        LIST,
        2,
        "data/demo/ships.yaml: cannot read (Too many levels of symbolic links)",
    ),
    Case(
        "image-symlink-loop",
        lambda ws: (
            link(ws, "data/demo/art.png", "art.png"),
            ship_layout(ws, '<image src="art.png" x="1" y="1" w="5" h="5"/>'),
        ),
        BUILD,
        2,
        "data/demo/art.png: image not found",
    ),
    Case(
        "file-escape-symlink-manifest",
        lambda ws: link(ws, "data/demo/game.yaml", "../../outside/game.yaml"),
        LIST,
        2,
        "data/demo/game.yaml: lies outside the game folder (a symbolic link)",
    ),
    Case(
        "file-escape-symlink-rules",
        lambda ws: (
            ws.write("outside/rules.yaml", "facts: []\n"),
            link(ws, "data/demo/rules.yaml", "../../outside/rules.yaml"),
        ),
        VALIDATE,
        2,
        "data/demo/rules.yaml: lies outside the game folder (a symbolic link)",
    ),
    Case(
        "image-symlink-out",
        lambda ws: (
            ws.write("outside/art.png", _small_png()),
            link(ws, "data/demo/art.png", "../../outside/art.png"),
            ship_layout(ws, '<image src="art.png" x="1" y="1" w="5" h="5"/>'),
        ),
        BUILD,
        2,
        "image 'art.png' lies outside the game folder",
    ),
    Case(
        "icon-file-symlink-out",
        lambda ws: (
            ws.write("outside/coin.png", _small_png()),
            link(ws, "data/demo/coin.png", "../../outside/coin.png"),
            game_field(
                ws,
                'credits: {shape: circle, fill: "#d9a400", label: "C", label_colour: "#1b1f2a"}',
                "credits: {file: coin.png}",
            ),
        ),
        BUILD,
        2,
        "image 'coin.png' lies outside the game folder",
    ),
    Case(
        "fifo-build-records",  # the output folder's records of an earlier build: none to be read, the build goes on
        lambda ws: fifo(ws, "out/.cardgen-cache/demo.json"),
        BUILD,
        0,
        "",
        outputs=DEMO_BUILT,
    ),
    Case(
        "watch-poll-symlink-loop",
        lambda ws: (link(ws, "data/demo/a", "b"), link(ws, "data/demo/b", "a")),
        ("watch", "demo", "--out", "out", "--poll"),
        2,
        "data/demo/",  # a or b, whichever the walk meets first
    ),
    Case(
        "watch-poll-symlink-to-ancestor",
        lambda ws: link(ws, "data/demo/sub/up", ".."),
        ("watch", "demo", "--out", "out", "--poll"),
        2,
        "data/demo/sub/up: a symbolic link that leads round in a loop: --poll cannot watch it",
    ),
    Case(
        "watch-poll-symlink-loop-in-linked-folder",
        lambda ws: (link(ws, "outside/linked/deep/up", ".."), link(ws, "data/demo/art", "../../outside/linked")),
        ("watch", "demo", "--out", "out", "--poll"),
        2,
        "data/demo/art/deep/up: a symbolic link that leads round in a loop: --poll cannot watch it",
    ),
    # --- counts and sizes that ask for unbounded work ------------------------------------------------------------
    Case(
        "count-300-million",
        lambda ws: ship_field(ws, "count: 3", "count: 300000000"),
        BUILD,
        2,
        "ships.yaml:5: scout.count: count 300,000,000 is more than the limit",
    ),
    Case(
        "count-10-to-20",
        lambda ws: ship_field(ws, "count: 3", "count: 100000000000000000000"),
        LIST,
        2,
        "is more than the limit",
    ),
    Case("count-negative", lambda ws: ship_field(ws, "count: 3", "count: -1"), LIST, 2, "ships.yaml:5"),
    Case("count-fraction", lambda ws: ship_field(ws, "count: 3", "count: 1.5"), LIST, 2, "expected a whole number"),
    Case("count-text", lambda ws: ship_field(ws, "count: 3", 'count: "3"'), LIST, 2, "expected a whole number"),
    Case("items-over-limit", None, ("--limit", "items_per_component=2", *LIST), 2, "3 items is more than the limit"),
    Case("copies-over-game-limit", None, ("--limit", "copies_per_game=10", *LIST), 2, "copies in all"),
    Case("limit-unknown", None, ("--limit", "copies=5", *LIST), 2, "unknown limit 'copies'"),
    Case("limit-not-number", None, ("--limit", "yaml_depth=deep", *LIST), 2, "is not a number"),
    Case("limit-negative", None, ("--limit", "yaml_depth=-3", *LIST), 2, "must be a positive number"),
    Case(
        "size-negative",
        lambda ws: ws.edit("data/demo/tokens.yaml", "size: 5/8in", "size: -5"),
        LIST,
        2,
        "tokens.yaml:2",
    ),
    Case(
        "size-nan", lambda ws: ws.edit("data/demo/tokens.yaml", "size: 5/8in", "size: .nan"), LIST, 2, "tokens.yaml:2"
    ),
    Case(
        "size-zero",
        lambda ws: ws.edit("data/demo/tokens.yaml", "size: 5/8in", "size: 0x0"),
        LIST,
        2,
        "must be positive",
    ),
    Case(
        "size-huge-board",
        lambda ws: ws.edit("data/demo/board.yaml", "size: 400x280", "size: 100000x100000"),
        LIST,
        2,
        "at most 5000 mm",
    ),
    Case(
        "bleed-negative",
        lambda ws: ws.edit("data/demo/tokens.yaml", "shape: round", "shape: round\nbleed: -2"),
        LIST,
        2,
        "bleed",
    ),
    Case(
        "bleed-nan",
        lambda ws: game_field(ws, "card_size: poker", "card_size: poker\n  bleed: .nan"),
        LIST,
        2,
        "game.yaml:9",
    ),
    Case(
        "bleed-huge",
        lambda ws: game_field(ws, "card_size: poker", "card_size: poker\n  bleed: 500"),
        LIST,
        2,
        "between 0 and 20",
    ),
    Case(
        "field-nan",
        lambda ws: (
            game_field(ws, "attack: {type: int, min: 0}", "attack: {type: number, min: 0}"),
            ship_field(ws, "attack: 1", "attack: .nan"),
        ),
        LIST,
        2,
        "finite number",
    ),
    Case(
        "field-inf",
        lambda ws: (
            game_field(ws, "attack: {type: int, min: 0}", "attack: {type: number}"),
            ship_field(ws, "attack: 1", "attack: .inf"),
        ),
        LIST,
        2,
        "finite number",
    ),
    Case(
        "bounds-on-text",  # was a TypeError from pydantic when the first item was checked
        lambda ws: game_field(ws, "attack: {type: int, min: 0}", "attack: {type: str, min: 0}"),
        LIST,
        2,
        "game.yaml:23: card_types.ship.fields.attack: min and max bound int and number fields",
    ),
    Case(
        "default-of-another-type",  # items without the field used to hold the text where layouts expect a number
        lambda ws: game_field(ws, "attack: {type: int, min: 0}", "attack: {type: int, min: 0, default: many}"),
        LIST,
        2,
        "game.yaml:23: card_types.ship.fields.attack: default 'many' is not a value of this field",
    ),
    Case(
        "choices-empty",  # pydantic-core could not build the check (SchemaError): an internal error, exit 3
        lambda ws: game_field(ws, "choices: [Union, Syndicate]", "choices: []"),
        LIST,
        2,
        "data/demo/game.yaml:25: card_types.ship.fields.faction.choices: got an empty list, which would allow no value",
    ),
    Case("players-zero", lambda ws: game_field(ws, "players: [2, 4]", "players: [0, 4]"), LIST, 2, "game.yaml:4"),
    Case("players-reversed", lambda ws: game_field(ws, "players: [2, 4]", "players: [4, 2]"), LIST, 2, "1 ≤ min ≤ max"),
    Case(
        "for-each-empty",
        lambda ws: ws.edit("data/demo/tokens.yaml", "shape: round", "shape: round\nfor_each: {colour: []}"),
        LIST,
        2,
        "for_each",
    ),
    Case("id-with-slash", lambda ws: ship_field(ws, "id: scout", "id: ../scout"), LIST, 2, "is not a valid id"),
    Case("id-too-long", lambda ws: ship_field(ws, "id: scout", "id: " + "s" * 200), LIST, 2, "ships.yaml:4"),
    # --- manifest mistakes -------------------------------------------------------------------------------------
    Case(
        "colour-short-hex", lambda ws: game_field(ws, 'ink: "#1b1f2a"', 'ink: "#12"'), LIST, 2, "'#12' is not a colour"
    ),
    Case(
        "colour-javascript",
        lambda ws: game_field(ws, 'ink: "#1b1f2a"', 'ink: "javascript:alert(1)"'),
        LIST,
        2,
        "is not a colour",
    ),
    Case("icon-colour-bad", lambda ws: game_field(ws, 'fill: "#c0392b"', 'fill: "red;"'), LIST, 2, "is not a colour"),
    Case(
        "card-size-unknown",
        lambda ws: game_field(ws, "card_size: poker", "card_size: pokr"),
        LIST,
        2,
        "did you mean 'poker'",
    ),
    Case(
        "reserved-field",
        lambda ws: game_field(ws, "      name: {type: str}", "      name: {type: str}\n      count: {type: int}"),
        LIST,
        2,
        "'count' is reserved",
    ),
    Case(
        "field-type-unknown",
        lambda ws: game_field(ws, "cost: {type: int,", "cost: {type: integer,"),
        LIST,
        2,
        "game.yaml:22",
    ),
    Case(
        "field-min-text",
        lambda ws: game_field(ws, "cost: {type: int, min: 0", 'cost: {type: int, min: "abc"'),
        LIST,
        2,
        "game.yaml:22",
    ),
    Case(
        "manifest-and-component-errors",
        lambda ws: (
            game_field(ws, "title: Demo Skirmish", "title: Demo Skirmish\nsubtitle: oops"),
            ship_field(ws, "hull: 1", "hul: 1"),
        ),
        LIST,
        2,
        "did you mean 'hull'",
    ),
    Case(
        "font-missing",
        lambda ws: game_field(ws, "  card_size: poker", "  card_size: poker\n  fonts: {body: Nope.ttf}"),
        BUILD,
        2,
        "game.yaml:9: settings.fonts.body: font 'Nope.ttf' not found",
    ),
    Case(
        "font-escape",
        lambda ws: game_field(
            ws, "  card_size: poker", "  card_size: poker\n  fonts: {body: ../../outside/secret.txt}"
        ),
        BUILD,
        2,
        "game.yaml:9",
    ),
    Case(
        "font-not-a-font",
        lambda ws: (
            ws.write("data/demo/Fake.ttf", "not a font"),
            game_field(ws, "  card_size: poker", "  card_size: poker\n  fonts: {body: Fake.ttf}"),
        ),
        BUILD,
        2,
        "Fake.ttf",
    ),
    Case(
        "icon-label-glyph",
        lambda ws: game_field(ws, 'label: "C"', 'label: "☃"'),
        BUILD,
        2,
        "game.yaml:15: settings.icons.credits.label",
    ),
    Case(
        "title-glyph",
        lambda ws: game_field(ws, "title: Demo Skirmish", "title: Demo ☃ Skirmish"),
        BUILD,
        2,
        "game.yaml:3: title",
    ),
    # --- layouts that would run forever, eat memory, or step out of the sandbox ---------------------------------
    Case(
        "layout-nested-loops",
        lambda ws: ship_layout(ws, "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"),
        ("--limit", "face_seconds=1", *BUILD),  # the default (3 s) works the same way, only slower to watch
        2,
        "took more than 1 s",
    ),
    Case("layout-string-bomb", lambda ws: ship_layout(ws, '{{ "a" * 10**10 }}'), BUILD, 2, "ship.xml.j2:4"),
    Case("layout-power-bomb", lambda ws: ship_layout(ws, "{{ 10**(10**10) }}"), BUILD, 2, "more than 300 digits"),
    Case("layout-list-bomb", lambda ws: ship_layout(ws, "{% set x = [1] * 10**9 %}"), BUILD, 2, "repeats a value"),
    Case("layout-center-bomb", lambda ws: ship_layout(ws, '{{ "x"|center(10**9) }}'), BUILD, 2, "passes the number"),
    Case(
        "layout-format-bomb",
        lambda ws: ship_layout(ws, '{{ "{:>999999999}".format(1) }}'),
        BUILD,
        2,
        "width of a million",
    ),
    Case(
        "layout-printf-bomb",
        lambda ws: ship_layout(ws, '{{ "%999999999s"|format("x") }}'),
        BUILD,
        2,
        "width of a million",
    ),
    Case(
        "layout-markup-flood",
        lambda ws: ship_layout(
            ws,
            '{% for i in range(99999) %}<rect x="1" y="1" w="1" h="1" fill="red"/>'
            '<rect x="1" y="1" w="1" h="1"/>{% endfor %}',
        ),
        BUILD,
        2,
        "characters of markup",
    ),
    Case(
        "layout-doubling",
        lambda ws: ship_layout(
            ws, '{% set ns = namespace(s="ab") %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}'
        ),
        BUILD,
        2,
        "more than the limit of 1,000,000",
    ),
    Case(
        "layout-sandbox-class",
        lambda ws: ship_layout(ws, "{{ ''.__class__.__mro__[1].__subclasses__() }}"),
        BUILD,
        2,
        "ship.xml.j2:4",
    ),
    Case(
        "layout-sandbox-globals",
        lambda ws: ship_layout(ws, "{{ cycler.__init__.__globals__.os }}"),
        BUILD,
        2,
        "ship.xml.j2",
    ),
    Case("layout-undefined", lambda ws: ship_layout(ws, "{{ card.speed }}"), BUILD, 2, "'speed' is undefined"),
    Case("layout-syntax", lambda ws: ship_layout(ws, "{% if %}"), BUILD, 2, "template syntax error"),
    Case(
        "layout-include-escape",
        lambda ws: ship_layout(ws, '{% include "../../outside/secret.txt" %}'),
        BUILD,
        2,
        "ship.xml.j2",
    ),
    Case(
        "layout-include-absolute", lambda ws: ship_layout(ws, '{% include "/etc/hostname" %}'), BUILD, 2, "ship.xml.j2"
    ),
    Case(
        "layout-missing-two",
        lambda ws: ((ws.layouts / "ship.xml.j2").unlink(), (ws.layouts / "token.xml.j2").unlink()),
        BUILD,
        2,
        "layout 'ship' not found",
    ),
    Case(
        "layout-not-in-own-folder",
        lambda ws: (ws.layouts / "board.xml.j2").unlink(),
        BUILD,
        2,
        "layout 'board' not found: templates/demo/board.xml.j2",
    ),
    # --- markup the layouts produce ------------------------------------------------------------------------------
    Case(
        "markup-nan",
        lambda ws: ship_layout(ws, '<rect x="nan" y="1" w="5" h="5"/>'),
        BUILD,
        2,
        "expected a finite number",
    ),
    Case("markup-inf", lambda ws: ship_layout(ws, '<circle cx="1" cy="inf" r="5"/>'), BUILD, 2, "finite number"),
    Case(
        "markup-negative-width",
        lambda ws: ship_layout(ws, '<rect x="1" y="1" w="-5" h="5"/>'),
        BUILD,
        2,
        "cannot be negative",
    ),
    Case(
        "markup-dash-zero",
        lambda ws: ship_layout(ws, '<line x1="1" y1="1" x2="5" y2="5" dash="0 0"/>'),
        BUILD,
        2,
        "cannot all be zero",
    ),
    Case(
        "markup-colour-javascript",
        lambda ws: ship_layout(ws, '<rect x="1" y="1" w="5" h="5" fill="javascript:x"/>'),
        BUILD,
        2,
        "not a colour",
    ),
    Case(
        "markup-colour-short",
        lambda ws: ship_layout(ws, '<rect x="1" y="1" w="5" h="5" fill="#12"/>'),
        BUILD,
        2,
        "not a colour",
    ),
    Case(
        "markup-inline-colour",
        lambda ws: ship_layout(ws, '<text x="1" y="1" w="9" h="5"><font color="javascript:">x</font></text>'),
        BUILD,
        2,
        "not a colour",
    ),
    Case(
        "markup-text-size-zero",
        lambda ws: ship_layout(ws, '<text x="1" y="1" w="9" h="5" size="0">x</text>'),
        BUILD,
        2,
        "must be above zero",
    ),
    Case(
        "markup-opacity",
        lambda ws: ship_layout(ws, '<rect x="1" y="1" w="5" h="5" opacity="7"/>'),
        BUILD,
        2,
        "between 0 and 1",
    ),
    Case("markup-unknown-element", lambda ws: ship_layout(ws, '<script src="x"/>'), BUILD, 2, "unknown element"),
    Case(
        "markup-unknown-attribute",
        lambda ws: ship_layout(ws, '<rect x="1" y="1" w="5" h="5" onload="x"/>'),
        BUILD,
        2,
        "unknown attribute 'onload'",
    ),
    Case(
        "markup-xxe",
        lambda ws: ws.edit(
            "templates/demo/ship.xml.j2",
            '<face bg="paper">',
            '<!DOCTYPE face [<!ENTITY x SYSTEM "file:///etc/hostname">]>'
            '<face bg="paper"><text x="1" y="1" w="9" h="5">&x;</text>',
        ),
        BUILD,
        2,
        "card 'scout' front: layout 'ship': a layout may not declare a DOCTYPE",
    ),
    Case(
        "markup-entity-bomb",
        lambda ws: ws.edit(
            "templates/demo/ship.xml.j2",
            '<face bg="paper">',
            '<!DOCTYPE face [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><face bg="paper">',
        ),
        BUILD,
        2,
        "may not declare a DOCTYPE or entities",
    ),
    Case("markup-broken-xml", lambda ws: ship_layout(ws, '<rect x="1"'), BUILD, 2, "invalid XML"),
    Case(
        "markup-unknown-icon",
        lambda ws: ship_layout(ws, '<icon name="rockett" x="1" y="1" size="5"/>'),  # 'rocket' is a library icon
        BUILD,
        2,
        "unknown icon '{rockett}' (did you mean 'rocket'?)",
    ),
    # --- images and SVG art ----------------------------------------------------------------------------------------
    Case(
        "image-escape",
        lambda ws: ship_layout(ws, '<image src="../../outside/secret.txt" x="1" y="1" w="5" h="5"/>'),
        BUILD,
        2,
        "lies outside the game folder",
    ),
    Case(
        "image-absolute",
        lambda ws: ship_layout(ws, '<image src="/etc/hostname.png" x="1" y="1" w="5" h="5"/>'),
        BUILD,
        2,
        "lies outside the game folder",
    ),
    Case(
        "image-missing",
        lambda ws: ship_layout(ws, '<image src="nope.png" x="1" y="1" w="5" h="5"/>'),
        BUILD,
        2,
        "image not found",
    ),
    Case("image-gif", lambda ws: image(ws, "art.gif", b"GIF89a"), BUILD, 2, "must be PNG, JPEG or SVG"),
    Case("image-corrupt", lambda ws: image(ws, "art.png", b"\x89PNG\r\n\x1a\nbroken"), BUILD, 2, "cannot decode"),
    Case("image-bomb", lambda ws: image(ws, "bomb.png", _png(20000, 20000)), BUILD, 2, "400,000,000 pixels"),
    Case(
        "image-bomb-raised",
        lambda ws: image(ws, "bomb.png", _png(20000, 20000)),
        ("--limit", "image_pixels=1000", *BUILD),
        2,
        "more than the limit of 1,000",
    ),
    Case(
        "svg-image-escape",
        lambda ws: svg(ws, '<image xlink:href="../../outside/secret.png" width="5" height="5"/>'),
        BUILD,
        2,
        "art.svg:1: <image> refers to '../../outside/secret.png'",
    ),
    Case("svg-use-absolute", lambda ws: svg(ws, '<use href="/etc/x.svg#a"/>'), BUILD, 2, "absolute"),
    Case(
        "svg-remote",
        lambda ws: svg(ws, '<image href="http://example.com/x.png" width="5" height="5"/>'),
        BUILD,
        2,
        "remote",
    ),
    Case(
        "svg-file-scheme",
        lambda ws: svg(ws, '<image href="file:///etc/passwd" width="5" height="5"/>'),
        BUILD,
        2,
        "svg",
    ),
    Case(
        "svg-css-import", lambda ws: svg(ws, '<style>@import url("../../outside/x.css");</style>'), BUILD, 2, "art.svg"
    ),
    Case(
        "svg-broken",
        lambda ws: (
            ws.write("data/demo/art.svg", "<svg"),
            ship_layout(ws, '<image src="art.svg" x="1" y="1" w="5" h="5"/>'),
        ),
        BUILD,
        2,
        "art.svg",
    ),
    Case(
        "svg-data-bomb",
        lambda ws: svg(
            ws,
            '<image href="data:image/png;base64,'
            + __import__("base64").b64encode(_png(20000, 20000)).decode()
            + '" width="5" height="5"/>',
        ),
        BUILD,
        2,
        "pixels",
    ),
    # --- rules.yaml and checks.py ------------------------------------------------------------------------------------
    Case(
        "check-min-text",
        lambda ws: rules_add_check(ws, '{rule: R, check: range, component: ships, field: cost, min: "abc"}'),
        TRUSTED,
        1,
        ("rules.yaml:12: checks[0]: R", "it cannot: TypeError: '<' not supported"),
    ),
    Case(
        "check-min-text-size-not-a-size",
        lambda ws: rules_add_check(ws, "{rule: R, check: min-text-size, component: tokens, min: -2}"),
        TRUSTED,
        1,
        ("rules.yaml:12: checks[0]: R", "min must be a text size in points, got -2"),
    ),
    Case(
        "check-unknown-kind",
        lambda ws: rules_add_check(ws, "{rule: R, check: cont, component: ships}"),
        VALIDATE,
        2,
        "did you mean 'count'",
    ),
    Case(
        "check-misspelt-field",
        lambda ws: rules_add_check(ws, "{rule: R, check: range, component: ships, field: cots, min: 0}"),
        VALIDATE,
        1,
        "unknown field 'cots'",
    ),
    Case(
        "check-where-unknown",
        lambda ws: rules_add_check(ws, "{rule: R, check: count, component: ships, where: {fation: Union}, expect: 4}"),
        VALIDATE,
        1,
        "'where' names unknown field 'fation'",
    ),
    Case(
        "check-selects-nothing",
        lambda ws: rules_add_check(
            ws, "{rule: R, check: range, component: ships, where: {faction: Empire}, field: cost, min: 0}"
        ),
        VALIDATE,
        1,
        "selects no items",
    ),
    Case(
        "check-unknown-fact",
        lambda ws: rules_add_check(ws, "{rule: R, check: count, component: ships, expect: {fact: deck_sise}}"),
        TRUSTED,
        1,
        "did you mean 'deck_size'",
    ),
    Case(
        "check-unknown-component",
        lambda ws: rules_add_check(ws, "{rule: R, check: count, component: shps, expect: 3}"),
        TRUSTED,
        1,
        "did you mean 'ships'",
    ),
    Case(
        "checks-py-exit",
        lambda ws: ws.write("data/demo/checks.py", "import sys\nsys.exit(0)\n"),
        TRUSTED,
        1,
        "checks.py:2: the game's checks.py tried to end cardgen",
    ),
    Case(
        "checks-py-syntax",
        lambda ws: ws.write("data/demo/checks.py", "def token_values(:\n"),
        TRUSTED,
        1,
        "checks.py:1",
    ),
    Case(
        "checks-py-raises",
        lambda ws: ws.write("data/demo/checks.py", "def token_values(game, check):\n    raise KeyError('oops')\n"),
        TRUSTED,
        1,
        "checks.py:2: custom check 'token_values' failed: KeyError",
    ),
    Case(
        "checks-py-wrong-yield",
        lambda ws: ws.write("data/demo/checks.py", "def token_values(game, check):\n    yield 42\n"),
        TRUSTED,
        1,
        "custom check 'token_values' yielded 42",
    ),
    Case(
        "checks-py-missing-function",
        lambda ws: ws.write("data/demo/checks.py", "def token_value(game, check):\n    return []\n"),
        TRUSTED,
        1,
        "did you mean 'token_value'",
    ),
    Case(
        "checks-py-exit-in-check",
        lambda ws: ws.write("data/demo/checks.py", "import sys\ndef token_values(game, check):\n    sys.exit(0)\n"),
        TRUSTED,
        1,
        "tried to end cardgen",
    ),
    Case(
        "rules-unknown-key",
        lambda ws: ws.edit("data/demo/rules.yaml", "facts:", "fact_list: []\nfacts:"),
        VALIDATE,
        2,
        "unknown field 'fact_list'",
    ),
    Case(
        "no-validate-never-imports-checks",
        lambda ws: ws.write("data/demo/checks.py", "open('outside/pwned', 'w').write('x')\nimport sys\nsys.exit(0)\n"),
        ("build", "demo", "--out", "out", "--quiet", "--no-validate"),
        0,
        "was not checked",
        outputs=DEMO_BUILT,
    ),
    Case(
        "untrusted-checks-py-not-run",
        lambda ws: ws.write("data/demo/checks.py", "open('outside/pwned', 'w').write('x')\n"),
        VALIDATE,
        1,
        "1 skipped (checks.py is code from the game folder: run 'cardgen trust demo' to run it",
    ),
    Case(
        "project-file-cannot-grant-trust",
        lambda ws: (
            ws.write("data/demo/checks.py", "open('outside/pwned', 'w').write('x')\n"),
            ws.write("cardgen.toml", 'trust = ["demo"]\n'),
        ),
        VALIDATE,
        2,
        "cardgen.toml:1: 'trust' is no longer read from a project file (a folder cannot trust itself): trust a "
        "game's checks.py with 'cardgen trust GAME'",
    ),
    # --- spreadsheets: bounded as they stream, named to the row and cell -------------------------------------------
    Case(
        "csv-million-rows",
        lambda ws: csv_deck(ws, spreadsheets.ship_rows(1_000_000)),
        LIST,
        2,
        "data/demo/ships.csv: file of 25,888,923 bytes is larger than the limit of 20,000,000",
        megabytes=300,
    ),
    Case(
        "csv-million-rows-streamed",
        lambda ws: csv_deck(ws, spreadsheets.ship_rows(1_000_000)),
        ("--limit", "table_bytes=100000000", *LIST),
        2,
        f"data/demo/ships.csv:20002: {ITEMS}",
        megabytes=300,
    ),
    Case(
        "csv-long-cell",
        lambda ws: csv_deck(ws, ["id,name,cost,attack,hull,faction\n", f"s,{'x' * 400_000},2,1,1,Union\n"]),
        LIST,
        2,
        f"data/demo/ships.csv:2: column 'name': {CELL}",
    ),
    Case(
        "csv-nul",
        lambda ws: csv_deck(ws, ["id,name,cost,attack,hull,faction\n", "s,Sc\0ut,2,1,1,Union\n"]),
        LIST,
        2,
        "data/demo/ships.csv:2: column 'name': a NUL character (byte 0) in the cell",
    ),
    Case(
        "xlsx-million-rows",
        lambda ws: xlsx_deck(ws, spreadsheets.sheet_rows(1_500_000)),
        LIST,
        2,
        f"data/demo/ships.xlsx: xl/worksheets/sheet1.xml declares 208,889,348 bytes unpacked: {UNPACKED}",
        megabytes=300,
    ),
    Case(
        "xlsx-million-rows-streamed",
        lambda ws: xlsx_deck(ws, spreadsheets.sheet_rows(1_500_000)),
        ("--limit", "table_unpacked_bytes=1000000000", *LIST),
        2,
        f"data/demo/ships.xlsx:20002: sheet 'Fleet': {ITEMS}",
        megabytes=300,
    ),
    Case(
        "xlsx-400mb-shared-string",
        lambda ws: xlsx_deck(
            ws, spreadsheets.sheet_rows(1), spreadsheets.shared_strings("A" * 1_000_000 for _ in range(400))
        ),
        LIST,
        2,
        f"data/demo/ships.xlsx: xl/sharedStrings.xml declares 400,000,131 bytes unpacked: {UNPACKED}",
        megabytes=300,
    ),
    Case(
        "xlsx-many-parts",
        lambda ws: spreadsheets.pad_parts(xlsx_deck(ws, spreadsheets.sheet_rows(1)), 20_000),
        LIST,
        2,
        "data/demo/ships.xlsx: the workbook lists 20,006 parts; a workbook holds a few dozen (at most 10,000 are read)",
    ),
    Case(
        "xlsx-400mb-shared-string-declared-small",
        lambda ws: spreadsheets.declare_size(
            xlsx_deck(ws, spreadsheets.sheet_rows(1), spreadsheets.shared_strings("A" * 1_000_000 for _ in range(400))),
            "xl/sharedStrings.xml",
            1_000,
        ),
        LIST,
        2,
        "data/demo/ships.xlsx: not a readable XLSX workbook (BadZipFile: Bad CRC-32 for file 'xl/sharedStrings.xml')",
        megabytes=300,
    ),
    Case(
        "xlsx-long-shared-string",
        lambda ws: xlsx_deck(ws, spreadsheets.sheet_rows(1), spreadsheets.shared_strings(["x" * 400_000])),
        LIST,
        2,
        f"data/demo/ships.xlsx:2: sheet 'Fleet', cell B2 (column 'name'): {CELL}",
    ),
    Case(
        "csv-million-blank-lines",
        lambda ws: csv_deck(ws, ["id,name,cost,attack,hull,faction\n", *["\n" * 1_000_000] * 19]),
        LIST,
        2,
        f"data/demo/ships.csv:20002: {ITEMS}",
        megabytes=300,
    ),
    Case(
        "csv-million-cells",
        lambda ws: csv_deck(ws, ["id,name,cost,attack,hull,faction\n", "s" + "," * 1_000_000 + "\n"]),
        LIST,
        2,
        "data/demo/ships.csv:2: column 1001: the row has 1,000,001 cells, more than the limit of 1,000",
        megabytes=300,
    ),
    Case(
        "xlsx-million-empty-rows",
        lambda ws: xlsx_deck(
            ws, [*list(spreadsheets.sheet_rows(1))[:1], "<row/>" * 3_000_000, "</sheetData></worksheet>"]
        ),
        LIST,
        2,
        f"data/demo/ships.xlsx:20002: sheet 'Fleet': {ITEMS}",
        megabytes=300,
    ),
    Case(
        "xlsx-million-cells",
        lambda ws: xlsx_deck(
            ws, [*list(spreadsheets.sheet_rows(0))[:-1], "<row>" + "<c/>" * 4_000_000, "</row></sheetData></worksheet>"]
        ),
        LIST,
        2,
        "data/demo/ships.xlsx:2: sheet 'Fleet', cell ALM2 (column 1001): the row goes on, more than the limit of 1,000",
        megabytes=300,
    ),
    Case(
        "xlsx-millions-of-empty-cells",  # 20 MB of <c/>: 5 million cells, 14 s to read before the cell limit
        lambda ws: xlsx_deck(
            ws,
            [
                *list(spreadsheets.sheet_rows(0))[:-1],
                *["<row>" + "<c/>" * 999 + "</row>"] * 4_950,
                "</sheetData></worksheet>",
            ],
        ),
        LIST,
        2,
        "data/demo/ships.xlsx:1002: sheet 'Fleet', cell ALG1002 (column 995): the table has more than 1,000,000 cells",
        megabytes=300,
    ),
    Case(
        "csv-millions-of-empty-cells",
        lambda ws: csv_deck(ws, ["id,name,cost,attack,hull,faction\n", *["," * 999 + "\n"] * 10_000]),
        LIST,
        2,
        "data/demo/ships.csv:1001: column 995: the table has more than 1,000,000 cells",
        megabytes=300,
    ),
    Case(
        "xlsx-entity-bomb",
        lambda ws: xlsx_deck(
            ws, spreadsheets.sheet_rows(1), ['<!DOCTYPE sst [<!ENTITY a "aaaa">]><sst><si><t>&a;</t></si></sst>']
        ),
        LIST,
        2,
        "data/demo/ships.xlsx: xl/sharedStrings.xml declares a DTD or entities",
    ),
    # --- items from an address -------------------------------------------------------------------------------------
    Case(
        "url-file-scheme",
        lambda ws: ws.write("data/demo/ships.yaml", 'type: ship\nfront: ship\ncards: {url: "file:///etc/passwd"}\n'),
        ("--fetch", *LIST),
        2,
        "ships.yaml:3: cards.url: file:///etc/passwd: 'file:' addresses are not fetched: give an https:// address",
    ),
    Case(
        "url-never-fetched",
        lambda ws: ws.write(
            "data/demo/ships.yaml", 'type: ship\nfront: ship\ncards: {url: "https://example.org/s.csv"}\n'
        ),
        LIST,
        2,
        "https://example.org/s.csv: no kept copy to read: a game folder cannot make cardgen fetch by itself",
    ),
    Case(
        "url-and-file",
        lambda ws: ws.write(
            "data/demo/ships.yaml", "type: ship\nfront: ship\ncards: {url: https://x.org/a.csv, file: a.csv}\n"
        ),
        LIST,
        2,
        "name the items' spreadsheet with file: (in the game folder) or url: (an address)",
    ),
    Case(
        "url-format-for-a-file",
        lambda ws: ws.write("data/demo/ships.yaml", "type: ship\nfront: ship\ncards: {file: a.csv, format: xlsx}\n"),
        LIST,
        2,
        "format: is for a table fetched from url:",
    ),
    Case("fetch-and-offline", None, ("--fetch", "--offline", *LIST), 2, "--fetch and --offline contradict each other"),
    # --- languages -------------------------------------------------------------------------------------------------
    Case(
        "language-map-without-languages",
        lambda ws: ship_field(ws, "name: Scout", "name: {en: Scout, de: Späher}"),
        VALIDATE,
        2,
        "name: a text per language, but game.yaml lists no languages",
    ),
    Case(
        "language-key-without-languages",
        lambda ws: ship_field(ws, "name: Scout", "name: Scout\n    name@de: Späher"),
        VALIDATE,
        2,
        "name@de: a text in 'de', but game.yaml lists no languages",
    ),
    Case(
        "language-listed-twice",
        lambda ws: game_field(ws, "title: Demo Skirmish", "title: Demo Skirmish\nlanguages: [en, de, en]"),
        VALIDATE,
        2,
        "languages: 'en' is listed twice",
    ),
    Case(
        "language-code-malformed",
        lambda ws: game_field(ws, "title: Demo Skirmish", "title: Demo Skirmish\nlanguages: [English]"),
        VALIDATE,
        2,
        "languages[0]",
    ),
    Case("option-lang-path", None, (*BUILD, "--lang", "../../etc"), 2, "'../../etc' is not a language code"),
    Case("option-lang-unknown", None, (*BUILD, "--lang", "de"), 2, "demo: no language 'de'"),
    # --- options ---------------------------------------------------------------------------------------------------
    Case("option-gutter-negative", None, (*BUILD, "--gutter", "-50"), 2, "--gutter"),
    Case("option-gutter-nan", None, (*BUILD, "--gutter", "nan"), 2, "--gutter"),
    Case("option-offset-nan", None, (*BUILD, "--back-offset", "nan,0"), 2, "--back-offset"),
    Case("option-offset-one", None, (*BUILD, "--back-offset", "1"), 2, "is not X,Y"),
    Case("option-mark-weight-inf", None, (*BUILD, "--mark-weight", "inf"), 2, "--mark-weight"),
    Case("option-mark-offset-nan", None, (*BUILD, "--mark-offset", "nan"), 2, "--mark-offset"),
    Case("option-paper", None, (*BUILD, "--paper", "b5"), 2, "'b5' is not a paper: use a4, letter, a3, a5"),
    Case("option-paper-too-small", None, (*BUILD, "--paper", "1x3in"), 2, "'1x3in': each side of the paper must"),
    Case(
        "option-paper-smaller-than-a-card",
        None,
        (*BUILD, "--paper", "2x3in"),
        2,
        "ships: a 63.5×88.9 mm face with 3 mm bleed does not fit on 50.8×76.2 mm paper",
    ),
    Case("option-paper-huge-number", None, (*BUILD, "--paper", "9" * 5000 + "x300"), 2, "characters)': each side"),
    Case("option-ink", None, (*BUILD, "--ink", "dark"), 2, "--ink"),
    Case("changed-since-no-git", None, (*BUILD, "--changed-since", "v1"), 2, "not in a git repository"),
    Case("changed-since-option", None, (*BUILD, "--changed-since", "--upload-pack=x"), 2, "is not a git revision"),
    Case("diff-unknown-game", None, ("diff", "nope@v1"), 2, "'nope' is neither a game of data nor a folder holding"),
    Case("option-only-item", None, (*BUILD, "--only", "ships:scuot"), 2, "no item 'scuot' in component 'ships'"),
    Case("option-only-empty-items", None, (*BUILD, "--only", "ships:,"), 2, "'ships:,' is not COMPONENT:ID,ID"),
    Case("option-unknown", None, (*BUILD, "--colour"), 2, "No such option"),
    Case("option-players-zero", None, ("play", "demo", "--players", "0"), 2, "--players"),
    Case("option-games-negative", None, ("play", "demo", "--games", "-1"), 2, "--games"),
    Case("option-jobs-zero", None, ("play", "demo", "--jobs", "0"), 2, "--jobs"),
    Case("balance-no-engine", None, ("balance", "demo"), 2, "no reference engine for 'demo'"),
    Case("balance-batch-zero", None, ("balance", "demo", "--batch", "0"), 2, "--batch"),
    Case("balance-executor-unknown", None, ("balance", "demo", "--executor", "cloud"), 2, "--executor"),
    Case("play-scheduler-not-dask", None, ("play", "demo", "--executor", "local", "--scheduler", "x:1"), 2, "needs"),
    Case(
        "out-below-a-file",
        lambda ws: ws.write("blocker", "x"),
        ("build", "demo", "--out", "blocker/sub", "--quiet"),
        2,
        "cannot write",
    ),
    Case(
        "out-pdf-is-folder",
        lambda ws: (ws.out / "demo" / "ships.pdf").mkdir(parents=True),
        BUILD,
        2,
        "a folder of that name is in the way",
    ),
    Case("out-proc", None, ("build", "demo", "--out", "/proc/cardgen-test", "--quiet"), 2, "cannot write"),
    Case(
        "calibrate-below-a-file",
        lambda ws: ws.write("blocker", "x"),
        ("calibrate", "--out", "blocker/c.pdf"),
        2,
        "cannot write",
    ),
    # --- nothing half-done ---------------------------------------------------------------------------------------
    Case(
        "overflow-leaves-a-file-cardgen-did-not-write",  # its own are moved aside: tests/test_stale.py
        lambda ws: (
            ws.write("out/demo/ships.pdf", "an earlier build"),
            ship_field(ws, 'ability: "Draw a card when revealed.', 'ability: "' + "Long words here. " * 80),
        ),
        BUILD,
        1,
        "overflows its box",
        outputs=(
            "demo/PRINT.md",
            "demo/board.pdf",
            "demo/print-guide.pdf",
            "demo/ships.pdf",
            "demo/tokens.pdf",
        ),
    ),
    Case("pages-limit", None, ("--limit", "pages_per_file=1", *BUILD), 2, "more than 1 pages in one file"),
    Case(
        "late-layout-error-writes-nothing",
        lambda ws: ws.edit("templates/demo/board.xml.j2", "{{ card.title }}", "{{ card.nope }}"),
        BUILD,
        2,
        "'nope' is undefined",
    ),
    # --- numbers from outside: 5,000 digits (past Python's int-digit limit), digits int() cannot read ----------
    Case(
        "odds-count-digits",
        se4x,
        (*SE4X_ODDS, f"{DIGITS} DD", "--defender", "1 BB"),
        2,
        f"--attacker: a group holds 1–6 ships, not {DIGITS[:23]}… (5,000 characters)",
    ),
    Case(
        "odds-tech-digits",
        se4x,
        (*SE4X_ODDS, "1 DD", "--defender", "1 BB", "--attacker-tech", f"attack={DIGITS}"),
        2,
        "--attacker-tech: attack goes up to 3, not 9999",
    ),
    Case(
        "odds-unicode-digit",
        rift,
        (*RIFT_ODDS, "² fighter", "--defender", "1 carrier"),
        2,
        "--attacker: '² fighter' is not a count and a unit type",
    ),
    Case(
        "odds-count-memory",
        rift,
        (*RIFT_ODDS, "99999999999 fighter", "--defender", "1 carrier"),
        2,
        "--attacker: 99999999999 units; the exact calculator takes at most 16 a side",
    ),
    Case(
        "option-games-digits",
        None,
        ("play", "demo", "--games", DIGITS),
        2,
        f"'--games': '{DIGITS[:23]}… (5,000 characters)' is not a whole number from 1 to 100,000,000",
    ),
    Case(
        "option-mcts-budget-digits",
        None,
        ("play", "demo", "--agents", f"mcts:{DIGITS}"),
        2,
        "only mcts takes a budget, iterations from 1 to 1,000,000",
    ),
    Case(
        "yaml-number-digits",
        lambda ws: ship_field(ws, "    cost: 2\n", f"    cost: {DIGITS}\n"),
        LIST,
        2,
        "ships.yaml:7: cards[0].cost: invalid value: a whole number of 5,000 digits",
    ),
    Case(
        "replay-header-digits",
        lambda ws: ws.write("game.jsonl", f'{{"game": "demo", "players": 2, "seed": {DIGITS}, "index": 0}}\n'),
        ("replay", "game.jsonl"),
        2,
        "game.jsonl:1: a number of more than 4,300 digits",
    ),
    # --- --tts-base-url: http(s) with a host, or file: inside the output folder; only with --format tts ---------
    Case(
        "tts-url-javascript",
        None,
        (*BUILD, "--format", "tts", "--tts-base-url", "javascript:alert(1)//"),
        2,
        "--tts-base-url: 'javascript:alert(1)//' is not an http(s) or file: address",
    ),
    Case(
        "tts-url-file-outside",
        None,
        (*BUILD, "--format", "tts", "--tts-base-url", "file:///etc/"),
        2,
        "--tts-base-url: 'file:///etc/' is outside the output folder",
    ),
    Case(
        "tts-url-file-escape",
        None,
        (*BUILD, "--format", "tts", "--tts-base-url", "file:out/../outside/"),
        2,
        "--tts-base-url: 'file:out/../outside/' is not an absolute file: address",
    ),
    Case(
        "tts-url-not-url",
        None,
        (*BUILD, "--format", "tts", "--tts-base-url", "my images"),
        2,
        "--tts-base-url: 'my images' is not a URL",
    ),
    Case(
        "tts-url-no-host",
        None,
        (*BUILD, "--format", "tts", "--tts-base-url", "https:///images/"),
        2,
        "--tts-base-url: 'https:///images/' is not an address with a host",
    ),
    Case(
        "tts-url-without-tts",
        None,
        (*BUILD, "--tts-base-url", "https://example.org/demo/"),
        2,
        "--tts-base-url is for --format tts, not --format pdf",
    ),
    # --- --stamp: blamed for what it holds, not the first card's layout ------------------------------------------
    Case(
        "stamp-control",
        None,
        (*BUILD, "--stamp", "v1\x07\x1b[2J"),
        2,
        "'--stamp': 'v1\\x07\\x1b[2J' holds the control character '\\x07' (character 3)",
    ),
    Case(
        "stamp-line-break",
        None,
        ("preview", "demo", "scout", "--stamp", "v1\nv2"),
        2,
        "'--stamp': 'v1\\nv2' holds the control character '\\n' (character 3)",
    ),
    Case(
        "stamp-no-glyph",
        None,
        (*BUILD, "--stamp", "v1 漢"),
        2,
        "--stamp: the font of 'body' has no glyph for '漢' (U+6F22) in demo",
    ),
    Case("stamp-unknown-icon", None, (*BUILD, "--stamp", "v{nope}"), 2, "--stamp: unknown icon '{nope}'"),
    # --- big work: refused before it is allocated, with the limit and what to change ----------------------------
    Case(
        "preview-grid-pixels",
        lambda ws: many_ships(ws, 600),
        ("preview", "demo", "--grid", "ships", "--dpi", "600"),
        2,
        "preview --grid ships: a sheet of 600 faces at 600 dpi is 2,243,340,000 pixels, more than the limit of "
        "100,000,000 (preview_pixels): lower --dpi (it fits at 122 dpi), or raise the limit with --limit "
        "preview_pixels=N",
    ),
    Case(
        "preview-item-pixels",
        None,
        ("--limit", "preview_pixels=1000", "preview", "demo", "scout"),
        2,
        "preview scout: its front at 150 dpi is 230,571 pixels, more than the limit of 1,000 (preview_pixels): "
        "it fits at no --dpi, or raise the limit",
    ),
    # --- cardgen.toml ------------------------------------------------------------------------------------------
    Case(
        "project-nested-deep",
        lambda ws: ws.write("cardgen.toml", "a = " + "[" * 100_000 + "]" * 100_000 + "\n"),
        LIST,
        2,
        "cardgen.toml: invalid TOML (arrays or inline tables nest too deeply)",
    ),
    Case(
        "project-tables-nested-deep",
        lambda ws: ws.write("cardgen.toml", "a = " + "{b = " * 50_000 + "1" + "}" * 50_000 + "\n"),
        LIST,
        2,
        "nest too deeply",
    ),
    Case(
        "project-too-large",
        lambda ws: ws.write("cardgen.toml", "# " + "x" * 1_000_000 + "\n"),
        LIST,
        2,
        "cardgen.toml: the project file is larger than the limit of 1,000,000 bytes",
    ),
    # --- what cardgen prints of a stranger's data: control characters shown escaped, never acted on ---------------
    Case(
        "ansi-in-error",
        lambda ws: ship_field(ws, "faction: Union", 'faction: "Union\\e]0;pwned\\a\\e[2J"'),
        LIST,
        2,
        ("ships.yaml:10", "Union\\x1b]0;pwned\\x07\\x1b[2J"),
    ),
    Case(
        "ansi-in-listing",
        lambda ws: game_field(ws, "title: Demo Skirmish", 'title: "Demo\\e[31m\\rSkirmish\\u202e"'),
        LIST,
        0,
        "demo  Demo\\x1b[31m\\rSkirmish\\u202e  (2–4 players)",
    ),
    # --- a rules file (engine.yaml): read like any data, never run as Python, bounded ---------------------------------
    Case("engine-plays", engine, PLAY, 0, ("demo: 2 games", "endings: done 2")),
    Case("engine-not-a-mapping", lambda ws: ws.write("data/demo/engine.yaml", "- a\n"), PLAY, 2, "must be a mapping"),
    Case(
        "engine-unknown-section",
        lambda ws: engine(ws, "zones:", "zonez:"),
        PLAY,
        2,
        "engine.yaml:2: zonez: unknown field 'zonez' (did you mean 'zones'?)",
    ),
    Case(
        "engine-unknown-step",
        lambda ws: engine(ws, "  - draw: deck", "  - drew: deck"),
        PLAY,
        2,
        "engine.yaml:12: turn[0]: unknown step 'drew' (did you mean 'draw'?)",
    ),
    Case(
        "engine-unknown-name",
        lambda ws: engine(ws, "if: not deck", "if: not dek"),
        PLAY,
        2,
        "turn[2].if: unknown name 'dek' (did you mean 'deck'?)",
    ),
    Case(
        "engine-unclosed-expression",
        lambda ws: engine(ws, "if: not deck", "if: (not deck"),
        PLAY,
        2,
        "turn[2].if: expected ')', found the end",
    ),
    Case(
        "engine-deep-expression",
        lambda ws: engine(ws, "if: not deck", "if: " + "(" * 200 + "1" + ")" * 200),
        PLAY,
        2,
        "nested more than 60 levels",
    ),
    Case(
        "engine-loop-forever",
        lambda ws: engine_turn(ws, "  - while: true\n    do: [{add: {credits: 1}}]\n"),
        PLAY,
        2,
        "turn[0].while: the rules ran 200,000 steps without asking a player anything",
    ),
    Case(
        "engine-loops-in-an-expression",
        lambda ws: engine_turn(ws, '  - let: {n: "sum(1 for a in range(100000) for b in range(100000))"}\n'),
        ("--limit", "rules_items=2000000", *PLAY),
        2,
        "went through more than 2,000,000 items",
    ),
    Case(
        "engine-list-doubling",
        lambda ws: engine_turn(
            ws, '  - set: {credits: "[1]"}\n  - while: true\n    do: [{set: {credits: credits + credits}}]\n'
        ),
        PLAY,
        2,
        "a list or text of 1,048,576 items",
    ),
    Case(
        "engine-number-squared",
        lambda ws: engine_turn(
            ws, "  - set: {credits: 3}\n  - while: true\n    do: [{set: {credits: credits * credits}}]\n"
        ),
        PLAY,
        2,
        "a number of more than 19,000 digits",
    ),
    Case(
        "engine-recursive-function",
        lambda ws: (
            engine_turn(ws, '  - let: {x: "f(1)"}\n'),
            ws.edit("data/demo/engine.yaml", "turn:", "functions:\n  f: {params: [n], value: f(n)}\nturn:"),
        ),
        PLAY,
        2,
        "functions.f.value: while playing: maximum recursion depth",
    ),
    Case(
        "engine-text-that-looks-like-code",
        lambda ws: engine(ws, "then: [{end: done}]", "then: [{end: \"'); __import__('os').system('touch PWN'); ('\"}]"),
        PLAY,
        0,
        "__import__",
    ),
    Case(
        "engine-dunder-attribute",
        lambda ws: engine(ws, "if: not deck", "if: deck.__class__"),
        PLAY,
        2,
        "unknown attribute '__class__'",
    ),
    Case(
        "engine-huge-zone-count",
        lambda ws: engine(ws, "  hand: {each: player, visible: owner}", "  hand: {each: player, count: 100000000}"),
        PLAY,
        2,
        "count: must be a whole number from 1 to 10,000",
    ),
    Case("engine-alias-bomb", lambda ws: ws.write("data/demo/engine.yaml", BOMB), PLAY, 2, "aliases expand"),
    Case(
        "engine-fifo",
        lambda ws: fifo(ws, "data/demo/engine.yaml"),
        PLAY,
        2,
        "data/demo/engine.yaml: not a regular file (a FIFO)",
    ),
    Case(
        "engine-outside-the-folder",
        lambda ws: (
            ws.write("outside/engine.yaml", DEMO_ENGINE),
            link(ws, "data/demo/engine.yaml", "../../outside/engine.yaml"),
        ),
        PLAY,
        2,
        "data/demo/engine.yaml: lies outside the game folder (a symbolic link)",
    ),
    Case(
        "engine-unknown-card-verb",
        lambda ws: (engine(ws, "score: credits", "score: credits\neffects:\n  fields: [ability]\n  verbs: {}"),),
        PLAY,
        0,
        "ships.yaml:11: scout.ability: effect 'Draw a card when revealed. Costs {credits} less near a ",
    ),
]


def test_interrupted_build_writes_nothing(tmp_path: Path) -> None:
    """Ctrl-C half-way through a build: exit 130, a one-line message, no file (finished or partial) in the output."""
    import signal
    import subprocess
    import sys
    import time

    from cardgen.paths import default_data_dir

    for attempt in range(5):  # a build that ended before the interrupt reached it proves nothing: again
        out = tmp_path / f"out{attempt}"
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cardgen",
                "--data-dir",
                str(default_data_dir()),
                "build",
                "battlefield-space",
                "scifi-domains",
                "--jobs",
                "2",
                "--out",
                str(out),
                "-q",
            ],  # two games: the workers are interrupted too
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while not any(out.rglob("*.part")) and time.monotonic() < deadline:  # staged files are being written
            time.sleep(0.02)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
        if process.returncode != 0:
            break
    assert process.returncode == 130, err
    assert err.decode().strip().splitlines()[-1] == "cardgen: interrupted; nothing was written"
    assert [p for p in out.rglob("*") if p.is_file()] == []


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return make_workspace(tmp_path / "ws")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_input(case: Case, workspace: Workspace) -> None:
    if case.edit is not None:
        case.edit(workspace)
    outcome = run_cardgen(workspace, list(case.args))
    shown = f"exit {outcome.code}\nstdout: {outcome.out[-1500:]}\nstderr: {outcome.err[-1500:]}"
    assert outcome.code == case.code, shown
    assert "Traceback" not in outcome.err and "internal error" not in outcome.err, shown
    expected = (case.expect,) if isinstance(case.expect, str) else case.expect
    for text in expected:
        assert text in (outcome.err if case.code == 2 else outcome.out + outcome.err), shown
    if case.code == 2:
        errors = [line for line in outcome.err.splitlines() if line.startswith("cardgen: error: ")]
        assert errors and all(line.startswith("cardgen: ") for line in outcome.err.strip().splitlines()), shown
    touched = [c for c in outcome.changed_outside_out if not c.startswith(("blocker", "data/demo/__pycache__"))]
    assert touched == [], f"files outside the output folder changed: {touched}"
    assert outcome.files_in_out == list(case.outputs), f"output left behind: {outcome.files_in_out}"
    # Jinja's per-user cache of compiled layouts stays by design (render/layouts.py, `_compiled_layouts`)
    left = [name for name in outcome.left_in_temp if not name.startswith("_jinja2-cache-")]
    assert left == [], f"left in the temporary folder: {left}"
    assert outcome.seconds < SECONDS, f"took {outcome.seconds:.1f} s"
    assert outcome.peak_mb < case.megabytes, f"peak {outcome.peak_mb:.0f} MB"
    assert "TOP-SECRET" not in outcome.out + outcome.err


def test_limits_from_environment_and_option(monkeypatch: pytest.MonkeyPatch) -> None:
    """`CARDGEN_LIMITS` sets limits for a shell; `--limit` overrides it for one run; both are validated."""
    from cardgen import limits
    from cardgen.errors import DataError

    monkeypatch.setenv("CARDGEN_LIMITS", "face_seconds=9, copies_per_game=1e6")
    try:
        assert limits.configure().copies_per_game == 1_000_000
        assert limits.configure(["face_seconds=1.5"]).face_seconds == 1.5
        assert limits.current().copies_per_game == 1_000_000
        monkeypatch.setenv("CARDGEN_LIMITS", "face_secs=9")
        with pytest.raises(DataError, match="CARDGEN_LIMITS: unknown limit 'face_secs' \\(did you mean 'face_seconds'"):
            limits.configure()
    finally:
        monkeypatch.delenv("CARDGEN_LIMITS")
        limits.configure()


def test_control_characters_are_shown_escaped() -> None:
    """What cardgen prints keeps its line breaks and tabs; every other character that could act on a terminal (C0,
    DEL, C1 such as the one-byte CSI, bidirectional overrides) is written out."""
    from cardgen.terminal import shown

    assert shown("a\tb\nc") == "a\tb\nc"
    assert shown("\x1b[2J\r\x00\x7f\x9b\u202eé✓") == "\\x1b[2J\\r\\0\\x7f\\x9b\\u202eé✓"
