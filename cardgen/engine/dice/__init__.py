"""The core's dice-battle solver: the exact odds of a battle fought in volleys of dice, which the games configure.

A game gives its rules — the fire schedule (fixed phases, then a round repeated until the battle is over), how a
volley's hits are allocated, when a side retreats, and a canonical position — and the core solves the Markov chain
exactly: distributions over positions merged as they are carried from phase to phase, then the repeated round as an
absorbing chain (a round that changes nothing returns to its start, its mass divided by the chance of changing
something, positions taken in order of damage left). Three representations of one chain:
- `chain`: any canonical position, a position at a time with dictionaries (the reference the others are tested
  against, and what a rolled battle draws from); the game's limit on the units it accepts keeps it small;
- `pairs`: a position as the pair of the two sides' states (Rift Domination: every unit's shields and LP and the
  repairs used), each changed by the hits the other side scores: a table of the two sides' reachable states, a
  layer of equal damage left at a time with numpy (118,000 positions in about a second);
- `lattice`: a side's state as a function of the hits it has taken (Space Empires 4X, whose targets depend only on
  the target side's own state), an anti-diagonal of hits at a time with numpy: millions of states in seconds.
  Both are imported apart (`cardgen.engine.dice.pairs`, `.lattice`), so numpy stays out of the engine's start-up.
`BattleReport` is what either game's calculator prints (`cardgen odds`).
"""

from cardgen.engine.dice.chain import Chain, Ending, TooManyStates, draw, solve, spread
from cardgen.engine.dice.report import BattleReport

__all__ = ["BattleReport", "Chain", "Ending", "TooManyStates", "draw", "solve", "spread"]
