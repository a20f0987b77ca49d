"""`cardgen odds rift-domination`: fleets written as players say them ("2 fighter, 1 carrier"), read against the
unit cards and rules.yaml. A space battle takes the units that fight in space (ground units aboard are cargo); a
ground battle (`--ground`) takes the ground units, and each side's other units are in orbit: the attacker's bombard
the buildings first, the defender's repair them. The defender of a ground battle fights with the planet outpost and
the planet upgrades named (`--planet-upgrades military_base,artillery`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardgen.data.games import Game
from cardgen.engine.dice import BattleReport
from cardgen.engine.games.rift_domination.battle import (
    BUILDINGS,
    DEFENDER,
    Battle,
    Kind,
    Rules,
    exact_odds,
    muster,
)
from cardgen.errors import DataError, clipped, did_you_mean, whole_number

MAX_UNITS = 16  # units a side may bring to the calculator (its state space grows with every unit)


def kinds_of(game: Game) -> list[Kind]:
    """Every unit card's kind, then the outpost and the planet upgrades that fight (facts `outpost`, `upgrades`)."""
    kinds = []
    for item in game.component("unit-cards").items:
        f = item.fields
        kinds.append(Kind(f["unit_type"], f["cost"], f["lp"], f["shields"], (f["close"], f["mid"], f["long"]),
                          frozenset(f.get("skills") or ()), ground=f.get("role") == "ground"))  # fmt: skip
    buildings = {"outpost": {"cost": 0, **game.fact("outpost")}} | dict(game.fact("upgrades"))
    for name, u in buildings.items():
        if name in BUILDINGS:
            skills = frozenset({"overload"}) if name == "shield_generator" else frozenset()
            weapons = (u.get("close", 0), u.get("mid", 0), u.get("long", 0))
            kinds.append(Kind(name, u["cost"], u["lp"], u.get("shields", 0), weapons, skills, True))
    return kinds


def parse_fleet(kinds: list[Kind], text: str, side: str) -> list[int]:
    """'2 fighter, 1 carrier' -> kind indices, one per unit."""
    names = [k.name for k in kinds if not k.building]
    out: list[int] = []
    for entry in (e.strip() for e in text.split(",")):
        words = entry.split()
        if len(words) != 2 or not (words[0].isascii() and words[0].isdigit()) or not words[0].strip("0"):
            raise DataError(f"--{side}: '{clipped(entry)}' is not a count and a unit type, like '2 fighter'")
        count, name = whole_number(words[0], MAX_UNITS), words[1].lower()
        if count is None:
            raise DataError(
                f"--{side}: {clipped(words[0])} units; the exact calculator takes at most {MAX_UNITS} a side"
            )
        if name not in names:
            raise DataError(
                f"--{side}: unknown unit '{words[1]}'{did_you_mean(name, names)}; units: {', '.join(names)}"
            )
        out += [names.index(name)] * count
    if len(out) > MAX_UNITS:
        raise DataError(f"--{side}: {len(out)} units; the exact calculator takes at most {MAX_UNITS} a side")
    return out


def parse_upgrades(kinds: list[Kind], text: str | None) -> list[int]:
    index = {k.name: i for i, k in enumerate(kinds) if k.building and k.name != "outpost"}
    out = []
    for name in filter(None, (n.strip().lower().replace("-", "_").replace(" ", "_") for n in (text or "").split(","))):
        if name not in index:
            raise DataError(f"--planet-upgrades: '{name}' is not a planet upgrade that fights; those are: "
                            f"{', '.join(index)}")  # fmt: skip
        out.append(index[name])
    return out


def odds(game: Game, attacker: str, defender: str, *, ground: bool = False, planet_upgrades: str | None = None,
         home: bool = False, retreat: bool = True) -> BattleReport:  # fmt: skip
    """The exact odds of a battle between two fleets (`cardgen odds rift-domination`; the options are the plugin's)."""
    kinds = kinds_of(game)
    rules = Rules.from_facts(game.fact)
    fleets = [parse_fleet(kinds, attacker, "attacker"), parse_fleet(kinds, defender, "defender")]
    if planet_upgrades and not ground:
        raise DataError("--planet-upgrades: planet upgrades fight only in a ground battle (--ground)")
    fighting = [[k for k in fleet if kinds[k].ground == ground] for fleet in fleets]
    orbit = [[k for k in fleet if kinds[k].ground != ground] for fleet in fleets]
    if ground:
        outpost = next(i for i, k in enumerate(kinds) if k.name == "outpost")
        fighting[DEFENDER] += [outpost, *parse_upgrades(kinds, planet_upgrades)]
    where = "ground" if ground else "space"
    for side, units in zip(("attacker", "defender"), fighting, strict=True):
        if not units:
            raise DataError(f"--{side}: no unit that fights in a {where} battle")
    battle = Battle(rules, kinds, ground=ground, retreat=retreat)
    return exact_odds(battle, muster(battle, fighting, orbit, home))


def formulas_for(game: Game) -> dict[str, Callable[..., Any]]:
    """`formula.battle_odds("2 fighter", "1 carrier")` for a reference sheet's odds table."""

    def battle_odds(attacker: str, defender: str, ground: bool = False) -> dict[str, Any]:
        try:
            result = odds(game, attacker, defender, ground=ground)
        except DataError as exc:
            raise DataError(f"formula.battle_odds('{attacker}', '{defender}'): {exc.problems[0]}") from None
        return {"outcomes": dict(result.outcomes), "phases": result.length,
                "lost": list(result.lost), "policies": list(result.policies)}  # fmt: skip

    return {"battle_odds": battle_odds}
