"""Star Commander's legal actions, piece by piece: commands, jumps and their destinations, development, shipyards
and builds, card plays and their targets. Functions of the state, called by `state.StarState._list_actions`; every one
is a pure query (listing leaves the state as it was: `StarState._listing`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.engine.core import SHARED_BOUND
from cardgen.engine.games.star_commander.model import (
    Ability,
    Build,
    CardSpec,
    Item,
    Move,
    Piece,
    Play,
    TradeDraw,
    TradeSell,
)

if TYPE_CHECKING:
    from cardgen.engine.games.star_commander.state import StarState


def distinct(state: StarState, cards: list[int]) -> tuple[int, ...]:
    """One card of each printed kind (copies of a card are the same choice): the lowest id of each. Remembered by
    the engine for each list of cards it has seen (hands and the supply recur: every listing asks)."""
    key = tuple(cards)
    memo = state.engine.distinct_cards
    found = memo.get(key)
    if found is None:
        item, best = state.engine.item_index, dict[int, int]()
        for card in cards:
            kind = item[card]
            if best.get(kind, card) >= card:
                best[kind] = card
        if len(memo) >= 100_000:  # a bound on the memory a long sweep may give it
            memo.clear()
        found = memo[key] = tuple(sorted(best.values()))
    return found


def pieces(state: StarState, cards: list[int]) -> tuple[int, ...]:
    """`distinct` of the cards that are pieces (ships and stations: what may be built), remembered the same way."""
    key = tuple(cards)
    memo = state.engine.distinct_pieces
    found = memo.get(key)
    if found is None:
        table = state.engine.cards
        if len(memo) >= SHARED_BOUND:
            memo.clear()
        found = memo[key] = tuple(c for c in distinct(state, cards) if table[c].piece)
    return found


def command_actions(state: StarState, player: int) -> list[Any]:
    """Every Command-phase action of a player, in a fixed order: moves piece by piece, explorations, builds, scraps,
    command plays, technologies, developments, trades. The player's facts every part asks (lasting effects, pieces,
    credits) are read once here: this list is most of a game's decisions (issue 42's profile: 70 % of a game)."""
    credits = state.credits[player]
    mine = [x for x in state.pieces if x.owner == player]
    out: list[Any] = moves(state, player, mine)
    ship = state.engine.ship
    ships = sorted({x.cell for x in mine if ship[x.card]})
    explore, develop = state.engine.cell_actions(len(state.owner))
    out += [explore[c] for c in ships if not state.revealed[c]]
    out += builds(state, player, mine)
    contested = state.contested
    scrap = state.engine.scrap_actions
    out += [scrap[x.card] for x in mine if not x.fresh and not contested(x.cell)]
    hand = distinct(state, state.hands[player])
    cards = state.engine.cards
    out += plays(state, player, [c for c in hand if cards[c].kind == "command" and cards[c].timing == "command-phase"
                                 and cards[c].cost <= credits])  # fmt: skip
    play = state.engine.play_actions
    out += [play[c] for c in hand if cards[c].kind == "technology" and cards[c].cost <= credits]
    cost = state.engine.development_cost
    if credits >= cost(0):
        owner, devs = state.owner, state.devs
        cells = sorted({*ships, *(c for c, o in enumerate(owner) if o == player)})
        out += [develop[c] for c in cells if credits >= cost(devs[c]) and can_develop(state, player, c)]
    if not state.embargo[player]:
        if credits >= state.draw_cost(player):
            out += [TradeDraw(d) for d in state.domains_of(player) if state.decks[d] or state.discards[d]]
        if len(state.hands[player]) >= state.engine.sell["discard"]:
            out.append(TradeSell())
    return out


def moves(state: StarState, player: int, mine: list[Piece]) -> list[Move]:
    """Each of the player's pieces' jumps, piece by piece, destinations in cell order: a ship not built this turn
    nor pinned, with jumps left (its own, this turn's extra jumps, the spare jump of the active player; a Fighter's
    from `fighter-jumps`), to the cells one jump away (along sides too with `orthogonal-jumps`), from a gate to the
    player's other gates and Homeworld; a Fighter only into the player's systems with a free Fighter slot."""
    cards, lasting, temp = state.engine.cards, state.lasting, state.temp
    fighter_jumps = sum(e.amount for e, _ in lasting(player, "fighter-jumps"))
    extra = temp.extra_jumps
    if player == state.active and not temp.spare_used:
        extra += sum(e.amount for e, _ in lasting(player, "spare-jump"))
    table = state.jumps[bool(lasting(player, "orthogonal-jumps"))]
    gates = {src.cell for _, src in lasting(player, "gate") if src is not None}
    owner = state.owner
    reach = {c for c in gates | {state.home[player]} if owner[c] == player} if gates else set()
    out: list[Move] = []
    made = state.engine.move_actions
    for piece in mine:
        spec = cards[piece.card]
        if spec.kind != "ship" or piece.fresh or piece.pinned:
            continue
        fighter = spec.fighter
        if piece.jumps >= (fighter_jumps if fighter else spec.jump + extra):
            continue
        here = piece.cell
        cells: Any = table[here]
        if here in gates:
            cells = sorted({*cells, *reach} - {here})
        elif here in cells:
            cells = [c for c in cells if c != here]
        if fighter:
            cells = [
                c for c in cells if owner[c] == player and state.fighters(player, c) < state.fighter_slots(player, c)
            ]
        row = made.get(piece.card)
        if row is None or len(row) < len(owner):  # made once for the largest board yet: a value, shared
            row = made[piece.card] = [Move(piece.card, cell) for cell in range(len(owner))]
        out += [row[c] for c in cells]
    return out


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


def builds(state: StarState, player: int, mine: list[Piece]) -> list[Build]:
    """Every affordable build in every system where it may go (the same rules as `can_build`, with the player's
    totals counted once rather than per system), in (card, cell) order."""
    cards, fighter, station = state.engine.cards, state.engine.fighter, state.engine.station
    choices = [*pieces(state, state.supply), *pieces(state, state.hands[player])]
    credits = state.credits[player]
    if state.lasting(player, "cost") or state.temp.discount:
        choices = [c for c in choices if state.build_cost(player, c) <= credits]
    else:  # no modifier: every card costs its printed cost (`build_cost`)
        choices = [c for c in choices if cards[c].cost <= credits]
    if not choices:
        return []
    # what each kind of choice needs of a system, worked out only for the kinds on offer (all are pure queries)
    stations = any(station[c] for c in choices)
    fighters = any(fighter[c] for c in choices)
    yards = fighters or not all(station[c] or fighter[c] for c in choices)
    owned = [cell for cell, owner in enumerate(state.owner) if owner == player]
    devs = state.devs
    # `developments`, from the cells just found
    room_for_fighters = fighters and sum(1 for x in mine if fighter[x.card]) < sum([devs[c] for c in owned])
    placed: tuple[list[int], list[int], list[int]] = ([], [], [])  # where ships, stations, fighters may be built
    for cell in owned:
        yard = yards and shipyard(state, player, cell)
        if yard:
            placed[0].append(cell)
        if stations or (yard and room_for_fighters):
            here = [x for x in state.at(cell) if x.owner == player]
            if (stations and not state.contested(cell) and not state.under_siege(cell)
                    and sum(1 for x in here if station[x.card]) < devs[cell]):  # fmt: skip
                placed[1].append(cell)
            if (yard and room_for_fighters
                    and sum(1 for x in here if fighter[x.card]) < state.fighter_slots(player, cell)):  # fmt: skip
                placed[2].append(cell)
    out: list[Build] = []
    made = state.engine.build_actions
    for card in sorted(choices):
        cells = placed[1 if station[card] else 2 if fighter[card] else 0]
        if cells:
            row = made.get(card)
            if row is None or len(row) < len(state.owner):  # made once for the largest board yet: a value, shared
                row = made[card] = [Build(card, cell) for cell in range(len(state.owner))]
            out += [row[cell] for cell in cells]
    return out


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
