"""Space Empires 4X's own checks: rules that tie several facts and components together.

Each function receives the loaded game and its check (from rules.yaml) and yields one dict per violation
(`expected`, `actual`, `where`). Every figure comes from the game's facts; nothing here repeats a rulebook number.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator
from typing import Any

Violation = dict[str, Any]

STATS = ("class", "attack", "defense", "hull")
MAP_HOME = {"r": "red", "b": "blue", "g": "green", "y": "yellow"}
MAP_DEEP = "."
MAP_NONE = "-"


def _where(item, name: str | None = None) -> str:
    if name is None:
        return f"{item.where.file}:{item.where.line} ({item.id})"
    where = item.field_where(name)
    return f"{where.file}:{where.line} ({item.id}.{name})"


def _facts_where(game, name: str) -> str:
    doc = game.rules_doc
    line = doc.line_of(("facts", name)) if doc else None
    return f"rules.yaml:{line} (facts.{name})" if line else f"rules.yaml (facts.{name})"


def counters_per_player(game, check) -> Iterator[Violation]:
    """Every player colour has the same number of counters in a component, the number a fact names."""
    component = game.component(check.args["component"])
    expected = game.fact(check.args["expect"])
    found = Counter()
    for item in component.items:
        found[item.fields.get("player")] += item.count
    for player in game.fact("player_colours"):
        if found[player] != expected:
            yield {"expected": f"{expected} counters for {player}", "actual": found[player],
                   "where": f"{component.ref.file} ({player})"}  # fmt: skip


def unit_statistics(game, check) -> Iterator[Violation]:
    """Each ship counter prints the class, attack, defense and hull of its unit on the Ship Technology chart."""
    units = game.fact("units")
    for item in game.component("ship-counters").items:
        chart = units.get(item.fields["unit"], {})
        for name in STATS:
            if item.fields.get(name) != chart.get(name):
                yield {"expected": f"{name} {chart.get(name)} ({item.fields['unit']} on the chart)",
                       "actual": item.fields.get(name), "where": _where(item, name)}  # fmt: skip
        if item.fields["rules"] != chart.get("rules"):
            yield {"expected": f"rules {chart.get('rules')}", "actual": item.fields["rules"],
                   "where": _where(item, "rules")}  # fmt: skip


def group_numbers(game, check) -> Iterator[Violation]:
    """Numbered units carry group numbers 1..limit once per player; the other units carry none."""
    numbered = set(game.fact("numbered_units"))
    limits = game.fact("counter_limits")
    for unit in sorted(numbered & set(game.fact("single_ship_units"))):
        yield {
            "expected": "single ships carry no group number",
            "actual": unit,
            "where": "rules.yaml (facts.numbered_units)",
        }
    seen: dict[tuple[str, str], list[int]] = {}
    for item in game.component("ship-counters").items:
        unit, group = item.fields["unit"], item.fields.get("group")
        if unit in numbered:
            if group is None or item.count != 1:
                yield {"expected": f"{unit} counters one by one with a group number", "actual": f"group {group}, "
                       f"{item.count} copies", "where": _where(item, "group")}  # fmt: skip
                continue
            seen.setdefault((item.fields["player"], unit), []).append(group)
        elif group is not None:
            yield {"expected": f"no group number on {unit}", "actual": group, "where": _where(item, "group")}
    for (player, unit), groups in sorted(seen.items()):
        wanted = list(range(1, limits[unit] + 1))
        if sorted(groups) != wanted:
            yield {"expected": f"{player} {unit} groups {wanted}", "actual": sorted(groups),
                   "where": "ship-counters.yaml"}  # fmt: skip


def starting_forces(game, check) -> Iterator[Violation]:
    """The starting units exist as counters: each kind within its limit, grouped starting units within a group."""
    limits = game.fact("counter_limits")
    groups = game.fact("starting_groups")
    largest = game.fact("group_size.max")
    for unit, number in game.fact("starting_forces").items():
        counters_needed = groups.get(unit, number)
        if unit not in limits or counters_needed > limits[unit]:
            yield {"expected": f"at most {limits.get(unit, 0)} {unit} counters", "actual": counters_needed,
                   "where": _facts_where(game, "starting_forces")}  # fmt: skip
        if unit in groups and math.ceil(number / groups[unit]) > largest:
            yield {"expected": f"groups of at most {largest}", "actual": f"{number} {unit} in {groups[unit]} group(s)",
                   "where": _facts_where(game, "starting_groups")}  # fmt: skip
    buildable = set(game.fact("units"))
    for unit in game.fact("initial_buildable"):
        if unit not in buildable:
            yield {"expected": "a unit on the chart", "actual": unit, "where": _facts_where(game, "initial_buildable")}


def group_size_markers(game, check) -> Iterator[Violation]:
    """Every player has the designed number of markers of each size from the smallest to the largest group."""
    each = game.fact("group_size_markers_per_value")
    sizes = range(game.fact("group_size.min"), game.fact("group_size.max") + 1)
    found: Counter = Counter()
    for item in game.component("group-size-markers").items:
        found[(item.fields["player"], item.fields["size"])] += item.count
    for player in game.fact("player_colours"):
        for size in sizes:
            if found[(player, size)] != each:
                yield {"expected": f"{each} {player} markers of size {size}", "actual": found[(player, size)],
                       "where": "group-size-markers.yaml"}  # fmt: skip


def step_counters(game, check) -> Iterator[Violation]:
    """A colony counter's sides are neighbouring growth steps; each player's Homeworld sides cover every step once."""
    growth = game.fact("colony_growth")
    steps = game.fact("homeworld_steps")
    homeworld_sides: dict[str, list[int]] = {}
    for item in game.component("colony-counters").items:
        front, back = item.fields["cp"], item.fields["back_cp"]
        if item.fields["kind"] == "colony":
            if front not in growth or back not in growth or abs(growth.index(front) - growth.index(back)) != 1:
                yield {"expected": f"neighbouring steps of {growth}", "actual": f"{front}|{back}",
                       "where": _where(item, "cp")}  # fmt: skip
        else:
            homeworld_sides.setdefault(item.fields["player"], []).extend([front, back] * item.count)
            if front not in steps or back not in steps or steps.index(back) - steps.index(front) != 1:
                yield {"expected": f"a step of {steps} and the next one on its back", "actual": f"{front}|{back}",
                       "where": _where(item, "cp")}  # fmt: skip
    if game.fact("homeworld_income") != steps[0]:
        yield {"expected": f"a Homeworld starting at {steps[0]} CP", "actual": game.fact("homeworld_income"),
               "where": _facts_where(game, "homeworld_income")}  # fmt: skip
    for player in game.fact("player_colours"):
        if sorted(homeworld_sides.get(player, []), reverse=True) != steps:
            yield {"expected": f"{player} Homeworld sides {steps}", "actual": homeworld_sides.get(player, []),
                   "where": "colony-counters.yaml"}  # fmt: skip
    for fact, values in (("colony_hit_step", growth), ("homeworld_hit_step", steps)):
        step = game.fact(fact)
        if any(abs(a - b) != step for a, b in itertools.pairwise(values)):
            yield {"expected": f"steps {step} apart", "actual": values, "where": _facts_where(game, fact)}


def marker_sets(game, check) -> Iterator[Violation]:
    """Markers of a component belong to its set; Home System markers have an owner, Deep Space markers none."""
    wanted = check.args["set"]
    for item in game.component(check.args["component"]).items:
        if item.fields["set"] != wanted:
            yield {"expected": f"set {wanted}", "actual": item.fields["set"], "where": _where(item, "set")}
        has_owner = item.fields.get("player") is not None
        if has_owner != (wanted == "home"):
            yield {"expected": "an owner" if wanted == "home" else "no owner (white border)",
                   "actual": item.fields.get("player"), "where": _where(item)}  # fmt: skip
        if (item.fields["kind"] == "minerals") != (item.fields.get("cp") is not None):
            yield {"expected": "a CP value on Minerals only", "actual": item.fields.get("cp"), "where": _where(item)}
        numbered = item.fields["kind"] in ("warp-point", "doomsday-machine")
        if numbered != (item.fields.get("number") is not None):
            yield {"expected": "a number on Warp Points and Doomsday Machines only",
                   "actual": item.fields.get("number"), "where": _where(item)}  # fmt: skip


def terrain_kinds(game, check) -> Iterator[Violation]:
    """The two marker sets hold as many kinds of terrain as the game names, each with a printed name."""
    kinds = set(game.fact("home_system_markers")) | set(game.fact("deep_space_markers"))
    if len(kinds) != game.fact("terrain_kinds"):
        yield {
            "expected": game.fact("terrain_kinds"),
            "actual": len(kinds),
            "where": _facts_where(game, "terrain_kinds"),
        }
    missing = kinds - set(game.fact("marker_names"))
    if missing:
        yield {"expected": "a printed name for every kind", "actual": sorted(missing),
               "where": _facts_where(game, "marker_names")}  # fmt: skip


def movement_table(game, check) -> Iterator[Violation]:
    """Movement levels run from the starting level to the last one bought, one entry per turn, never slower."""
    table = game.fact("movement_table")
    research = game.fact("research.movement")
    turns = game.fact("turns_per_round")
    levels = [research["start"], *research["costs"]]
    where = _facts_where(game, "movement_table")
    if sorted(table) != levels:
        yield {"expected": f"levels {levels}", "actual": sorted(table), "where": where}
    previous = None
    for level in sorted(table):
        moves = table[level]
        if len(moves) != turns:
            yield {"expected": f"{turns} turns at level {level}", "actual": len(moves), "where": where}
        if moves != sorted(moves) or (previous and any(a < b for a, b in zip(moves, previous, strict=False))):
            yield {"expected": f"level {level} no slower than the level before", "actual": moves, "where": where}
        previous = moves


def wreck_technologies(game, check) -> Iterator[Violation]:
    """Each Space Wreck result is a technology with a maximum (so 'already maxed out' can be judged)."""
    research, upgrades = game.fact("research"), game.fact("technology_upgrades")
    for tech in game.fact("space_wreck_table"):
        if tech not in research or tech not in upgrades:
            yield {"expected": "a basic technology", "actual": tech, "where": _facts_where(game, "space_wreck_table")}


def research_levels(game, check) -> Iterator[Violation]:
    """Each technology's levels follow on from its start with no gap, as many as the rules allow upgrades."""
    research = game.fact("research")
    upgrades = game.fact("technology_upgrades")
    where = _facts_where(game, "research")
    for tech, entry in research.items():
        levels = list(entry["costs"])
        if levels != list(range(entry["start"] + 1, entry["start"] + 1 + len(levels))):
            yield {"expected": f"{tech} levels in order from {entry['start'] + 1}", "actual": levels, "where": where}
        if tech in upgrades and len(levels) != upgrades[tech]:
            yield {"expected": f"{upgrades[tech]} levels of {tech}", "actual": len(levels), "where": where}
        if any(not isinstance(cost, int) or cost <= 0 for cost in entry["costs"].values()):
            yield {"expected": f"positive CP costs for {tech}", "actual": entry["costs"], "where": where}
    missing = set(upgrades) - set(research)
    if missing or set(game.fact("research_order")) != set(research):
        yield {"expected": "every technology on the chart once", "actual": sorted(missing), "where": where}
    yard = research.get("ship-yard", {})
    capacity = game.fact("ship_yard_capacity")
    if sorted(capacity) != [yard.get("start"), *yard.get("costs", {})]:
        yield {"expected": "a capacity for every Ship Yard level", "actual": sorted(capacity),
               "where": _facts_where(game, "ship_yard_capacity")}  # fmt: skip


