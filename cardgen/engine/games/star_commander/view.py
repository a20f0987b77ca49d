"""What the greedy agent weighs in Star Commander, judged only from what the player can see.

Greedy looks one action ahead on a determinization of the state (face-down systems, the decks and the other hands
dealt again from what the player cannot tell apart), so an exploration or a draw is judged by what it could turn up,
never by the card the real game holds. The outlook values developments (income and what conquest takes), credits,
the fighting strength of ships and stations, cards in hand and technologies, pressure on the nearest enemy Homeworld
and what the opponents hold, with winning and losing above everything; a command's battles at Homeworlds are also
judged fought out, with the siege they leave (`_sieges`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from cardgen.engine.games.star_commander import listing
from cardgen.engine.games.star_commander.model import DONE, Assign, Done, Move, Phase
from cardgen.engine.rng import CounterRng

if TYPE_CHECKING:
    from cardgen.engine.games.star_commander.state import StarState


def strength(state: StarState, player: int) -> float:
    """Attack and half the hit points of the player's pieces; a piece that cannot leave its system (a station, a
    Fighter) counts for half: a fleet that can attack wins the game, a wall of stations only delays it."""
    fixed = state.engine.station, state.engine.fighter
    return sum((0.5 if fixed[0][x.card] or fixed[1][x.card] else 1.0) * (state.attack(x) + 0.5 * state.hp(x))
               for x in state.pieces if x.owner == player)  # fmt: skip


def position(state: StarState, player: int) -> float:
    if player in state.out:
        return -100.0
    devs = state.developments(player)
    income = sum(state.system(c).credits + state.devs[c] for c, o in enumerate(state.owner) if o == player)
    homes = [state.home[q] for q in state.alive(state.n) if q != player]
    pressure = 0.0
    # each jump closer to the nearest enemy Homeworld than the player's own Homeworld is counts: a ship built at home
    # counts nothing, never less (a penalty for every jump still to go made each ship built a loss — a Cruiser's 3.0
    # of strength less 2.0 of credits and 1.6 of distance at 4 players — and games froze with hundreds of credits)
    reach = min((state.distance(state.home[player], h) for h in homes), default=0)
    for x in state.pieces:
        spec = state.spec(x.card)
        if x.owner == player and spec.kind == "ship" and not spec.fighter and homes and spec.attack > 0:
            pressure += 0.4 * max(0, reach - min(state.distance(x.cell, h) for h in homes))
    home_devs = state.devs[state.home[player]]
    cards = 0.5 * len(state.hands[player]) + 1.2 * len(state.techs[player])
    return float(
        2.0 * devs
        + income
        + 0.4 * state.credits[player]
        + 0.6 * strength(state, player)
        + cards
        + pressure
        + 1.5 * home_devs
    )


def outlook(state: StarState, player: int) -> float:
    if state.phase == Phase.OVER:
        return 1000.0 * state.returns()[player]
    # against the sum of every opponent's position, the eliminated too (theirs is -100): at 2 players the same as
    # before; at 3 and 4 a mean over the survivors diluted a blow to one opponent by their number and made taking
    # the weakest one's Homeworld look like a loss (it raised the survivors' mean), so greedy built fleets and never
    # conquered (0 of 10 four-player games ended by the rules)
    others = [q for q in range(state.n) if q != player]
    return position(state, player) - sum(position(state, q) for q in others)


def action_value(state: StarState, action: Any, player: int) -> float:
    """Greedy's valuation, judged on a determinization of what the player cannot see."""
    if isinstance(action, Assign):
        return assign_value(state, action, _dealt_now(state))
    return _judged(_determinized(state, player).clone(), state, action, player)


def playout_action_value(state: StarState, action: Any, player: int) -> float:
    """The same valuation inside a search, whose state is already one deal of what the player cannot see."""
    if isinstance(action, Assign):
        return assign_value(state, action, _dealt_now(state))
    return _judged(state.clone(), state, action, player)


