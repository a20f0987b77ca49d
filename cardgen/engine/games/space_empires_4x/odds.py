"""`cardgen odds space-empires-4x`: fleets written as players say them ("2 DD, 1 CA"), read against rules.yaml."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardgen.data.games import Game
from cardgen.engine.dice import BattleReport
from cardgen.engine.games.space_empires_4x.combat import TERRAINS, Group, Rules
from cardgen.engine.games.space_empires_4x.exact import exact_odds
from cardgen.errors import DataError, clipped, did_you_mean, whole_number

TECHS = ("attack", "defense", "tactics")


def parse_fleet(game: Game, text: str, tech: dict[str, int], side: str) -> list[Group]:
    """'2 DD, 1 CA' -> one group per entry (a group holds the rulebook's 1–6 ships of one type). Ships keep the
    technology they were built with, so a group may name its own levels after its code ('2 DD attack=1 tactics=1');
    levels it does not name are the side's (`tech`, from --attacker-tech / --defender-tech)."""
    units: dict[str, dict[str, Any]] = game.fact("units")
    size = game.fact("group_size")
    immobile = set(game.fact("immobile_units"))
    groups = []
    for entry in (e.strip() for e in text.split(",")):
        words = entry.split()
        if len(words) < 2 or not (words[0].isascii() and words[0].isdigit()):
            raise DataError(f"--{side}: '{clipped(entry)}' is not a count and a unit code, like '2 DD'")
        count = whole_number(words[0], size["max"])
        if count is None:
            raise DataError(f"--{side}: a group holds {size['min']}–{size['max']} ships, not {clipped(words[0])}")
        code = words[1]
        if code not in units:
            raise DataError(
                f"--{side}: unknown unit '{code}'{did_you_mean(code, list(units))}; units: {', '.join(units)}"
            )
        unit = units[code]
        if not unit.get("attack"):
            raise DataError(f"--{side}: a {unit['name']} ({code}) has no attack: it is not a combat unit")
        if not size["min"] <= count <= size["max"]:
            raise DataError(f"--{side}: a group holds {size['min']}–{size['max']} ships, not {count} ({entry})")
        own = {**tech, **parse_tech(game, ",".join(words[2:]), f"--{side}", defaults=False)}
        groups.append(Group(code, count, unit["class"], unit["attack"], unit["defense"], unit["hull"], unit["cost"],
                            code not in immobile, own["attack"], own["defense"], own["tactics"]))  # fmt: skip
    limits = game.fact("counter_limits")  # counters, each a group of ships: they cap groups, not ships
    for code in sorted({g.code for g in groups}):
        counters = sum(1 for g in groups if g.code == code)
        if counters > limits[code]:
            raise DataError(f"--{side}: {counters} groups of {code}, but a player has {limits[code]} {code} counters")
    return groups


def parse_tech(game: Game, text: str | None, option: str, defaults: bool = True) -> dict[str, int]:
    """'attack=1,defense=0,tactics=1' within the technology chart's levels: every level, those not named at 0 (or,
    with `defaults` off, only the levels named)."""
    upgrades = game.fact("technology_upgrades")
    levels = dict.fromkeys(TECHS, 0) if defaults else {}
    for part in filter(None, (p.strip() for p in (text or "").split(","))):
        name, eq, value = part.partition("=")
        if not eq or name not in TECHS or not (value.isascii() and value.isdigit()):
            raise DataError(f"{option}: '{clipped(part)}' is not one of {', '.join(f'{t}=N' for t in TECHS)}")
        level = whole_number(value, upgrades[name])
        if level is None:
            raise DataError(f"{option}: {name} goes up to {upgrades[name]}, not {clipped(value)}")
        levels[name] = level
    return levels


def odds(game: Game, attacker: str, defender: str, *, attacker_tech: str | None = None,
         defender_tech: str | None = None, terrain: str = "open", retreat: bool = True) -> BattleReport:  # fmt: skip
    """The exact odds of a battle between two fleets (`cardgen odds space-empires-4x`; the options are the plugin's)."""
    if terrain not in TERRAINS:
        raise DataError(f"--terrain: '{terrain}' is not one of {', '.join(TERRAINS)}")
    rules = Rules.from_facts(game.fact)
    a = parse_fleet(game, attacker, parse_tech(game, attacker_tech, "--attacker-tech"), "attacker")
    d = parse_fleet(game, defender, parse_tech(game, defender_tech, "--defender-tech"), "defender")
    report = exact_odds(rules, a, d, terrain, retreat)
    codes = {g.code for g in (*a, *d)}
    report.policies.extend(note for code, note in UNMODELLED.items() if code in codes)
    return report


# What the advanced rules give these units in battle that the calculator does not play: each is printed with a
# result that includes one, so no figure passes for more than it is. (Mines are refused: they have no attack and act
# when ships enter their hex, not in a battle round.)
UNMODELLED = {
    "R": "raiders: fight uncloaked (their class and attack as listed); cloaking's class A attack 5 is not modelled",
    "CV": "carriers: fight as plain ships; the fighters they carry are not screened by them",
    "F": "fighters: fight as plain ships, whether or not a carrier brought them",
    "SW": "minesweepers: fight as plain ships (sweeping mines happens before battle, not in it)",
}


def formulas_for(game: Game) -> dict[str, Callable[..., Any]]:
    """What a layout may call as `formula.<name>`: `battle_odds("2 DD, 1 CA", "1 BB")` gives the exact odds as plain
    values (outcome probabilities, expected rounds and CP lost) for a reference sheet's table."""

    def battle_odds(attacker: str, defender: str, terrain: str = "open") -> dict[str, Any]:
        try:
            result = odds(game, attacker, defender, terrain=terrain)
        except DataError as exc:
            raise DataError(f"formula.battle_odds('{attacker}', '{defender}'): {exc.problems[0]}") from None
        return {"outcomes": dict(result.outcomes), "rounds": result.length,
                "cp_lost": list(result.lost), "policies": list(result.policies)}  # fmt: skip

    return {"battle_odds": battle_odds}