def maintenance_exempt(game, check) -> Iterator[Violation]:
    """Units the rules exempt from maintenance pay none on the chart; the others pay their hull size."""
    units = game.fact("units")
    for unit in game.fact("maintenance_exempt"):
        if units.get(unit, {}).get("maintenance", True):
            yield {"expected": f"{unit} without maintenance", "actual": "maintenance",
                   "where": _facts_where(game, "units")}  # fmt: skip
    if set(game.fact("unit_order")) != set(units) or set(game.fact("unit_notes")) != set(units):
        yield {"expected": "every unit once in unit_order and unit_notes", "actual": sorted(units),
               "where": _facts_where(game, "unit_order")}  # fmt: skip


def _map_counts(rows: list[str]) -> Counter:
    return Counter(ch for row in rows for ch in row)


def map_regions(game, check) -> Iterator[Violation]:
    """Each Home System is its Homeworld plus one hex per marker of its set; Deep Space takes the whole set."""
    rows = game.fact("map.rows")
    where = _facts_where(game, "map")
    counts = _map_counts(rows)
    allowed = {MAP_DEEP, MAP_NONE, *MAP_HOME, *(k.upper() for k in MAP_HOME)}
    if set(counts) - allowed:
        yield {"expected": f"only the characters {sorted(allowed)}", "actual": sorted(set(counts) - allowed),
               "where": where}  # fmt: skip
    for number, row in enumerate(rows):
        wanted = len(rows[0]) - (number % 2)
        if len(row) != wanted:
            yield {"expected": f"row {number + 1} of {wanted} hexes", "actual": len(row), "where": where}
    home = game.fact("home_system_total")
    for letter, player in MAP_HOME.items():
        if counts[letter] != home or counts[letter.upper()] != 1:
            yield {"expected": f"{player}: 1 Homeworld hex and {home} Home System hexes",
                   "actual": f"{counts[letter.upper()]} and {counts[letter]}", "where": where}  # fmt: skip
    if counts[MAP_DEEP] != game.fact("deep_space_total"):
        yield {"expected": f"{game.fact('deep_space_total')} Deep Space hexes", "actual": counts[MAP_DEEP],
               "where": where}  # fmt: skip
    low, high = game.players
    seats = game.fact("map_players")
    for players in range(low, high + 1):
        chosen = seats.get(players, [])
        if len(chosen) != players or not set(chosen) <= set(MAP_HOME.values()):
            yield {"expected": f"{players} Home Systems for {players} players", "actual": chosen,
                   "where": _facts_where(game, "map_players")}  # fmt: skip


