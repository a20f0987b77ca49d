"""Star Commander's own checks: what rules.yaml's declarative checks cannot express.

Each function takes the loaded game and the check, and yields one violation (expected, actual, where) per problem.
Numbers come from the game's rules facts, never from this file.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cardgen.data.games import Game, Item
from cardgen.data.rules import Check

DOMAIN_DECKS = ("industry-deck", "statecraft-deck", "science-deck")
RESPONSE_MARK = "**Response:**"
NO_AMOUNT_EFFECTS = ("none", "claim")
GRID_FACT = "rules.yaml grid_by_players"


def _problem(expected: str, actual: Any, where: str) -> dict:
    return {"expected": expected, "actual": actual, "where": where}


def _where(item: Item, field: str) -> str:
    where = item.field_where(field)
    return f"{where.file}:{where.line} ({item.id}.{field})"


def _corners(size: int) -> list[tuple[int, int]]:
    last = size - 1
    return [(0, 0), (0, last), (last, last), (last, 0)]


def _reachable(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """On a grid joined only along diagonals, a ship can reach only cells of the same colour (row + column parity)."""
    return (a[0] + a[1]) % 2 == (b[0] + b[1]) % 2


def system_grid_fills(game: Game, check: Check) -> Iterator[dict]:
    """The System deck fills the largest grid; a Homeworld for each corner; every grid used seats its players."""
    systems = game.component("system-deck")
    where = f"{systems.items[0].where.file}:{systems.items[0].where.line}" if systems.items else "system-deck"
    largest = max(game.fact("grid_sizes"))
    if systems.count != largest * largest:
        yield _problem(f"{largest}×{largest} = {largest * largest} systems", systems.count, where)
    homeworlds = sum(item.count for item in systems.items if item.fields["homeworld"])
    corners = game.fact("corners")
    if homeworlds < corners:
        yield _problem(f"a Homeworld for each of {corners} corners", homeworlds, where)
    low, high = game.players
    if high > corners:
        yield _problem(f"at most {corners} players (one per corner)", high, "game.yaml players")
    by_players = game.fact("grid_by_players")
    diagonal = game.fact("adjacency") == "diagonal"
    for players in range(low, high + 1):
        size = by_players.get(players)
        if size not in game.fact("grid_sizes"):
            yield _problem(f"a recommended grid for {players} players", size, GRID_FACT)
            continue
        if size * size > systems.count:
            yield _problem(f"{size * size} systems for a {size}×{size} grid", systems.count, where)
        seats = _corners(size)[::2] if players == 2 else _corners(size)[:players]
        if diagonal and not all(_reachable(seats[0], seat) for seat in seats):
            expected = f"every Homeworld reachable by diagonal jumps with {players} players on {size}×{size}"
            yield _problem(expected, "corners on different diagonal lattices", GRID_FACT)


def explore_amounts(game: Game, check: Check) -> Iterator[dict]:
    """An explore effect that gives something names how much (1 or more); 'none' and 'claim' carry 0."""
    for item in game.component("system-deck").items:
        effect, amount = item.fields["explore_effect"], item.fields["explore_amount"]
        wanted_zero = effect in NO_AMOUNT_EFFECTS
        if wanted_zero and amount != 0:
            yield _problem(f"explore_amount 0 with '{effect}'", amount, _where(item, "explore_amount"))
        if not wanted_zero and amount < 1:
            yield _problem(f"explore_amount of at least 1 with '{effect}'", amount, _where(item, "explore_amount"))
        if item.fields["homeworld"] and effect != "none":
            yield _problem("no explore effect on a Homeworld (placed face up)", effect, _where(item, "explore_effect"))


def responses_say_so(game: Game, check: Check) -> Iterator[dict]:
    """A Command with timing 'response' opens its text with the Response mark, and no other card does."""
    for name in DOMAIN_DECKS:
        for item in game.component(name).items:
            marked = str(item.fields.get("text", "")).startswith(RESPONSE_MARK)
            is_response = item.fields.get("timing") == "response"
            if is_response and not marked:
                yield _problem(f"text starting '{RESPONSE_MARK}'", item.fields["text"][:40], _where(item, "text"))
            if marked and not is_response:
                field = "timing" if "timing" in item.fields else "text"
                yield _problem("timing: response", item.fields.get("timing", item.type), _where(item, field))
