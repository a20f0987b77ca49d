"""Rift Domination's turn steps (rules.yaml `turn_steps`): the turn's start (`start`, a peek at the top OCC-card,
`draw_and_gain`: cards, income, fighters, the track, movement points), the build step (`build_actions`,
`upgrade_cost`, `build`, wormholes), the move step's choices other than the steps themselves (`move_actions`,
trades), the recruit step (`recruit_actions`, `recruit`) and the turn's end (`end`: hand limits, the round, the
game's end). Functions of the state, called by `state.RiftState`."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from cardgen.engine.core import Action
from cardgen.engine.games.rift_domination import movement
from cardgen.engine.games.rift_domination.model import BUILD, OVER, PEEK, Recruit, Trade, Upgrade, Wormhole

if TYPE_CHECKING:
    from cardgen.engine.games.rift_domination.state import RiftState


def start(state: RiftState) -> None:
    """A turn begins: the player's blockades lift; a faction with `peek-occ` looks at the top card first."""
    player = state.player
    state.blockades = {s: q for s, q in state.blockades.items() if q != player}
    state.traded = False
    if state.fac(player).modifier("peek-occ") is not None and state.deck:
        state.phase = PEEK
        return
    draw_and_gain(state)


def peek(state: RiftState, choice: int) -> None:
    """The top OCC-card stays (0) or goes to the bottom (1); then the turn's draw."""
    if choice:
        state.deck.insert(0, state.deck.pop())
        state.events.add("peek:bottom")
    draw_and_gain(state)


def draw_and_gain(state: RiftState) -> None:
    """Steps 1–3: draw, income and fighters, the track; then the build step."""
    e, player = state.engine, state.player
    fac = state.fac(player)
    outposts = sum(u == "trading_outpost" for h in state.planets_of(player) for u in state.upgrades.get(h, []))
    per_outpost = fac.modifier("outpost-occ") or e.upgrades["trading_outpost"]["occ"]
    state._draw_occ(player, (fac.modifier("draws-per-turn") or e.occ_per_turn) + outposts * per_outpost)
    state.resources[player] += state.track[player] + fac.income + mines(state, player)
    bases = [h for h in state.planets_of(player) if "military_base" in state.upgrades.get(h, [])]
    fleets = [u.node for u in state.units if u.owner == player]
    where = bases[0] if bases else (fleets[0] if fleets else -1)
    if where >= 0:
        for _ in range(fac.modifier("fighters-per-turn") or e.fighters_per_turn):
            state._add(player, "fighter", where)
    state.track[player] = min(e.track_last, state.track[player] + e.track_step)
    points: dict[tuple[str, int], int] = {}  # by (kind, system): the same for every unit of a kind in a system
    for u in state.units:
        if u.owner == player:
            key = (u.kind, e.node_system[u.node])
            mp = points.get(key)
            if mp is None:
                mp = points[key] = movement.points(state, u)
            u = state.own(u)
            u.mp = mp
            if state.slowed[player] and e.node_system[u.node] == e.node_system[state.home[player]]:
                u.mp = max(e.warp["minimum"], u.mp - state.slowed[player])
    state.slowed[player] = 0
    state.phase = BUILD


def mines(state: RiftState, player: int) -> int:
    """The resources a player's mines give this turn (and a harvester tile's bonus under enough mines)."""
    e = state.engine
    per_mine = e.upgrades["mines"]["resources"] + (state.fac(player).modifier("mine-bonus") or 0)
    total = 0
    for h in state.planets_of(player):
        count = state.upgrades.get(h, []).count("mines")
        total += count * per_mine
        tile = state.tile.get(h, -1)
        if tile >= 0 and e.tiles[tile]["condition"] == "harvester" and count >= e.harvester_bonus["mines"]:
            total += state.fac(player).modifier("harvester-bonus") or e.harvester_bonus["resources"]
    return total


# -- the build step -----------------------------------------------------------------------------------------------


