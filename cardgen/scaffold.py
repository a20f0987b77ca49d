"""`cardgen new GAME-ID`: a small working game to start from — it lists, validates and builds as it is.

The scaffold is the smallest complete game: a manifest, a deck of three cards with a back, a rules.yaml with
quoted facts and five checks, an engine.yaml that plays it (`cardgen play`, `cardgen balance`), the two layouts,
and a `cardgen.toml` naming the folders so that plain `cardgen build` finds them.
"""

from __future__ import annotations

import re
from pathlib import Path

from cardgen.data.model import ID_PATTERN
from cardgen.errors import DataError, display_path
from cardgen.output import all_or_nothing, write_atomic
from cardgen.project import FILE_NAME

GAME = """# {title}: the manifest. See the guide's "Your game, step by step" (docs/guide/your-game.md).
id: {id}
title: {title}
players: [2, 4]
rulebook:
  title: {title} rules
settings:
  card_size: poker
  back: card-back
  colours:
    ink: "#1b1f2a"
    accent: "#2a62a3"
    paper: "#f4f1e8"
  icons:
    coin: {{shape: circle, fill: "#d9a400", label: "C", label_colour: "#1b1f2a"}}
card_types:
  card:
    fields:
      name: {{type: str}}
      cost: {{type: int, min: 0, max: 10}}
      effect: {{type: str, required: false, default: "", description: "what the card does when played (engine.yaml)"}}
      text: {{type: text, required: false, default: ""}}
components:
  - {{id: cards, kind: deck, title: Main deck, file: cards.yaml}}
"""

CARDS = """# The main deck. Items may also come from a spreadsheet: cards: {file: cards.csv}
type: card
front: card
cards:
  - {id: pioneer, count: 4, name: Pioneer, cost: 1, effect: "draw 1", text: "Draw a card."}
  - {id: trader, count: 4, name: Trader, cost: 2, effect: "coins 2", text: "Gain 2 {coin}."}
  - id: captain
    count: 4
    name: Captain
    cost: 4
    effect: "discount 1"
    text: "**Lead:** every other card you play this turn costs 1 {coin} less."
"""

RULES = """# Facts your rules fix (with the sentence they come from) and the checks that guard them.
facts:
  deck_size: {value: 12, cite: "Rules §1 — 'a deck of 12 cards'"}
  max_cost: {value: 4, cite: "Rules §2 — 'no card costs more than 4 coins'"}
checks:
  - {rule: The deck has 12 cards, check: count, component: cards, expect: {fact: deck_size}}
  - {rule: Costs stay in range, check: range, component: cards, field: cost, min: 0, max: {fact: max_cost}}
  - {rule: Card text fits, check: text-fits, component: cards}
  - {rule: Card text can be read at arm's length, check: min-text-size, component: cards}
  - {rule: Card text stands out from what lies under it, check: text-contrast, component: cards}
"""

ENGINE = """# How your game is played: cardgen play, replay and balance read this file (data, never code).
# Every key is in `cardgen rules-reference`; the guide is cardgen's docs/guide/rules-as-data.md.
cards:
  - {component: cards} # every copy of every card in cards.yaml is a card of the game
zones:
  deck: {visible: nobody} # the face-down deck
  market: {size: 3, fill_from: deck, short: allowed} # three cards face up: `fill: market` deals it full from the deck
  tableau: {each: player} # the cards each player has played
values:
  coins: {each: player, min: 0}
  discount: {each: player, min: 0} # what the player's captains take off this turn's buys
effects:
  fields: [effect] # the cards' `effect` field holds statements of these verbs ("coins 2", "draw 1")
  verbs:
    coins: {meaning: gain N coins, do: [{add: {coins: amount}}]}
    draw: {meaning: take N cards from the deck onto your tableau, do: [{draw: deck, to: tableau, count: amount}]}
    discount: {meaning: every other card bought this turn costs N less, do: [{add: {discount: amount}}]}
setup:
  - move: cards('cards')
    to: deck
  - shuffle: deck
  - fill: market
turn: # `player` is the player whose turn it is; `coins` alone means their coins
  - set: {discount: 0}
  - add: {coins: 2}
  - choose: # the legal actions are listed for the player, again and again until they pass
      until: pass
      options:
        - buy:
            from: market
            to: tableau
            cost: max(0, card.cost - discount)
            pay: coins
            label: buy {card.name}
            then:
              - effects: card # the card's effect: "coins 2", "draw 1", "discount 1"
              - fill: market
        - pass: pass
end: # checked after every turn
  - {when: "not market", ending: the cards ran out}
score: sum(card.cost for card in tableau) # a card is worth its cost
tiebreak: [coins]
evaluate: {"sum(card.cost for card in tableau)": 1, coins: 0.5} # what the greedy agent weighs
"""

CARD_LAYOUT = """{% import "_common/ui.xml.j2" as ui %}
<face bg="paper">
  {{ ui.title_bar(face, card.name, "accent") }}
  {{ ui.frame(face, "accent") }}
  {{ ui.cost(4, 14, card.cost, "coin") }}
  <rect x="8" y="22" w="{{ (face.width - 16)|mm }}" h="26" radius="2" fill="#e6ecf5" stroke="accent" dash="1.5 1"/>
  <text x="8" y="33" w="{{ (face.width - 16)|mm }}" h="5" size="7" align="center" colour="accent">your art here</text>
  {{ ui.text_box(6, 52, face.width - 12, face.height - 62, card.text, "text", size=9) }}
</face>
"""

BACK_LAYOUT = """{% import "_common/ui.xml.j2" as ui %}
<face bg="ink">
  {{ ui.plain_back(face, "ink", "accent", game.title) }}
</face>
"""

PROJECT = """# cardgen reads this file from the working directory: where your games and their layouts live.
# (A game's own checks.py runs once you trust it yourself: cardgen trust GAME.)
data = "card_data"
templates = "templates"
"""


def new_game(game_id: str, root: Path) -> list[Path]:
    """Write a new game `game_id` under `root` (card_data/ and templates/, and cardgen.toml if absent)."""
    if not re.match(ID_PATTERN, game_id):
        raise DataError(f"'{game_id}' is not a valid game id (letters, digits, '-', '_' and '.', starting with one)")
    data, layouts = root / "card_data" / game_id, root / "templates" / game_id
    for folder in (data, layouts):
        if folder.exists():
            raise DataError(f"{display_path(folder)}: already exists; choose another id or remove it")
    title = game_id.replace("-", " ").replace("_", " ").title()
    files = {
        data / "game.yaml": GAME.format(id=game_id, title=title),
        data / "cards.yaml": CARDS,
        data / "rules.yaml": RULES,
        data / "engine.yaml": ENGINE,
        layouts / "card.xml.j2": CARD_LAYOUT,
        layouts / "card-back.xml.j2": BACK_LAYOUT,
    }
    if not (root / FILE_NAME).exists():
        files[root / FILE_NAME] = PROJECT
    with all_or_nothing():
        for path, text in files.items():
            write_atomic(path, text.encode())
    return list(files)
