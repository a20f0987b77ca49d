"""Battlefield: Space's column total, the Force the rules give a player's ships in one column (facts `abilities`):
read by the state, the greedy agent and the layouts (`model.FORMULAS`). A module of its own so the install compiles
it (`hatch_build.py`): a battle asks it for every column it decides."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardgen.engine.games.battlefield_space.model import Cards


def column_total(k: Cards, columns: list[list[int]], card: int) -> int:
    """The Force of one player's ships in column c with their abilities (facts `abilities`), without modifiers."""
    ships = [x for x in columns[card] if not k.modifier[x]]
    plain = k.plain
    if all(plain[x] for x in ships):  # the common case: no ability in the column
        force = k.force
        return sum(force[x] for x in ships)
    column_bonus = sum(k.value[x] for x in ships if k.ability[x] == "column_bonus")
    total = 0
    for x in ships:
        ability = k.ability[x]
        total += k.force[x] + column_bonus - (k.value[x] if ability == "column_bonus" else 0)
        if ability == "race_synergy_column":
            total += k.value[x] * sum(1 for y in ships if y != x and k.race[y] == k.race[x])
        elif ability == "race_synergy_battle":
            race = k.race[x]
            total += k.value[x] * sum(
                1 for col in columns for y in col if y != x and not k.modifier[y] and k.race[y] == race
            )
    return total
