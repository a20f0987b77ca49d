"""Games described by a rules file: `engine.yaml` in a game folder, played by one interpreter, no Python needed.

A designer writes the game's zones, values, set-up, turn, card effects and ending as data beside its cards
(`source.py` reads it, `syntax.py` and `compiler.py` compile its expressions, `steps.py` and `choices.py` its steps,
`verbs.py` its cards' effects in the framework's one grammar); `engine.DescribedEngine` plays it on the framework's
flow with the same surface as every bundled engine, so `cardgen play`, `replay`, `balance` and the agents work on
it unchanged. `cardgen rules-reference` prints every construct (`reference.py`); docs/guide/rules-as-data.md teaches
them. Nothing in a rules file is ever run as Python: it is parsed, compiled into closures and bounded.
"""