def build_actions(state: RiftState, player: int) -> list[Action]:
    """The upgrades the player can afford on planets with a free slot, and wormhole tiles to place."""
    e = state.engine
    out: list[Action] = []
    for h in state.planets_of(player):
        if len(state.upgrades.get(h, [])) >= state.slots(h, player):
            continue
        for name in e.upgrades:
            if name == "military_base" and state.fac(player).modifier("no-new-bases") is not None:
                continue
            if upgrade_cost(state, player, name) <= state.resources[player] and may_build(state, h, name, player):
                out.append(Upgrade(h, name))
    return out + wormhole_places(state, player)


def upgrade_cost(state: RiftState, player: int, name: str) -> int:
    for effect in state.fac(player).effects:
        if effect.verb == "upgrade-cost" and effect.opt("upgrade") == name:
            return effect.amount
    cost = int(state.engine.upgrades[name]["cost"])
    discount = state.fac(player).modifier("upgrade-discount")
    return max(1, cost - discount) if discount else cost


def may_build(state: RiftState, planet: int, name: str, player: int) -> bool:
    """A warp only while the planet's system holds fewer than the limit."""
    if name != "warp":
        return True
    limit = state.fac(player).modifier("warps-per-system") or state.engine.warp["per_system"]
    inside = state.engine.system_planets[state.engine.node_system[planet]]
    return sum(state.upgrades.get(q, []).count("warp") for q in inside) < limit


def build(state: RiftState, player: int, planet: int, name: str) -> None:
    state.resources[player] -= upgrade_cost(state, player, name)
    state.upgrades[planet] = [*state.upgrades.get(planet, []), name]
    state.events.add(f"upgrade:{name}")


def wormhole_places(state: RiftState, player: int) -> list[Action]:
    """Once a round (`place-wormhole`), a wormhole tile in a system where the player controls a planet."""
    amount = state.fac(player).modifier("place-wormhole")
    when, count = state.placed[player]
    if (
        amount is None
        or (when == state.turns and count >= amount)
        or len(state.wormholes) >= state.engine.wormhole_tiles
    ):
        return []
    systems = sorted({state.engine.node_system[h] for h in state.planets_of(player)} - set(state.wormholes))
    return [Wormhole(s) for s in systems]


def place_wormhole(state: RiftState, player: int, system: int) -> None:
    when, count = state.placed[player]
    state.placed[player] = (state.turns, count + 1 if when == state.turns else 1)
    state.wormholes.append(system)
    state.events.add("wormhole")


# -- the move step ------------------------------------------------------------------------------------------------


def move_actions(state: RiftState, player: int) -> list[Action]:
    """Each unit's steps, the faction's trade, and the OCC-cards playable on the player's own turn.

    Each unit's steps are kept in `state.listed` (uid → actions) and carried to the next listing past plain moves
    (`state.carried`: `RiftState._apply` clears it after any other action, and after a plain move forgets the units
    that moved and, when one that needs a carrier moved, the carriers whose steps counted the cargo at either point,
    `state.cargo_at`): only those are listed again. The units with movement points (`state.movers`) are carried
    too: a plain move takes out the unit moved once it has none left. A state changed by hand (a test's) clears
    `carried` itself."""
    e = state.engine
    out: list[Action] = []
    if not state.carried:  # every unit listed afresh, from the units themselves
        mine = [u for u in state.units if u.owner == player and u.mp > 0]
        state.listed, state.cargo_at, state.movers, state.carried = {}, {}, [u.uid for u in mine], True
        listed = state.listed
        for u in mine:
            listed[u.uid] = fresh = tuple(movement.moves(state, u, True))
            out += fresh
    else:
        listed = state.listed
        for uid in state.movers:
            kept = listed.get(uid)
            if kept is None:
                kept = listed[uid] = tuple(movement.moves(state, state.unit(uid), True))
            out += kept
    out += trades(state, player)
    own_turn = e.own_turn
    plays = e.plays
    out += [plays[c] for c in sorted(set(state.hands[player])) if c in own_turn]
    return out


