"""Rift Domination's own checks: what rules.yaml's declarative checks cannot express.

Each function takes the game and the check and yields violations as {"expected", "actual", "where"}: every unit a
faction starts with or builds has cards and tiles for six players, every skill a card names is defined, the planet
cards are the board's planets one to one, the condition tiles cover every planet that is not a starting planet at
six players, every faction can carry its infantry out of its home system, every faction's starting upgrades fit its
home planet beside the military base, and every faction's strength on paper lies within the designed budget.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

Found = Iterator[dict[str, Any]]


def _items(game, component: str):
    return game.component(component).items


def _copies(game, component: str, field: str) -> Counter:
    counts: Counter = Counter()
    for item in _items(game, component):
        counts[item.fields.get(field)] += item.count
    return counts


# --- units ----------------------------------------------------------------------------------------------------------


def unit_cards_per_type(game, check) -> Found:
    """One unit card of every type for each player: as many copies of each type as the game seats."""
    players = game.players[1]
    for unit_type, copies in sorted(_copies(game, "unit-cards", "unit_type").items()):
        if copies != players:
            where = next(str(i.where) for i in _items(game, "unit-cards") if i.fields["unit_type"] == unit_type)
            yield {"expected": f"{players} '{unit_type}' cards (one per player)", "actual": copies, "where": where}


def unit_tiles_by_type(game, check) -> Found:
    """Each colour has the designed number of unit tiles of each type (facts unit_tiles_per_colour)."""
    wanted = game.fact("unit_tiles_per_colour")
    per_colour: dict[str, Counter] = {}
    for item in _items(game, "unit-tiles"):
        per_colour.setdefault(item.fields["player"], Counter())[item.fields["unit_type"]] += item.count
    for colour in game.fact("colours"):
        have = per_colour.get(colour, Counter())
        if dict(have) != wanted:
            diff = {t: have.get(t, 0) for t in sorted(set(have) | set(wanted)) if have.get(t, 0) != wanted.get(t, 0)}
            yield {"expected": {t: wanted.get(t, 0) for t in diff}, "actual": diff, "where": f"unit-tiles ({colour})"}


def skills_defined(game, check) -> Found:
    """Every skill a unit card names is one of the rulebook's skills (facts skills), with a name and a text."""
    skills, names, texts = game.fact("skills"), game.fact("skill_names"), game.fact("skill_texts")
    for skill in sorted(set(skills) ^ set(names) | set(skills) ^ set(texts)):
        yield {
            "expected": "every skill with its numbers, name and text",
            "actual": skill,
            "where": "rules.yaml: facts.skills",
        }
    for item in _items(game, "unit-cards"):
        for skill in item.fields["skills"]:
            if skill not in skills:
                yield {"expected": f"a skill of {sorted(skills)}", "actual": skill, "where": str(item.where)}


# --- factions -------------------------------------------------------------------------------------------------------


def starting_units_exist(game, check) -> Found:
    """A faction's starting units have unit cards for every player and enough tiles in one colour."""
    cards = _copies(game, "unit-cards", "unit_type")
    tiles = game.fact("unit_tiles_per_colour")
    for item in _items(game, "faction-sheets"):
        for unit_type, number in item.fields["starting_units"].items():
            if cards.get(unit_type, 0) < game.players[1]:
                yield {"expected": f"{game.players[1]} unit cards '{unit_type}'", "actual": cards.get(unit_type, 0),
                       "where": f"{item.where} (starting_units)"}  # fmt: skip
            elif tiles.get(unit_type, 0) < number:
                yield {"expected": f"at least {number} '{unit_type}' tiles a colour", "actual": tiles.get(unit_type, 0),
                       "where": f"{item.where} (starting_units)"}  # fmt: skip


