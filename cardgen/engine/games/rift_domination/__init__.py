"""Rift Domination: `battle` (the battle rules, exact odds and one battle rolled, for the calculator and the engine)
and `odds` (`cardgen odds rift-domination`). The engine itself is issue 18's next step."""
