"""The core's dice-battle solver: the exact odds of a battle fought in volleys of dice, which the games configure.

A game gives its rules — the fire schedule (fixed phases, then a round repeated until the battle is over), how a
volley's hits are allocated, when a side retreats, and a canonical position — and the core solves the Markov chain
exactly: distributions over positions merged as they are carried from phase to phase, then the repeated round as an
absorbing chain (a round that changes nothing returns to its start, its mass divided by the chance of changing
something, positions taken in order of damage left). Two representations of one chain:
- `chain`: any canonical position (Rift Domination: every unit's shields and LP and the repairs used), a position at
  a time; the game's limit on the units it accepts keeps it small;
- `lattice`: a side's state as a function of the hits it has taken (Space Empires 4X, whose targets depend only on
  the target side's own state), an anti-diagonal of hits at a time with numpy: millions of states in seconds.
  It is imported apart (`cardgen.engine.dice.lattice`), so numpy stays out of the engine's start-up.
`BattleReport` is what either game's calculator prints (`cardgen odds`).
"""

from cardgen.engine.dice.chain import Chain, Ending, TooManyStates, draw, solve, spread
from cardgen.engine.dice.report import BattleReport

__all__ = ["BattleReport", "Chain", "Ending", "TooManyStates", "draw", "solve", "spread"]