def factions_can_carry(game, check) -> Found:
    """A faction's infantry leave their home system only aboard a unit with capacity (the flagship card's 'place
    used by this unit when carried'): each faction starts with one or may recruit one."""
    capacity = {i.fields["unit_type"]: i.fields["capacity"] for i in _items(game, "unit-cards")}
    for item in _items(game, "faction-sheets"):
        kinds = [*item.fields["starting_units"], *item.fields["buildable"]]
        if not any(capacity.get(k, 0) > 0 for k in kinds):
            yield {"expected": "a unit with capacity among the starting or buildable units", "actual": kinds,
                   "where": f"{item.where} (buildable)"}  # fmt: skip


def starting_upgrades_exist(game, check) -> Found:
    upgrades = game.fact("upgrades")
    for item in _items(game, "faction-sheets"):
        for upgrade in item.fields["starting_upgrades"]:
            if upgrade not in upgrades:
                yield {
                    "expected": f"a planet upgrade of {sorted(upgrades)}",
                    "actual": upgrade,
                    "where": str(item.where),
                }


def home_upgrades_fit(game, check) -> Found:
    """A faction's starting upgrades and the military base every player places on the home planet fit the home
    planet's slots ('Players can build two planet upgrades on every planet'), with the faction's `upgrade-slots`."""
    slots = game.fact("upgrade_slots")
    for item in _items(game, "faction-sheets"):
        extra = sum(int(e.split()[1]) for e in item.fields.get("effects", []) if e.split()[0] == "upgrade-slots")
        held = 1 + sum(item.fields["starting_upgrades"].values())  # the military base and the faction's upgrades
        if held > slots + extra:
            yield {
                "expected": f"at most {slots + extra} upgrades on the home planet (the military base included)",
                "actual": f"{item.fields['name']}: {held}",
                "where": f"{item.where} (starting_upgrades)",
            }


def strength(game, fields: dict[str, Any]) -> int:
    """A faction's strength on paper (facts strength_budget): units and upgrades at cost, resources, the skill's
    designed worth, roster expansions and income."""
    budget = game.fact("strength_budget")
    cost = {item.fields["unit_type"]: item.fields["cost"] for item in _items(game, "unit-cards")}
    upgrades = game.fact("upgrades")
    units = sum(cost.get(unit, 0) * number for unit, number in fields["starting_units"].items())
    built = sum(
        upgrades[name]["cost"] * number for name, number in fields["starting_upgrades"].items() if name in upgrades
    )
    growth = fields["roster_expansions"] * budget["roster_expansion"] + fields["income"] * budget["income"]
    return units + fields["starting_resources"] * budget["resource"] + built + fields["skill_value"] + growth


def faction_strength(game, check) -> Found:
    budget = game.fact("strength_budget")
    for item in _items(game, "faction-sheets"):
        value = strength(game, item.fields)
        if not budget["min"] <= value <= budget["max"]:
            yield {"expected": f"strength {budget['min']}–{budget['max']}", "actual": f"{item.fields['name']}: {value}",
                   "where": str(item.where)}  # fmt: skip


def vespians_as_printed(game, check) -> Found:
    """The Vespians' sheet carries exactly what the rulebook prints (facts vespians)."""
    printed = game.fact("vespians")
    sheet = next((i for i in _items(game, "faction-sheets") if i.fields["name"] == "Vespians"), None)
    if sheet is None:
        yield {"expected": "a Vespians faction sheet", "actual": "none", "where": "faction-sheets"}
        return
    for field, value in printed.items():
        if sheet.fields[field] != value:
            yield {
                "expected": {field: value},
                "actual": {field: sheet.fields[field]},
                "where": f"{sheet.where} ({field})",
            }


# --- OCC-cards ------------------------------------------------------------------------------------------------------


def occ_variants(game, check) -> Found:
    variants = len(_items(game, "occ-cards"))
    least = game.fact("occ_variants_more_than") + 1
    if variants < least:
        yield {"expected": f"at least {least} variants", "actual": variants, "where": "occ-cards"}


# --- the board and its planets --------------------------------------------------------------------------------------


def _board_planets(game) -> set[tuple[str, int]]:
    board = game.fact("board")
    return {(system, slot) for system, count in board["planets"].items() for slot in range(1, count + 1)}


