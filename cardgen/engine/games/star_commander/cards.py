"""Star Commander's cards in hand and on the response stack: drawing (the hand limit first, a choice of domain, a
Domain deck rebuilt from its discards when it runs out), playing a card (paid, put on the stack, offered to the other
players' responses), a technology's triggered ability, resolving a card (a technology stays in play, a command's
statements run one task each, a cancelled card is discarded), discarding and selling. Task handlers (`@task`) and
functions of the state, run by `state.StarState`'s flow."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.engine.flow import task
from cardgen.engine.games.star_commander import effects
from cardgen.engine.games.star_commander.model import Item

if TYPE_CHECKING:
    from cardgen.engine.games.star_commander.state import StarState


@task
def draw(state: StarState, player: int, count: int, domain: int = -1) -> None:
    state.push(*[("draw_one", player, domain)] * count)


@task
def draw_one(state: StarState, player: int, domain: int) -> None:
    if len(state.hands[player]) >= state.hand_limit(player):  # Hand Limit: discard first
        state.tasks.append(("draw_one", player, domain))
        state.ask("discard", player)
        return
    options = [domain] if domain >= 0 else [d for d in state.domains_of(player) if state.decks[d] or state.discards[d]]
    if not options:
        state.problem("a player could not draw: every Domain deck they may draw from was used up")
        return
    if len(options) > 1:
        state.ask("domain", player)
        return
    draw_from(state, player, options[0])


def draw_from(state: StarState, player: int, domain: int) -> None:
    deck = state.decks[domain]
    name = state.engine.domains[domain]
    if not deck:
        if not state.discards[domain]:
            state.problem(f"the {name} deck and its discards were used up")
            return
        deck += state.discards[domain]
        state.discards[domain] = []
        state.shuffle(deck, name)
        state.problem(f"the {name} deck ran out and its discards were shuffled in")
        for known in state.known:
            known[domain] = ()
    card = deck.pop()
    if len(state.hands[player]) >= state.engine.hand_limit:  # kept only thanks to a higher hand limit
        state._used_lasting(player, "hand-limit", 1)
    for known in state.known:
        if known[domain]:
            known[domain] = known[domain][1:]
    state.chance.record("draw", [player, card])
    state.hands[player].append(card)


def play(state: StarState, player: int, card: int, target: int, answered: Item | None = None) -> None:
    """Play a card from hand: pay it, put it on the stack and offer the other players a response."""
    spec = state.spec(card)
    state.cards_played.add(spec.item)
    state.hands[player].remove(card)
    state.credits[player] -= spec.cost
    state.playing.append(card)
    extra = answered[1] if answered and answered[0] == "destroyed" else -1
    item = ("card", player, card, target, extra)
    others = tuple(seat for seat in state.order_from(player) if seat != player)
    state.push(("window", item, others), ("resolve_item", item))


def use_ability(state: StarState, player: int, card: int, answered: Item) -> None:
    """A technology's ability answering a card played (paid; once for each card it answers): draw a card."""
    spec = state.spec(card)
    state.used.add((card, answered[2]))
    state.credits[player] -= spec.effects[0].amount
    state.applied.add(spec.item)
    state.push(("draw", player, 1))


def resolve(state: StarState, item: Item) -> None:
    """A card on the stack resolves (damage and destruction windows resolve as nothing more)."""
    if item[0] != "card":
        return
    _, player, card, target = item[:4]
    state.playing.remove(card)
    if card in state.vetoed:  # cancelled: discarded without effect
        state.return_card(card)
        return
    spec = state.spec(card)
    if spec.kind == "technology":
        state.techs[player] = [*state.techs[player], card]  # replaced, never changed: clones share them
        state._changed(player)
        return
    state.return_card(card)
    state.applied.add(spec.item)
    extra = item[4] if len(item) > 4 else -1
    # one task per statement, in the printed order: a statement's own steps (a draw) finish before the next
    state.push(*[("effect", player, card, i, target, extra) for i in range(len(spec.effects))])


@task
def effect(state: StarState, player: int, card: int, index: int, target: int, extra: int) -> None:
    statement = state.spec(card).effects[index]
    if statement.trigger is None or statement.trigger in ("command-played", "damage-assigned", "ship-destroyed"):
        effects.apply_effect(state, player, statement, card, target, extra)


@task
def discard(state: StarState, player: int) -> None:
    if state.hands[player]:
        state.ask("discard", player)


@task
def sold(state: StarState, player: int) -> None:
    """The second half of a trade: cards discarded, credits gained (more with a technology that pays for it)."""
    gain = state.engine.sell["gain"]
    for card in state.techs[player]:
        for e in state.spec(card).effects:
            if e.trigger == "trade-discard":
                gain += e.amount
                state.applied.add(state.spec(card).item)
    state.credits[player] += gain