def trades(state: RiftState, player: int) -> list[Action]:
    """Once a turn (`trade-occ`): buy an OCC-card, or sell cards, for the amount."""
    if state.traded:
        return []
    effect = next((x for x in state.fac(player).effects if x.verb == "trade-occ"), None)
    if effect is None:
        return []
    out: list[Action] = [Trade(0)] if state.resources[player] >= effect.amount else []
    return out + ([Trade(1)] if len(state.hands[player]) >= effect.num("discard", 2) else [])


def trade(state: RiftState, player: int, choice: int) -> None:
    effect = next(x for x in state.fac(player).effects if x.verb == "trade-occ")
    state.traded = True
    state.events.add(f"trade:{'buy' if choice == 0 else 'sell'}")
    if choice == 0:
        state.resources[player] -= effect.amount
        state._draw_occ(player, 1)
        return
    k = effect.num("discard", 2)  # the oldest cards go (a policy)
    state.discard += state.hands[player][:k]
    del state.hands[player][:k]
    state.resources[player] += effect.amount


# -- the recruit step and the turn's end --------------------------------------------------------------------------


def recruit_actions(state: RiftState, player: int) -> list[Action]:
    """Units of the roster the player can afford, at its military bases (and where `diplomat-recruit` says)."""
    e = state.engine
    out: list[Action] = []
    bases = [h for h in state.planets_of(player) if "military_base" in state.upgrades.get(h, [])]
    places = {(kind, h): None for kind in state.roster[player] for h in bases}
    for effect in state.fac(player).effects:  # the Vespians' diplomats recruit where they stand
        if effect.verb == "diplomat-recruit":
            envoys = sorted({u.node for u in state.units if u.owner == player and state.negotiates(u)})
            for kind in effect.opt("kinds").split("/"):
                places.update({(kind, h): None for h in envoys if kind in e.units})
    if not places:
        return out
    mine = Counter(u.kind for u in state.units if u.owner == player)  # counted once for every place asked
    for kind, h in places:
        if e.costs[kind] <= state.resources[player] and mine[kind] < e.tiles_per_colour[kind]:
            out.append(Recruit(kind, h))
    return out


def recruit(state: RiftState, player: int, kind: str, planet: int) -> None:
    state.resources[player] -= state.engine.costs[kind]
    state._add(player, kind, planet)
    state.events.add(f"recruit:{kind}")
    for effect in state.fac(player).effects:
        if effect.verb == "recruit-bonus":
            for _ in range(effect.amount):
                state._add(player, effect.opt("unit"), planet)


def end(state: RiftState) -> None:
    """The turn ends: the hand limit, the round count, the game's end once the round that reached the VP is
    played out; else the next player's turn."""
    limit = state.fac(state.player).modifier("hand-limit")
    hand = state.hands[state.player]
    if limit is not None and len(hand) > limit:  # the oldest cards go first (a policy)
        state.discard += hand[: len(hand) - limit]
        del hand[: len(hand) - limit]
    state.seats_done += 1
    if state.seats_done % state.n == 0:
        state.turns = state.turns + 1  # rounds played (the turn cap counts rounds); not +=: mypyc (hatch_build.py)
    target = state.engine.win_vp[state.n]
    if state.rounds_left < 0 and max(state.vp) >= target:
        state.rounds_left = state.n - state.seats_done % state.n if state.seats_done % state.n else 0
        # 'the round is still played to the end': seats after this one in the round still play
    elif state.rounds_left > 0:
        state.rounds_left -= 1
    if state.rounds_left == 0:
        state.phase, state.ending = OVER, "victory points reached"
        for seat, share in enumerate(state.standings()):
            if share:
                state.events.add(f"won:{state.fac(seat).item}")
        return
    state.player = state._next_seat(state.player)
    start(state)
