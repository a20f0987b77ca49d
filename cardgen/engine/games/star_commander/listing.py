"""Star Commander's legal actions, piece by piece: commands, jumps and their destinations, development, shipyards
and builds, card plays and their targets. Functions of the state, called by `state.StarState._list_actions`; every one
is a pure query (listing leaves the state as it was: `StarState._listing`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.engine.games.star_commander.model import (
    Ability,
    Build,
    CardSpec,
    Develop,
    Explore,
    Item,
    Move,
    Piece,
    Play,
    Scrap,
    TradeDraw,
    TradeSell,
)

if TYPE_CHECKING:
    from cardgen.engine.games.star_commander.state import StarState


def distinct(state: StarState, cards: list[int]) -> list[int]:
    """One card of each printed kind (copies of a card are the same choice): the lowest id of each."""
    item, best = state.engine.item_index, dict[int, int]()
    for card in cards:
        kind = item[card]
        if best.get(kind, card) >= card:
            best[kind] = card
    return sorted(best.values())


def command_actions(state: StarState, player: int) -> list[Any]:
    out: list[Any] = []
    for x in state.pieces:
        if x.owner == player:
            out += [Move(x.card, c) for c in destinations(state, x)]
    ships = sorted({x.cell for x in state.pieces if x.owner == player and state.engine.ship[x.card]})
    out += [Explore(c) for c in ships if not state.revealed[c]]
    out += builds(state, player)
    out += [Scrap(x.card) for x in state.pieces if x.owner == player and not x.fresh and not state.contested(x.cell)]
    out += plays(state, player, commands(state, player, "command-phase"))
    out += [Play(c) for c in distinct(state, state.hands[player])
            if state.spec(c).kind == "technology" and state.spec(c).cost <= state.credits[player]]  # fmt: skip
    cost = state.engine.development_cost
    if state.credits[player] >= cost(0):
        cells = sorted({*ships, *(c for c, o in enumerate(state.owner) if o == player)})
        out += [
            Develop(c) for c in cells if state.credits[player] >= cost(state.devs[c]) and can_develop(state, player, c)
        ]
    if not state.embargo[player]:
        if state.credits[player] >= state.draw_cost(player):
            out += [TradeDraw(d) for d in state.domains_of(player) if state.decks[d] or state.discards[d]]
        if len(state.hands[player]) >= state.engine.sell["discard"]:
            out.append(TradeSell())
    return out


def jumps_allowed(state: StarState, piece: Piece) -> int:
    spec = state.spec(piece.card)
    if spec.fighter:
        return sum(e.amount for e, _ in state.lasting(piece.owner, "fighter-jumps"))
    allowed = spec.jump + state.temp.extra_jumps
    if piece.owner == state.active and not state.temp.spare_used:
        allowed += sum(e.amount for e, _ in state.lasting(piece.owner, "spare-jump"))
    return allowed


def destinations(state: StarState, piece: Piece) -> list[int]:
    spec = state.spec(piece.card)
    if spec.kind != "ship" or piece.fresh or piece.pinned or piece.jumps >= jumps_allowed(state, piece):
        return []
    p = piece.owner
    cells = set(state.neighbours(piece.cell, orthogonal=bool(state.lasting(p, "orthogonal-jumps"))))
    if any(src is not None and src.cell == piece.cell for _, src in state.lasting(p, "gate")):
        gates = {src.cell for _, src in state.lasting(p, "gate") if src is not None}
        cells |= {c for c in gates | {state.home[p]} if state.owner[c] == p}
    cells.discard(piece.cell)
    if spec.fighter:
        cells = {c for c in cells if state.owner[c] == p and state.fighters(p, c) < state.fighter_slots(p, c)}
    return sorted(cells)


def can_develop(state: StarState, player: int, cell: int) -> bool:
    o, devs = state.owner[cell], state.devs[cell]
    if state.credits[player] < state.engine.development_cost(devs) or not state.revealed[cell]:
        return False
    if o < 0:
        return any(x.owner == player and state.spec(x.card).kind == "ship" for x in state.at(cell))
    return o == player and devs < state.system(cell).max_development


def shipyard(state: StarState, player: int, cell: int) -> bool:
    """Whether p may build ships in a system: the Homeworld always; a capital or a system with p's shipyard
    station while neither contested nor under siege."""
    if cell == state.home[player]:
        return True
    if state.owner[cell] != player or state.contested(cell) or state.under_siege(cell):
        return False
    if state.system(cell).capital:
        return True
    stations = [src for _, src in state.lasting(player, "shipyard") if src is not None and src.cell == cell]
    if stations:
        return True
    return state.temp.grants > 0 and any(
        x.owner == player and state.spec(x.card).kind == "station" for x in state.at(cell)
    )


def builds(state: StarState, player: int) -> list[Build]:
    """Every affordable build in every system where it may go (the same rules as `_can_build`, with the player's
    totals counted once rather than per system)."""
    cards, fighter, station = state.engine.cards, state.engine.fighter, state.engine.station
    choices = [c for c in distinct(state, state.supply) if cards[c].piece]
    choices += [c for c in distinct(state, state.hands[player]) if cards[c].piece]
    choices = [c for c in choices if state.build_cost(player, c) <= state.credits[player]]
    if not choices:
        return []
    room_for_fighters = state.fighters(player) < state.developments(player)
    out = []
    for cell, owner in enumerate(state.owner):
        if owner != player:
            continue
        yard = shipyard(state, player, cell)
        here = [x for x in state.at(cell) if x.owner == player]
        free = not state.contested(cell) and not state.under_siege(cell)
        stations_ok = free and sum(1 for x in here if station[x.card]) < state.devs[cell]
        fighters_ok = (yard and room_for_fighters
                       and sum(1 for x in here if fighter[x.card]) < state.fighter_slots(player, cell))  # fmt: skip
        for card in choices:
            ok = stations_ok if station[card] else fighters_ok if fighter[card] else yard
            if ok:
                out.append(Build(card, cell))
    return sorted(out)


def can_build(state: StarState, player: int, card: int, cell: int, scramble: bool = False) -> bool:
    spec = state.spec(card)
    if state.owner[cell] != player:
        return False
    if spec.kind == "station":
        if state.contested(cell) or state.under_siege(cell):
            return False
        return (
            sum(1 for x in state.at(cell) if x.owner == player and state.spec(x.card).kind == "station")
            < state.devs[cell]
        )
    if spec.fighter and (
        state.fighters(player) >= state.developments(player)
        or state.fighters(player, cell) >= state.fighter_slots(player, cell)
    ):
        return False
    return scramble or shipyard(state, player, cell)


def commands(state: StarState, player: int, timing: str) -> list[int]:
    return [c for c in distinct(state, state.hands[player])
            if state.spec(c).kind == "command" and state.spec(c).timing == timing
            and state.spec(c).cost <= state.credits[player]]  # fmt: skip


def responses_any(state: StarState, player: int) -> list[Play]:
    """Response commands playable in any window (no trigger of their own)."""
    cards = commands(state, player, "response")
    cards = [c for c in cards if all(e.trigger is None for e in state.spec(c).effects)]
    return plays(state, player, cards)


def responses(state: StarState, player: int, item: Item) -> list[Any]:
    """What a player may answer an item on the stack with (`Flow.responses`): a response command, a technology's
    triggered ability."""
    out: list[Any] = list(responses_any(state, player))
    trigger = {"card": "command-played", "damage": "damage-assigned", "destroyed": "ship-destroyed"}[item[0]]
    for card in commands(state, player, "response"):
        if any(e.trigger == trigger for e in state.spec(card).effects):
            out += [Play(card, t) for t in targets(state, player, card, item)]
    if item[0] == "card" and item[1] != player and state.spec(item[2]).kind == "command":
        for card in state.techs[player]:
            e = next((e for e in state.spec(card).effects if e.trigger == "command-played"), None)
            if e and state.credits[player] >= e.amount and (card, item[2]) not in state.used:
                out.append(Ability(card))
    return out


def plays(state: StarState, player: int, cards: list[int]) -> list[Play]:
    out = []
    for card in cards:
        out += [Play(card, t) for t in targets(state, player, card)]
    return out


def targets(state: StarState, player: int, card: int, item: Item | None = None) -> list[int]:
    """The targets a card may be played on ([-1] for none); an effect that could change nothing is not offered."""
    spec = state.spec(card)
    targeted = [e for e in spec.effects if e.opt("target")]
    if not targeted:
        return untargeted(state, player, spec, item)
    e = targeted[0]
    kind, cells = e.opt("target"), range(len(state.grid))
    fight = state.fight
    match kind:
        case "own-ship":
            return [x.card for x in state.pieces if x.owner == player and state.spec(x.card).kind == "ship"
                    and (fight < 0 or x.cell == fight)]  # fmt: skip
        case "enemy-in-armed-system":
            armed = {x.cell for x in state.pieces if x.owner == player and state.attack(x) > 0}
            return [x.card for x in state.pieces if x.owner != player and x.cell in armed and not x.cloaked]
        case "own-uncontested-system":
            keep = e.num("keep") + e.amount
            return [c for c in cells if state.owner[c] == player and not state.contested(c) and state.devs[c] >= keep]
        case "combat-system":
            return [fight] if fight >= 0 and fight not in state.temp.ceasefire else []
        case "own-system":
            return [c for c in cells if state.owner[c] == player and state.under_siege(c)]
        case "own-combat-system":
            fighter = state._supply_card("Fighter")
            if fight < 0 or fighter is None or state.spec(fighter).cost + spec.cost > state.credits[player]:
                return []
            return [fight] if can_build(state, player, fighter, fight, scramble=True) else []
        case "player":
            return [q for q in state.alive(state.n) if q != player and not state.embargo[q]]
        case "unjumped-ship":
            return [x.card for x in state.pieces if x.owner != player and state.spec(x.card).kind == "ship"
                    and x.jumps == 0 and not x.pinned]  # fmt: skip
        case "adjacent-uncontrolled-system":
            if state.credits[player] < spec.cost + state.engine.development_cost(0):
                return []
            mine = {n for c in cells if state.owner[c] == player for n in state.neighbours(c)}
            return [c for c in sorted(mine) if state.owner[c] < 0 and state.revealed[c]]
    return []


def untargeted(state: StarState, player: int, spec: CardSpec, item: Item | None) -> list[int]:
    verbs = {e.verb for e in spec.effects}
    if "arrange-top" in verbs:
        return [d for d, deck in enumerate(state.decks) if deck]
    if "prevent" in verbs:  # a prevention answers damage assigned to one of the player's pieces
        return sorted({t for _, t in state.assigned if (x := state.piece(t)) is not None and x.owner == player})
    if "cancel" in verbs:
        return (
            [item[2]]
            if item and item[0] == "card" and item[1] != player and state.spec(item[2]).kind == "command"
            else []
        )
    if "gain-scrap-value" in verbs:
        if not item or item[0] != "destroyed":
            return []
        return [item[1]] if any(x.owner == player and x.cell == item[2] for x in state.pieces) else []
    return [-1]