def _judged(trial: StarState, state: StarState, action: Any, player: int) -> float:
    command = state.decision is not None and state.decision[0] == "command"
    if command:  # judged at the turn's own end: the next player's Ready phase is left out (`_end_turn`)
        _hold_ready(trial, player)
    if isinstance(action, Move) and command:
        _join(trial, action, player)
    else:
        trial.do(action, chance=False)
    if command:  # every command is judged by the end of the turn it allows: ending the turn now is always possible
        _end_turn(trial, player)
    value = outlook(trial, player)
    if command and trial.phase != Phase.OVER:
        value += _sieges(trial, player, value)
    if command and isinstance(action, Done) and trial.phase != Phase.OVER:
        value -= 0.01  # among equal outlooks, act before ending the phase (but take a win at once)
    return value


def turn_values(state: StarState) -> list[float]:
    """The search's value of a position: the turn under way ended now and played out by default (`_end_turn`), each
    seat's outlook then, squashed into [0, 1] — with `BLOW_WEIGHT` of what the next player's strongest blow at a
    Homeworld would change (`_blow`). The search plans its own turn (`StarEngine.search_plan`) and never sees the
    next player's moves: the blow is what it foresees of them, so that a plan of developments that leaves its
    Homeworld open to a fleet one jump away is judged by the siege that follows."""
    trial, player = state.clone(), state.active
    _hold_ready(trial, player)
    if trial.decision is not None and trial.decision[:2] == ("command", player):
        trial.do(DONE, chance=False)
    _end_turn(trial, player)
    values = [outlook(trial, seat) for seat in range(state.n)]
    if trial.phase != Phase.OVER and (blow := _blow(trial)) is not None:
        values = [v + BLOW_WEIGHT * (outlook(blow, seat) - v) for seat, v in enumerate(values)]
    return [1 / (1 + math.exp(-v / 10)) for v in values]


BLOW_WEIGHT = 0.5  # how much of the forecast blow counts: the defender may still build or answer before it lands


def _blow(trial: StarState) -> StarState | None:
    """The next player's strongest blow at a Homeworld, forecast on a copy: every armed ship of that player that its
    printed jump brings to an enemy Homeworld goes in, the battle is fought out and the siege it leaves run (as
    greedy's `_sieges` does); the blow that raises the attacker's outlook most, or None where none raises it (a
    player does not throw its fleet away)."""
    if trial.decision is None or trial.decision[0] != "command":
        return None
    attacker = trial.decision[1]
    best, best_value = None, math.nan  # the attacker's outlook without a blow, worked out only if a blow is possible
    for defender in trial.alive(trial.n):
        if defender == attacker:
            continue
        cell = trial.home[defender]
        movers = [i for i, x in enumerate(trial.pieces) if x.owner == attacker and x.cell != cell
                  and (spec := trial.spec(x.card)).kind == "ship" and not spec.fighter and trial.attack(x) > 0
                  and trial.distance(x.cell, cell) <= max(1, spec.jump)]  # fmt: skip
        if not movers:
            continue
        if math.isnan(best_value):
            best_value = outlook(trial, attacker)
        forecast = trial.clone()
        for i in movers:
            forecast.own(forecast.pieces[i]).cell = cell
        forecast._changed()
        _run_sieges(forecast, [cell])
        if (value := outlook(forecast, attacker)) > best_value:
            best, best_value = forecast, value
    return best


def default_action(state: StarState, legal: list[Any]) -> Any:
    """What greedy does at a decision outside the Command phase, judged on the state as it is (inside a search, one
    deal of what the player cannot see): each shot by `assign_value`, anything else by the outlook after it."""
    player = state.current_player()
    return max(legal, key=lambda action: (playout_action_value(state, action, player), -legal.index(action)))


def _hold_ready(trial: StarState, player: int) -> None:
    """Leave every other player's next Ready phase out, so that a position is judged at the end of `player`'s turn."""
    trial.started = [seat == player and started for seat, started in enumerate(trial.started)]