def board_systems(game, check) -> Found:
    board = game.fact("board")
    grid = {f"{column}{row}" for column in board["columns"] for row in range(1, board["rows"] + 1)}
    if len(grid) != game.fact("systems") or set(board["planets"]) != grid:
        yield {"expected": f"{game.fact('systems')} systems, each with planets", "actual": f"{len(grid)} in the grid, "
               f"{len(board['planets'])} with planets", "where": "rules.yaml: facts.board"}  # fmt: skip
    for colour in ("white", "yellow", "centre"):
        for system in board[colour]:
            if system not in grid:
                yield {
                    "expected": f"a {colour} system on the board",
                    "actual": system,
                    "where": "rules.yaml: facts.board",
                }


def planets_match_board(game, check) -> Found:
    """Every board planet (system, slot) has exactly one planet card and every card names a board planet; a starting
    planet's colour is its system's; the huge planets lie in the centre systems."""
    board = game.fact("board")
    on_board = _board_planets(game)
    cards: Counter = Counter()
    for item in _items(game, "planet-cards"):
        f = item.fields
        place = (f["system"], f["slot"])
        cards[place] += item.count
        if place not in on_board:
            yield {"expected": "a planet on the board (facts.board)", "actual": f"{f['system']} planet {f['slot']}",
                   "where": str(item.where)}  # fmt: skip
            continue
        start = "white" if f["system"] in board["white"] else "yellow" if f["system"] in board["yellow"] else "none"
        wanted = start if f["slot"] == 1 else "none"
        if f["start"] != wanted:
            yield {"expected": f"start: {wanted}", "actual": f["start"], "where": str(item.where)}
        if (f["size"] == "huge") != (f["system"] in board["centre"]):
            yield {"expected": "huge planets exactly in the centre systems", "actual": f"{f['size']} in {f['system']}",
                   "where": str(item.where)}  # fmt: skip
    for place in sorted(on_board):
        if cards[place] != 1:
            yield {"expected": f"one planet card for {place[0]} planet {place[1]}", "actual": cards[place],
                   "where": "planet-cards"}  # fmt: skip


def condition_tiles_suffice(game, check) -> Found:
    """At 6 players every planet but the white starting planets takes a condition tile."""
    planets = sum(item.count for item in _items(game, "planet-cards"))
    starting = sum(item.count for item in _items(game, "planet-cards") if item.fields["start"] == "white")
    tiles = sum(item.count for item in _items(game, "condition-tiles") if item.fields["tile_kind"] == "condition")
    if tiles < planets - starting:
        yield {"expected": f"at least {planets - starting} condition tiles ({planets} planets, {starting} starting)",
               "actual": tiles, "where": "condition-tiles"}  # fmt: skip


# --- tables ---------------------------------------------------------------------------------------------------------


def one_always_misses(game, check) -> Found:
    miss = game.fact("always_miss")
    for weapon, row in game.fact("hit_table").items():
        for target, (low, high) in row.items():
            if low <= miss or high != game.fact("die_faces"):
                found = f"{weapon} vs {target}: {low}-{high}"
                expected = f"{miss + 1}-{game.fact('die_faces')} at most"
                yield {"expected": expected, "actual": found, "where": "rules.yaml: facts.hit_table"}


def win_vp_agrees(game, check) -> Found:
    by_players, stated = game.fact("win_vp_by_players"), game.fact("win_vp")
    for players, vp in stated.items():
        if by_players.get(players) != vp:
            yield {"expected": {players: vp}, "actual": {players: by_players.get(players)},
                   "where": "rules.yaml: facts.win_vp_by_players"}  # fmt: skip
    low, high = game.players
    if sorted(by_players) != list(range(low, high + 1)):
        yield {"expected": f"a target for {low}–{high} players", "actual": sorted(by_players),
               "where": "rules.yaml: facts.win_vp_by_players"}  # fmt: skip


def cubes_mix(game, check) -> Found:
    wanted = game.fact("cube_mix")
    have = {item.id: item.count for item in _items(game, "cubes")}
    if have != wanted:
        yield {"expected": wanted, "actual": have, "where": "cubes.yaml"}
