"""Star Commander's legal actions, piece by piece: commands, jumps and their destinations, development, shipyards
and builds, card plays and their targets. Functions of the state, called by `state.StarState._list_actions`; every one
is a pure query (listing leaves the state as it was: `StarState._listing`)."""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Any

from cardgen.engine.core import SHARED_BOUND
from cardgen.engine.games.star_commander.model import (
    Ability,
    Build,
    CardSpec,
    Develop,
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


def supply_cheapest(state: StarState) -> dict[int, int]:
    """The supply's pieces, one of each kind (`pieces`), by kind: the copies of a core card are numbered one after
    another (`StarEngine.core_runs`), so the lowest number the supply holds in a run is the one."""
    engine = state.engine
    held = sorted(state.supply)
    if held and held[0] < engine.core_start:  # never in play: only core cards go to the supply
        return {engine.item_index[c]: c for c in pieces(state, state.supply)}
    found: dict[int, int] = {}
    for kind, first, past in engine.core_runs:
        at = bisect_left(held, first)
        if at < len(held) and held[at] < past:
            found[kind] = held[at]
    return found


def command_actions(state: StarState, player: int) -> list[Any]:
    """Every Command-phase action of a player, in a fixed order: moves piece by piece, explorations, builds, scraps,
    command plays, technologies, developments, trades. The player's facts every part asks (lasting effects, pieces,
    credits) are read once here: this list is most of a game's decisions (issue 42's profile: 70 % of a game).
    What does not change from one of the player's actions to the next is kept for the next listing (`Carry`)."""
    carry = state._carry
    if carry is None or carry.player != player or not carry.valid(state):
        carry = state._carry = Carry(state, player)
    engine = state.engine
    credits = state.credits[player]
    # the player's pieces, read only by the parts not kept: jumps, where each kind may be built, scraps and ships
    kept = carry.joined is not None and carry.placed is not None and carry.pieces is not None
    mine = [] if kept else [x for x in state.pieces if x.owner == player]
    out: list[Any] = moves(state, player, mine, carry)
    if carry.pieces is None:
        ship, contested, scrap = engine.ship, carry.contested, engine.scrap_actions
        carry.pieces = (sorted({x.cell for x in mine if ship[x.card]}),
                        [scrap[x.card] for x in mine if not x.fresh and not contested[x.cell]])  # fmt: skip
    ships, scraps = carry.pieces
    explore = engine.cell_actions(len(state.owner))[0]
    out += [explore[c] for c in ships if not state.revealed[c]]
    out += builds(state, player, mine, carry)
    out += scraps
    hand = distinct(state, state.hands[player])
    cards = engine.cards
    out += plays(state, player, [c for c in hand if cards[c].kind == "command" and cards[c].timing == "command-phase"
                                 and cards[c].cost <= credits])  # fmt: skip
    play = engine.play_actions
    out += [play[c] for c in hand if cards[c].kind == "technology" and cards[c].cost <= credits]
    if credits >= engine.development_cost(0):
        if carry.develop is None or carry.develop[0] != ships:
            carry.develop = ships, developments(state, player, ships, carry.owned)
        out += [action for action, need in carry.develop[1] if credits >= need]
    if not state.embargo[player]:
        if carry.draw is None:
            carry.draw = state.draw_cost(player), state.domains_of(player)
        draw_cost, domains = carry.draw
        if credits >= draw_cost:
            decks, discards, draw = state.decks, state.discards, engine.draw_actions
            out += [draw[d] for d in domains if decks[d] or discards[d]]
        if len(state.hands[player]) >= engine.sell["discard"]:
            out.append(TradeSell())
    carry.lasting = state._lasting.get(player)
    return out


class Carry:
    """What a player's command listing keeps for their next one (`StarState._carry`): each piece's jumps (`rows`,
    card -> its Move actions, and `joined`, all of them in the player's order), what they read of lasting effects
    (`reach`), each controlled system's build counts (`flags`, `cell_flags`), where each kind of piece may be built
    and each card's builds there (`placed`, `built`), the supply's cheapest piece of each kind (`supply`), each
    card's build cost (`costs`), the systems controlled and contested, the cells holding the player's ships and the
    scraps on offer (`pieces`), the developments on offer by those cells (`develop`), the cost of a trade draw and
    the domains drawn from (`draw`), with what they were worked out from.

    Kept only from one command decision to the next of the same player (`StarState._apply`, `before`, `after`): past
    a Build, a Scrap or a Move of a piece whose card has no lasting effect, the piece that jumped or went is listed
    again, every Fighter when a Fighter came, went or moved (their destinations count Fighters), a system's counts
    are brought up to date where no other player's piece is (asked again where one is), and the ships' cells and
    scraps are asked again unless a piece was built (not scrapped this turn, in a system held); past a Develop,
    what reads control and developments is dropped; past a trade, a command that changes only what every listing
    reads afresh or `valid` checks (`StarEngine.plain_plays`), and the draws and discards they ask for, nothing is.
    Anything else the parts read is checked on every listing (`valid`): the pieces' number, control and
    developments, combat clocks, this turn's effects (the jumps listed again when the extra or spare jumps changed,
    the build counts when the shipyard grants did) and the player's lasting effects (gathered anew whenever a
    technology or a piece with one comes or goes, `StarState._changed`); the supply is compared whole. A state
    changed by hand (a test's) drops `_carry` itself (`StarState.ask_again`)."""

    __slots__ = ("built", "clocks", "contested", "costs", "count", "develop", "devs", "draw", "flags", "joined",
                 "lasting", "owned", "owner", "pieces", "placed", "player", "reach", "rows", "supply",
                 "temp")  # fmt: skip

    def __init__(self, state: StarState, player: int):
        self.player = player
        self.rows: dict[int, list[Move]] = {}
        self.joined: list[Move] | None = None
        self.reach: tuple[int, int, list[tuple[int, ...]], set[int], set[int]] | None = None
        self.flags: dict[int, list[Any]] = {}  # by cell (`cell_flags`)
        self.placed: tuple[list[int], ...] | None = None  # where each kind of piece may be built (`_placed`)
        self.built: dict[int, list[Build]] = {}  # each card's builds there
        self.pieces: tuple[list[int], list[Scrap]] | None = None  # the cells holding ships, the scraps
        self.supply: tuple[list[int], dict[int, int]] | None = None  # the supply as listed, its cheapest by kind
        self.costs: tuple[tuple[int, int], dict[int, int]] = ((-1, -1), {})  # the discount, each card's build cost
        self.owned = [cell for cell, owner in enumerate(state.owner) if owner == player]
        last_end = state.last_end  # `StarState.contested`, every system at once
        self.contested = [o >= 0 and at > last_end[o] for o, at in zip(state.owner, state.combat_at, strict=True)]
        self.draw: tuple[int, list[int]] | None = None
        self.develop: tuple[list[int], list[tuple[Develop, int]]] | None = None  # by the cells holding ships
        self.count = len(state.pieces)
        self.owner, self.devs = list(state.owner), list(state.devs)
        self.clocks = (list(state.combat_at), list(state.last_end))
        self.temp = _temporary(state)
        self.lasting: object = None  # the player's lasting effects the listing read (`StarState.lasting`)

    def valid(self, state: StarState) -> bool:
        """Whether what is kept still holds, after bringing it up to this turn's effects: the jumps are listed again
        when the extra jumps or the spare jump changed, the systems' build counts when the shipyard grants did."""
        if not (self.lasting is not None and state._lasting.get(self.player) is self.lasting
                and self.count == len(state.pieces) and state.owner == self.owner and state.devs == self.devs
                and state.combat_at == self.clocks[0] and state.last_end == self.clocks[1]):  # fmt: skip
            return False
        temp = _temporary(state)
        if temp != self.temp:
            active, grants, extra, spare, lifted = self.temp
            if temp[0] != active or temp[4] != lifted:
                return False
            if temp[2] != extra or temp[3] != spare:  # each ship's jumps left
                self.rows, self.joined, self.reach = {}, None, None
            if temp[1] != grants:  # a shipyard where the player has a station
                self.flags, self.placed, self.built = {}, None, {}
            self.temp = temp
        return True

    def supply_pieces(self, state: StarState) -> tuple[int, ...]:
        """`pieces` of the supply: its cheapest card of each kind, kept and brought up to date past a Build or a
        Scrap of a core card (`after`); worked out anew from a supply changed otherwise."""
        if self.supply is None or self.supply[0] != state.supply:
            self.supply = list(state.supply), supply_cheapest(state)
        return tuple(sorted(self.supply[1].values()))

    def supply_changed(self, state: StarState, card: int, change: int) -> None:
        """A core card left the supply (change -1: built) or came back to it (+1: scrapped)."""
        if self.supply is None:
            return
        listed, cheapest = self.supply
        kind = state.engine.item_index
        k = kind[card]
        if change > 0:
            listed.append(card)
            if cheapest.get(k, card) >= card:
                cheapest[k] = card
        elif card in listed:
            listed.remove(card)
            if cheapest.get(k) == card:
                del cheapest[k]
                rest = [c for c in listed if kind[c] == k]
                if rest:
                    cheapest[k] = min(rest)


def _temporary(state: StarState) -> tuple[Any, ...]:
    """This turn's effects the kept parts read: the active player (the spare jump), grants, extra and spare jumps,
    lifted sieges."""
    t = state.temp
    return state.active, t.grants, t.extra_jumps, t.spare_used, frozenset(t.lifted)


# what `before` gives for an action that moves no piece and changes no system (a trade, a card drawn or discarded)
UNTOUCHED: tuple[int, tuple[int, ...], int] = (-1, (), 0)
DEVELOPED = -2  # `before`'s card for a Develop (its cell follows)


def before(state: StarState, carry: Carry, action: Any) -> tuple[int, tuple[int, ...], int] | None:
    """What a command action about to be applied touches, for `after`: its piece's card (or UNTOUCHED, DEVELOPED),
    the cells it leaves or enters, the change in the number of pieces; None when the listing is not kept past it (a
    card with a lasting effect, an exploration, a technology or a command that may change the board, the end of the
    phase)."""
    if isinstance(action, (TradeDraw, TradeSell)):
        return UNTOUCHED
    if isinstance(action, Play):  # a command whose effects `valid` checks, or no kept part reads
        return UNTOUCHED if state.engine.plain_plays[action.card] else None
    if isinstance(action, Develop):
        return DEVELOPED, (action.cell,), 0
    if not isinstance(action, (Build, Scrap, Move)) or state.engine.lasting_verbs[action.card]:
        return None
    if isinstance(action, Build):
        return action.card, (action.cell,), 1
    x = state.piece(action.card)
    if x is None:
        return None
    if isinstance(action, Scrap):
        return action.card, (x.cell,), -1
    return action.card, (x.cell, action.cell), 0


def after(state: StarState, carry: Carry, touched: tuple[int, tuple[int, ...], int]) -> Carry | None:
    """The listing kept past the action `before` looked at, or None when something else came of it (a piece
    destroyed by a picket, Fighters lost over a limit). A system's flags stay when a plain ship (neither a Fighter
    nor a station) came or went where no enemy piece is: no count they compare changed, nor whether it is under
    siege. A development changes who controls a system and its developments: what they were read for is dropped."""
    card, cells, change = touched
    if len(state.pieces) != carry.count + change:
        return None
    if card == UNTOUCHED[0]:
        return carry
    if card == DEVELOPED:
        (cell,) = cells
        carry.owner, carry.devs = list(state.owner), list(state.devs)
        carry.owned = [c for c, owner in enumerate(state.owner) if owner == carry.player]
        carry.contested[cell] = state.contested(cell)
        carry.flags.pop(cell, None)
        carry.rows, carry.joined, carry.reach, carry.draw = {}, None, None, None
        carry.placed, carry.built, carry.develop, carry.pieces = None, {}, None, None
        return carry
    carry.count += change
    engine = state.engine
    if change and engine.cards[card].domain < 0:  # a core card built from the supply, or scrapped back to it
        carry.supply_changed(state, card, -change)
    if change <= 0:  # the piece that jumped or went (one built this turn is not scrapped, in a system held: explored)
        del carry.rows[card]
        carry.joined, carry.pieces = None, None
    fighter, station = engine.fighter[card], engine.station[card]
    if fighter:  # a Fighter's destinations count the Fighters there, and so does the Fighter limit
        carry.rows = {c: row for c, row in carry.rows.items() if not engine.fighter[c]}
        carry.joined = None
    if fighter or station:
        carry.placed, carry.built = None, {}
    signs = (-1, 1) if change == 0 else (change,)  # a Move leaves one system and enters another
    for cell, sign in zip(cells, signs, strict=True):
        found = carry.flags.get(cell)
        if found is None or not (fighter or station or found[5]):  # a plain ship where no enemy is: nothing changed
            continue
        if found[5] or (station and state.temp.grants):  # a siege, or a station's grant: asked again
            del carry.flags[cell]
            carry.placed, carry.built = None, {}
        else:
            found[2 if station else 3] += sign
    return carry


def moves(state: StarState, player: int, mine: list[Piece], carry: Carry | None = None) -> list[Move]:
    """Each of the player's pieces' jumps, piece by piece, destinations in cell order: a ship not built this turn
    nor pinned, with jumps left (its own, this turn's extra jumps, the spare jump of the active player; a Fighter's
    from `fighter-jumps`), to the cells one jump away (along sides too with `orthogonal-jumps`), from a gate to the
    player's other gates and Homeworld; a Fighter only into the player's systems with a free Fighter slot. Each
    piece's jumps are kept in `carry` (`Carry.rows`, `Carry.joined`), and taken from there when kept."""
    if carry is not None and carry.joined is not None:  # no jumps changed since (a piece built this turn has none)
        return list(carry.joined)
    rows: dict[int, list[Move]] = {} if carry is None else carry.rows
    reach = None if carry is None else carry.reach
    cards = state.engine.cards
    pending = []
    for piece in mine:
        if piece.card not in rows:
            spec = cards[piece.card]
            if spec.kind == "ship" and not piece.fresh and not piece.pinned:
                pending.append(piece)
            else:  # never jumps this turn
                rows[piece.card] = []
    if pending:
        if reach is None:
            lasting, temp = state.lasting, state.temp
            fighter_jumps = sum(e.amount for e, _ in lasting(player, "fighter-jumps"))
            extra = temp.extra_jumps
            if player == state.active and not temp.spare_used:
                extra += sum(e.amount for e, _ in lasting(player, "spare-jump"))
            table = state.jumps[bool(lasting(player, "orthogonal-jumps"))]
            gates = {src.cell for _, src in lasting(player, "gate") if src is not None}
            owner = state.owner
            homes = {c for c in gates | {state.home[player]} if owner[c] == player} if gates else set()
            reach = fighter_jumps, extra, table, gates, homes
            if carry is not None:
                carry.reach = reach
        fighter_jumps, extra, table, gates, homes = reach
        owner, made = state.owner, state.engine.move_actions
        for piece in pending:
            spec = cards[piece.card]
            row: list[Move] = []
            fighter = spec.fighter
            if piece.jumps < (fighter_jumps if fighter else spec.jump + extra):
                here = piece.cell
                cells: Any = table[here]
                if here in gates:
                    cells = sorted({*cells, *homes} - {here})
                elif here in cells:
                    cells = [c for c in cells if c != here]
                if fighter:
                    fighters, slots = state.fighters, state.fighter_slots
                    cells = [c for c in cells if owner[c] == player and fighters(player, c) < slots(player, c)]
                made_row = made.get(piece.card)
                if made_row is None or len(made_row) < len(owner):  # made once for the largest board yet: shared
                    made_row = made[piece.card] = [Move(piece.card, cell) for cell in range(len(owner))]
                row = [made_row[c] for c in cells]
            rows[piece.card] = row
    out: list[Move] = []
    for piece in mine:
        out += rows[piece.card]
    if carry is None:
        return out
    carry.joined = out
    return list(out)


def developments(state: StarState, player: int, ships: list[int], owned: list[int]) -> list[tuple[Develop, int]]:
    """Each system the player may develop (`developable`) with what it costs, in cell order: their own with room
    for one more, or an explored one holding one of their ships."""
    develop, cost, devs = state.engine.cell_actions(len(state.owner))[1], state.engine.development_cost, state.devs
    return [(develop[c], cost(devs[c])) for c in sorted({*ships, *owned}) if developable(state, player, c)]


def developable(state: StarState, player: int, cell: int) -> bool:
    """Whether the player may develop a system, given the credits: explored, and theirs with room for one more, or
    uncontrolled with one of their ships there."""
    o, devs = state.owner[cell], state.devs[cell]
    if not state.revealed[cell]:
        return False
    if o < 0:
        return any(x.owner == player and state.spec(x.card).kind == "ship" for x in state.at(cell))
    return o == player and devs < state.system(cell).max_development


def shipyard(state: StarState, player: int, cell: int, siege: bool | None = None) -> bool:
    """Whether p may build ships in a system: the Homeworld always; a capital or a system with p's shipyard
    station while neither contested nor under siege (`siege`, when the caller has asked `under_siege`)."""
    if cell == state.home[player]:
        return True
    if state.owner[cell] != player or state.contested(cell) or (state.under_siege(cell) if siege is None else siege):
        return False
    if state.system(cell).capital:
        return True
    stations = [src for _, src in state.lasting(player, "shipyard") if src is not None and src.cell == cell]
    if stations:
        return True
    return state.temp.grants > 0 and any(
        x.owner == player and state.spec(x.card).kind == "station" for x in state.at(cell)
    )


def builds(state: StarState, player: int, mine: list[Piece], carry: Carry) -> list[Build]:
    """Every affordable build in every system where it may go (the same rules as `can_build`, with the player's
    totals counted once rather than per system), in (card, cell) order. Where each kind of piece may go, each
    card's builds there and each card's cost are kept in `carry` (`placed`, `built`, `costs`)."""
    engine = state.engine
    supply, hand = carry.supply_pieces(state), pieces(state, state.hands[player])
    credits = state.credits[player]
    if state.lasting(player, "cost") or state.temp.discount:
        discount = (state.temp.discount, state.temp.discount_min)
        if carry.costs[0] != discount:
            carry.costs = (discount, {})
        costs = carry.costs[1]
        for card in (*supply, *hand):
            if card not in costs:
                costs[card] = state.build_cost(player, card)
        choices = sorted(c for c in (*supply, *hand) if costs[c] <= credits)
    else:  # no modifier: every card costs its printed cost (`build_cost`)
        printed = engine.printed_cost
        choices = sorted(c for c in (*supply, *hand) if printed[c] <= credits)
    if not choices:
        return []
    placed = carry.placed
    if placed is None:
        placed = carry.placed = _placed(state, player, mine, carry)
    built, category, made = carry.built, engine.category, engine.build_actions
    out: list[Build] = []
    for card in choices:
        row = built.get(card)
        if row is None:
            everywhere = made.get(card)
            if everywhere is None or len(everywhere) < len(state.owner):  # made once for the largest board yet
                everywhere = made[card] = [Build(card, cell) for cell in range(len(state.owner))]
            row = built[card] = [everywhere[cell] for cell in placed[category[card]]]
        out += row
    return out


def _placed(state: StarState, player: int, mine: list[Piece], carry: Carry) -> tuple[list[int], ...]:
    """The systems where the player may build ships, stations and Fighters (by `engine.category`), from each
    system's flags (kept in `carry.flags`) and the player's Fighter limit (`developments`)."""
    flags, fighter, devs = carry.flags, state.engine.fighter, state.devs
    room_for_fighters = sum(1 for x in mine if fighter[x.card]) < sum([devs[c] for c in carry.owned])
    placed: tuple[list[int], list[int], list[int]] = ([], [], [])
    for cell in carry.owned:
        found = flags.get(cell)
        if found is None:
            found = flags[cell] = cell_flags(state, player, cell)
        yard, open_, stations, fighters, slots, _ = found
        if yard:
            placed[0].append(cell)
        if open_ and stations < devs[cell]:
            placed[1].append(cell)
        if room_for_fighters and yard and fighters < slots:
            placed[2].append(cell)
    return placed


def cell_flags(state: StarState, player: int, cell: int) -> list[Any]:
    """What decides whether the player may build in a system they control: [a shipyard (ships, and Fighters while
    one has a free slot), neither contested nor under siege (stations, fewer than its developments), their
    stations there, their Fighters there, its Fighter slots, another player's piece there]. The player's Fighter
    limit is counted apart (`_placed`); the counts are kept up to date past a build, scrap or jump (`after`)."""
    station, fighter = state.engine.station, state.engine.fighter
    stations = fighters = 0
    others = False
    for x in state.at(cell):  # one pass: a system holds a handful of pieces
        if x.owner != player:
            others = True
        elif station[x.card]:
            stations += 1
        elif fighter[x.card]:
            fighters += 1
    siege = others and state.under_siege(cell)  # no other player's piece there: no siege
    yard = shipyard(state, player, cell, siege)
    open_ = not state.contested(cell) and not siege
    return [yard, open_, stations, fighters, state.fighter_slots(player, cell), others]


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
    e = state.engine.targeted[card]
    if e is None:
        return untargeted(state, player, spec, item)
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
