"""YAML read from the parser's events (`yaml_source._streamed`) gives the document the composed tree gives
(`_composed`): the same values, the same line of every path, the same problems in the same order; and whatever
only the tree reads (anchors, merge keys, several documents, errors) is left to it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardgen.data import yaml_source
from cardgen.data.yaml_source import _composed, _streamed, parse_yaml

REPO = Path(__file__).resolve().parent.parent
SCALARS = [
    "Scout", "'quoted: text'", '"double \\u00e9"', "3", "010", "&anchored 5", "0x1F", "-2", "1_000", "2.5", ".inf",
    "1e3", "true", "no", "~", "null", "", "2026-11-29", "!!str 12", "!!int '12'", "!!int x", "!!float 1",
    "!!binary aGk=", "!foo bar",
    "9" * 5000, "|\n    two\n    lines", ">-\n    folded\n    text", "[1, 'a', {b: c}]", "{x: 1, y: [2, 3]}",
]  # fmt: skip
KEYS = ["name", "cost", "3", "true", "~", "'quoted'", "2.5", "!!int x", "é", "name", "cost", "9" * 5000, "[a, b]"]


def _document(rng: random.Random, depth: int = 0, indent: str = "") -> str:
    """A block mapping or sequence of random keys (duplicates too) and values, nested a few levels."""
    lines = []
    for _ in range(rng.randint(1, 5)):
        if rng.random() < 0.3:
            lines.append(f"{indent}- {rng.choice(SCALARS[:16])}")
            continue
        key = rng.choice(KEYS[:-1] if rng.random() < 0.97 else KEYS)
        if depth < 3 and rng.random() < 0.35:
            lines.append(f"{indent}{key}:")
            lines.append(_document(rng, depth + 1, indent + "  "))
        else:
            value = rng.choice(SCALARS)
            value = value.replace("\n", "\n" + indent) if value[:1] in "|>" else value
            lines.append(f"{indent}{key}: {value}")
    if any(line.lstrip().startswith("- ") for line in lines):  # a sequence: every line an item
        lines = [line if line.lstrip().startswith("- ") else f"{indent}- {line.strip()}" for line in lines]
    return "\n".join(lines)


def _same(text: str, path: Path) -> bool:
    """True when `_streamed` read the text (and then exactly as `_composed` does), False when it left it."""
    streamed = _streamed(text, path)
    if streamed is None:
        return False
    composed = _composed(text, path)
    assert streamed.value == composed.value
    assert streamed.lines == composed.lines
    assert streamed.problems == composed.problems
    return True


def test_random_documents_read_the_same_either_way() -> None:
    rng, read = random.Random(3), 0
    for _ in range(600):
        text = _document(rng)
        try:
            read += _same(text, Path("random.yaml"))
        except AssertionError:
            print(text)
            raise
    assert read >= 300  # most are read from the events: only non-plain keys and broken YAML are left to the tree


def test_every_yaml_file_of_the_repository_reads_the_same_either_way() -> None:
    files = sorted((REPO / "card_data").rglob("*.yaml")) + sorted((REPO / "tests").rglob("*.yaml"))
    read = sum(_same(path.read_text(), path) for path in files)
    assert read >= len(files) - 2 and len(files) > 50, (read, len(files))  # Space Empires 4X's counters use anchors


@pytest.mark.parametrize(
    "text",
    [
        "a: &x {b: 1}\nc: *x\n",  # anchors and aliases
        "a: &x 1\nb: &x 2\n",  # one anchor named twice (the composer refuses it)
        "base: {a: 1}\nmore:\n  <<: {b: 2}\n  c: 3\n",  # a merge key
        "=: value\n",  # the value key
        "? [a, b]\n: 1\n",  # a key that is a list
        "a: 1\n---\nb: 2\n",  # two documents
        "a: [1, 2\n",  # broken YAML
        "a: b: c\n",
    ],
)
def test_what_only_the_tree_reads_is_left_to_it(text: str) -> None:
    assert _streamed(text, Path("x.yaml")) is None


def test_nesting_past_the_limit_is_left_to_the_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from cardgen import limits

    monkeypatch.setattr(limits, "_active", replace(limits.current(), yaml_depth=3))
    assert _streamed("a: {b: {c: 1}}\n", Path("x.yaml")) is not None
    assert _streamed("a: {b: {c: {d: 1}}}\n", Path("x.yaml")) is None


def test_parse_yaml_reads_from_the_events_where_it_can(monkeypatch: pytest.MonkeyPatch) -> None:
    composed: list[str] = []
    real = yaml_source._composed
    monkeypatch.setattr(yaml_source, "_composed", lambda text, path: composed.append(text) or real(text, path))
    assert parse_yaml("cards:\n  - {id: a, cost: 1}\n", Path("x.yaml")).value == {"cards": [{"id": "a", "cost": 1}]}
    assert composed == []
    assert parse_yaml("a: &x 1\nb: *x\n", Path("x.yaml")).value == {"a": 1, "b": 1}
    assert len(composed) == 1