def map_fits(game, check) -> Iterator[Violation]:
    """A marker fits inside a map hex, and the hex grid fits the board."""
    hex_map = game.fact("map")
    flat = hex_map["hex_flat"]
    radius = flat / math.sqrt(3)
    marker = game.component(check.args["marker"]).size
    square = 2 * radius / (1 + 1 / math.sqrt(3))  # the largest upright square inside a pointy-top hex
    if marker is None or square < max(marker.width, marker.height):
        yield {"expected": f"a marker of at most {square:.1f} mm", "actual": marker, "where": _facts_where(game, "map")}
    board = game.component("map").size
    rows = hex_map["rows"]
    width = len(rows[0]) * flat
    height = (len(rows) - 1) * 1.5 * radius + 2 * radius
    if board is None or width > board.width or height > board.height:
        yield {"expected": f"a board of at least {width:.0f} x {height:.0f} mm", "actual": board,
               "where": "map.yaml"}  # fmt: skip


def production_rows(game, check) -> Iterator[Violation]:
    """The production sheets number the Economic Phases 1..N once each, N the designed number of phases."""
    numbers: list[int] = []
    for item in game.component("production-sheet").items:
        first, count = item.fields.get("first_phase"), item.fields.get("phases")
        if first is None or count is None:
            yield {"expected": "first_phase and phases", "actual": "missing", "where": _where(item)}
            continue
        for _ in range(item.count):
            numbers.extend(range(first, first + count))
    total = game.fact("production_phases")
    if sorted(numbers) != list(range(1, total + 1)):
        yield {"expected": f"Economic Phases 1-{total} once each", "actual": f"{len(numbers)} rows",
               "where": "production-sheet.yaml"}  # fmt: skip
