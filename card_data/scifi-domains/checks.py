"""Scifi Domains' own checks: what rules.yaml's declarative checks cannot express.

The most important ones re-derive the bounds the deck-size (line-up) checks rely on — the most Metal and Research a
player can spend, and so the most Unit and Tech cards one player can hold — from the rules facts and the card data,
so that a cheaper unit or a richer reward cannot silently make a deck too small for four players.
Each function takes the game and the check and yields violations as {"expected", "actual", "where"}.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cardgen.engine.games.scifi_domains.model import build_cost

DAMAGE = ("dmg_space", "dmg_space_striker", "dmg_ground", "dmg_ground_striker")
CAPACITY = ("striker_capacity", "drop_capacity")
BAY_FOR_CAPACITY = {"striker_capacity": "striker_bay", "drop_capacity": "drop_bay"}

Found = Iterator[dict[str, Any]]


def _items(game, component: str):
    return game.component(component).items


def _fact_mismatch(game, name: str, derived: int, how: str) -> Found:
    stated = game.fact(name)
    if stated != derived:
        where = f"rules.yaml: facts.{name}"
        yield {"expected": f"{name} = {derived} ({how})", "actual": stated, "where": where}


# --- counts ---------------------------------------------------------------------------------------------------------


def per_player_count(game, check) -> Found:
    """A component holds `per_player` (a fact) copies for each player at the most players."""
    component = game.component(check.args["component"])
    wanted = game.players[1] * game.fact(check.args["per_player"])
    if component.count != wanted:
        yield {"expected": f"{wanted} cards ({game.players[1]} players)", "actual": component.count,
               "where": str(component.items[0].where) if component.items else component.id}  # fmt: skip


def players_match(game, check) -> Found:
    """game.yaml's player range is the rulebook's (fact `players`)."""
    fact = game.fact("players")
    if list(game.players) != [fact["min"], fact["max"]]:
        yield {"expected": [fact["min"], fact["max"]], "actual": list(game.players), "where": "game.yaml: players"}


# --- the derived bounds behind the line-up checks --------------------------------------------------------------------


def _best_rewards(game, one_shot: str, production: str) -> int:
    """The most of a resource the reward cap's worth of Reward cards can give before the last Build phase.

    A one-shot card pays its value; a production card taken in round 1 pays its value in every later round
    (production pays in Phase 1, rewards are taken in Phase 6)."""
    later_rounds = game.fact("rounds") - 1
    gains: list[int] = []
    for item in _items(game, "rewards"):
        effect, value = item.fields["effect"], item.fields["value"]
        per_card = value if effect == one_shot else value * later_rounds if effect == production else 0
        gains += [per_card] * item.count
    return sum(sorted(gains, reverse=True)[: game.fact("reward_cap")])


def _max_spend(game, resource: str) -> int:
    start = game.fact("start_resources")
    production = f"{resource}_production"
    return start[resource] + game.fact("rounds") * start[production] + _best_rewards(game, resource, production)


def max_build_metal_matches(game, check) -> Found:
    """max_build_metal = starting Metal + production every round + the best Metal rewards up to the cap."""
    yield from _fact_mismatch(game, "max_build_metal", _max_spend(game, "metal"),
                              "start + rounds x production + best rewards up to the cap")  # fmt: skip


def max_research_matches(game, check) -> Found:
    """max_research = starting Research + production every round + the best Research rewards up to the cap."""
    yield from _fact_mismatch(game, "max_research", _max_spend(game, "research"),
                              "start + rounds x production + best rewards up to the cap")  # fmt: skip


def _cheapest_unit(game) -> int:
    """The lowest Metal price of any buildable unit once its owner's best price-cutting techs apply."""
    stacking = set(game.fact("stacking_tech_types"))
    cuts: dict[str, list[int]] = {}
    for tech in _items(game, "techs"):
        if tech.fields["bonus_stat"] == "metal_cost" and tech.fields["bonus_value"] < 0:
            copies = tech.count if tech.fields["unit_type"] in stacking else 1
            cuts.setdefault(tech.fields["unit_type"], []).extend([tech.fields["bonus_value"]] * copies)
    prices = []
    for unit in _items(game, "units"):
        kind = unit.fields["unit_type"]
        found = cuts.get(kind, [])
        cut = sum(found) if kind in stacking else min(found, default=0)
        prices.append(max(1, unit.fields["metal_cost"] + cut))
    return min(prices)


def _units_for(metal: int, price: int, extra_factor: float) -> int:
    """The most units of one price `metal` buys in one purchase (all beyond the first at the reduced price; the price
    of a purchase is the rules' formula, the one the engine and the reference sheet use)."""
    count = 0
    while build_cost(price, count + 1, extra_factor) <= metal:
        count += 1
    return count


def units_held_matches(game, check) -> Found:
    """units_held = the most units max_build_metal buys, all of the cheapest type in one purchase."""
    price = _cheapest_unit(game)
    held = _units_for(game.fact("max_build_metal"), price, game.fact("multi_build_extra_price"))
    yield from _fact_mismatch(
        game, "units_held", held, f"cheapest unit {price} Metal, extra units at the reduced price"
    )


