"""The twins: Battlefield: Space and Scifi Domains described as data play the same games as their Python engines,
action by action (same seeds, random agents), and a twin changed by one rule no longer does. The full run, a
thousand games per player count, is benchmarks/described_twins.py (its figures: docs/MEASUREMENTS.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from described import compare, twin_data


@pytest.mark.parametrize(("game", "players", "games"), [("battlefield-space", 2, 12), ("scifi-domains", 2, 6),
                                                         ("scifi-domains", 3, 4), ("scifi-domains", 4, 4)])  # fmt: skip
def test_a_twin_plays_the_python_engines_games_action_by_action(
    tmp_path: Path, game: str, players: int, games: int
) -> None:
    data = twin_data(game, tmp_path)
    played, differences, violations = compare(game, data, players, games, start=100)
    assert played == games and differences == [] and violations == []


@pytest.mark.parametrize(
    ("game", "old", "new"),
    [
        # a tied column's Battle Modifier drawn in a tie would be placed, not counted 0 (rules.yaml: tie-break)
        ("battlefield-space", "card.type == 'modifier' and step != 6", "card.type == 'modifier'"),
        # a second unit of one type bought together at full price (fact multi_build_extra_price)
        ("scifi-domains", "(n - 1) * max(each, 1) * multi_build_extra_price", "(n - 1) * max(each, 1)"),
    ],
)
def test_a_twin_changed_by_one_rule_plays_other_games(tmp_path: Path, game: str, old: str, new: str) -> None:
    data = twin_data(game, tmp_path)
    rules = data / game / "engine.yaml"
    text = rules.read_text()
    assert old in text
    rules.write_text(text.replace(old, new))
    _, differences, _ = compare(game, data, 2, 12, start=100)
    assert differences, "the comparison did not notice a changed rule"


def test_the_comparison_names_cards_by_item_whichever_engine_numbered_them(tmp_path: Path) -> None:
    """A twin listing its components in another order numbers every card differently: its games are compared by
    the items shuffled and drawn, so they still match card for card."""
    data = twin_data("battlefield-space", tmp_path)
    rules = data / "battlefield-space" / "engine.yaml"
    text = rules.read_text()
    red, blue = "  - {component: red-deck, owner: 0}\n", "  - {component: blue-deck, owner: 1}\n"
    rules.write_text(text.replace(red + blue, blue + red))
    from cardgen.engine.runner import engine_for

    engine = engine_for("battlefield-space", str(data))
    assert engine.cards.component[0] == "blue-deck"  # the blue deck's cards come first now
    _, differences, _ = compare("battlefield-space", data, 2, 3)
    assert differences == []