def assign_value(state: StarState, action: Assign, dealt: dict[int, int] | None = None) -> float:
    """Fire at a piece that the damage already assigned to it and this ship's destroy, one that others have started
    first (their damage is wasted otherwise), with the least overkill; else at the one nearest to being destroyed,
    the strongest first; never at a piece already doomed; holding fire is worst. `dealt` is `_dealt(state)`, worked
    out once for all the shots of one decision."""
    if action.target < 0:
        return -1.0
    target, attacker = state.piece(action.target), state.piece(action.attacker)
    assert target is not None and attacker is not None
    dealt_now = target.damage + (_dealt(state) if dealt is None else dealt).get(action.target, 0)
    need = state.hp(target) + 1 - dealt_now
    if need <= 0:
        return -0.5  # destroyed already: the shot is wasted
    worth = state.attack(target) + state.spec(target.card).cost * 0.1
    if state.attack(attacker) >= need:  # a destroy: best where it also saves the damage others have assigned
        return 20.0 + worth + 0.5 * dealt_now - 0.1 * (state.attack(attacker) - need)
    return 10.0 * dealt_now / (state.hp(target) + 1) + worth


def _dealt(state: StarState) -> dict[int, int]:
    """The damage the battle's shots so far have assigned to each target (by its card)."""
    dealt: dict[int, int] = {}
    for card, target in state.assigned:
        if (x := state.piece(card)) is not None:
            dealt[target] = dealt.get(target, 0) + state.attack(x)
    return dealt


_shots: list[Any] = [None, None]  # (legal list, `_dealt`): greedy values every shot of one decision in a row


def _dealt_now(state: StarState) -> dict[int, int]:
    """`_dealt` of a state at a shot's decision, worked out once for all its shots (keyed by its legal list, a new
    list whenever the state changes, like `_determinized`)."""
    legal = state.legal_actions()
    if _shots[0] is not legal:
        _shots[0], _shots[1] = legal, _dealt(state)
    dealt: dict[int, int] = _shots[1]
    return dealt


def _join(trial: StarState, move: Move, player: int) -> None:
    """A ship's jump, with every other ship of the player that can reach the same system this turn jumping there
    too: a jump into a battle is judged by the fleet it starts moving, not by the lone ship that goes first."""
    trial.do(move, chance=False)
    for _ in range(len(trial.pieces)):
        if trial.decision is None or trial.decision[:2] != ("command", player):
            return
        joining = next((jump for x in trial.pieces if x.owner == player and x.cell != move.cell
                        and (jump := Move(x.card, move.cell)) in listing.moves(trial, player, [x])), None)  # fmt: skip
        if joining is None:
            return
        trial.do(joining, chance=False)


SIEGE_WEIGHT = 0.5  # how much of the forecast end of the battles at Homeworlds counts beside the turn's own end
SIEGE_TURNS = 2  # the besieger's End phases a forecast siege runs for
ROUNDS = 12  # combat rounds a forecast battle is fought for at most


def _sieges(trial: StarState, player: int, value: float) -> float:
    """What the battles at Homeworlds add, fought out: greedy judged a battle only by the round fought in the turn,
    so a fleet beside an enemy Homeworld that would win over three rounds and take it never went in (one round lost
    it more than it cost the defender), and four-player games stalled at the turn cap with one seat holding most of
    the table (seed 2, game 5: 15 ships beside a Homeworld of 14 for ten rounds). Each Homeworld holding other
    players' pieces is fought out by `_fight` and a besieger left alone there takes `SIEGE_TURNS` End phases of
    developments (its Homeworld taken: the seat is out); `SIEGE_WEIGHT` of the outlook's change counts, for the
    defender's builds and the other players' moves the forecast does not see. A loss forecast counts as much: a fleet
    is not thrown at a Homeworld it cannot take, and a defender builds to hold its own."""
    cells = [trial.home[q] for q in trial.alive(trial.n)]
    fights = [c for c in cells if any(x.owner != trial.owner[c] for x in trial.at(c))]
    if not fights:
        return 0.0
    forecast = trial.clone()
    _run_sieges(forecast, fights)
    return SIEGE_WEIGHT * (outlook(forecast, player) - value)