def techs_held_matches(game, check) -> Found:
    """techs_held = one tech per single-tech unit type plus every stacking tech, unless Research buys fewer."""
    stacking = set(game.fact("stacking_tech_types"))
    per_type = game.fact("techs_per_unit_type")
    cheapest: dict[str, int] = {}
    stacked: list[int] = []
    for tech in _items(game, "techs"):
        kind, cost = tech.fields["unit_type"], tech.fields["research_cost"]
        if kind in stacking:
            stacked += [cost] * tech.count
        else:
            cheapest[kind] = min(cost, cheapest.get(kind, cost))
    by_types = per_type * len(cheapest) + len(stacked)
    budget, affordable = game.fact("max_research"), 0
    for cost in sorted([c for c in cheapest.values() for _ in range(per_type)] + stacked):
        if cost > budget:
            break
        budget -= cost
        affordable += 1
    held = min(by_types, affordable)
    yield from _fact_mismatch(game, "techs_held", held,
                              f"{by_types} by the one-per-type rule, {affordable} affordable")  # fmt: skip


# --- units ----------------------------------------------------------------------------------------------------------


def _all_units(game):
    yield from _items(game, "units")
    yield from _items(game, "command-ships")


def only_bays_carry(game, check) -> Found:
    """Striker capacity only on Striker Bays, Drop capacity only on Drop Bays."""
    for unit in _all_units(game):
        for field, bay in BAY_FOR_CAPACITY.items():
            if unit.fields[field] and unit.fields["unit_type"] != bay:
                yield {"expected": f"{field} 0 (only a {bay} carries)", "actual": unit.fields[field],
                       "where": str(unit.field_where(field))}  # fmt: skip


def unit_type_lists_agree(game, check) -> Found:
    """buildable_unit_types = single_tech_types + stacking_tech_types = the unit types in the Units deck."""
    buildable = set(game.fact("buildable_unit_types"))
    split = set(game.fact("single_tech_types")) | set(game.fact("stacking_tech_types"))
    in_deck = {unit.fields["unit_type"] for unit in _items(game, "units")}
    if split != buildable:
        yield {"expected": sorted(buildable), "actual": sorted(split), "where": "rules.yaml: facts.single_tech_types"}
    if in_deck != buildable:
        yield {"expected": sorted(buildable), "actual": sorted(in_deck), "where": "units.yaml: unit_type"}


# --- techs ----------------------------------------------------------------------------------------------------------


def battlecruiser_techs_cheaper(game, check) -> Found:
    """Every Battlecruiser (stacking) tech costs less than the cheapest tech of any other unit type."""
    stacking = set(game.fact("stacking_tech_types"))
    techs = _items(game, "techs")
    others = [t.fields["research_cost"] for t in techs if t.fields["unit_type"] not in stacking]
    if not others:
        return
    for tech in techs:
        if tech.fields["unit_type"] in stacking and tech.fields["research_cost"] >= min(others):
            yield {"expected": f"research_cost below {min(others)}", "actual": tech.fields["research_cost"],
                   "where": str(tech.field_where("research_cost"))}  # fmt: skip


def tech_bonus_applies(game, check) -> Found:
    """A damage or capacity bonus goes to a unit type that already deals that damage or carries units."""
    base = {unit.fields["unit_type"]: unit.fields for unit in _all_units(game)}
    for tech in _items(game, "techs"):
        stat, kind = tech.fields["bonus_stat"], tech.fields["unit_type"]
        if kind in base and stat in DAMAGE + CAPACITY and not base[kind][stat]:
            yield {"expected": f"a {kind} with {stat} above 0", "actual": f"{stat} 0",
                   "where": str(tech.field_where("bonus_stat"))}  # fmt: skip


# --- rewards, enemies, tokens, sources -----------------------------------------------------------------------------


def reward_units_named(game, check) -> Found:
    """A Unit reward names its unit type; other rewards name none."""
    for reward in _items(game, "rewards"):
        is_unit = reward.fields["effect"] == "unit"
        if is_unit != bool(reward.fields.get("unit_type")):
            expected = "a unit_type" if is_unit else "no unit_type"
            yield {"expected": expected, "actual": reward.fields.get("unit_type"),
                   "where": str(reward.field_where("unit_type"))}  # fmt: skip


def token_supply(game, check) -> Found:
    """The tokens of each resource add up to at least the starting amount of every player at the most players."""
    start = game.fact("start_resources")
    totals: dict[str, int] = {}
    for token in _items(game, "resource-tokens"):
        totals[token.fields["resource"]] = totals.get(token.fields["resource"], 0) + token.fields["value"] * token.count
    for resource, amount in start.items():
        if resource == "command_ship":
            continue
        wanted = amount * game.players[1]
        if totals.get(resource, 0) < wanted:
            yield {"expected": f"{resource} tokens worth at least {wanted}", "actual": totals.get(resource, 0),
                   "where": "resource-tokens.yaml"}  # fmt: skip