def _run_sieges(forecast: StarState, fights: list[int]) -> None:
    """The battles in `fights` (Homeworlds) fought out and the sieges they leave run, on `forecast` itself."""
    for cell in fights:
        _fight(forecast, cell)
        defender = forecast.owner[cell]
        besiegers = {x.owner for x in forecast.at(cell)}
        if len(besiegers) != 1 or defender in besiegers or not forecast.under_siege(cell):
            continue
        (besieger,) = besiegers
        weight = 0
        for x in forecast.at(cell):
            spec = forecast.spec(x.card)
            if spec.kind == "ship" and not spec.fighter:
                heavy = spec.has("siege-weight")
                weight += heavy.amount if heavy else 1
        limit = min((e.amount for e, _ in forecast.lasting(defender, "conquest-limit")), default=weight)
        forecast.devs[cell] -= min(SIEGE_TURNS * min(weight, limit), forecast.devs[cell])
        if forecast.devs[cell] == 0:  # taken: the seat is out, its pieces and systems gone
            forecast.out[defender] = "forecast"
            forecast.owner[cell], forecast.devs[cell] = besieger, forecast.engine.conquest_developments
            forecast.pieces = [x for x in forecast.pieces if x.owner != defender]
            forecast.owner = [-1 if o == defender else o for o in forecast.owner]
            forecast._changed()


def _fight(state: StarState, cell: int) -> None:
    """The battle in a cell fought out, round after round, until one player's pieces are left (or none can hurt
    another's): every armed piece fires together, each where its shot destroys (the most valuable such target),
    else at the piece nearest to being destroyed, like `assign_value` without the cards' effects."""
    for _ in range(ROUNDS):
        here = state.at(cell)
        if len({x.owner for x in here}) < 2:
            return
        need = {x.card: state.hp(x) + 1 - x.damage for x in here}
        shots = sorted((x for x in here if state.attack(x) > 0), key=lambda x: -state.attack(x))
        if not shots:
            return
        left = dict(need)
        for shooter in shots:
            hit = state.attack(shooter)
            foes = [x for x in here if x.owner != shooter.owner and left[x.card] > 0]
            if not foes:
                continue
            kills = [x for x in foes if left[x.card] <= hit]
            if kills:
                target = max(kills, key=lambda x: (state.attack(x) + 0.1 * state.spec(x.card).cost, -left[x.card]))
            else:
                target = min(foes, key=lambda x: (left[x.card], -state.attack(x)))
            left[target.card] -= hit
        dead = {card for card, n in left.items() if n <= 0}
        if not dead:
            return
        state.pieces = [x for x in state.pieces if x.card not in dead]
        state._changed()


FINISH = 400  # decisions played by default to finish a judged turn (battles, retreats, windows) before giving up


def _end_turn(trial: StarState, player: int) -> None:
    """End the player's turn on the trial and play it out by default — each shot by `assign_value`, every window
    passed, no retreat — up to the next player's Command phase. The caller has left the next player's Ready phase
    out (`started`): the turn is judged at its own end, not after the next player's income, which made any action
    that kept the turn going look better than ending it."""
    for _ in range(FINISH):
        decision = trial.decision
        if decision is None or trial.phase == Phase.OVER:
            return
        if decision[0] == "command":
            if decision[1] != player:
                return
            trial.do(DONE, chance=False)  # always legal in the Command phase: no need to list the rest
            continue
        legal = trial.legal_actions()
        if decision[0] == "assign":
            dealt = _dealt(trial)
            choice = max(legal, key=lambda a: assign_value(trial, a, dealt))
        else:
            choice = next((a for a in legal if isinstance(a, Done)), legal[0])
        trial.do(choice, chance=False)


_last: list[Any] = [None, None]  # (legal list, determinization): greedy values every action of one state in a row


def _determinized(state: StarState, player: int) -> StarState:
    """One determinization per decision, seeded from the state (so games replay), shared by all its actions."""
    legal = state.legal_actions()  # a new list whenever the state changes: the key of this state's version
    if _last[0] is not legal:
        seed = (state.turns * 1_000_003 + len(state.chance.events) * 7919 + player) & ((1 << 63) - 1)
        _last[0], _last[1] = legal, state.determinize(player, CounterRng(seed))
    trial: StarState = _last[1]
    return trial
