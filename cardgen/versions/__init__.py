"""Versions of a game and what changed between them: `cardgen diff` and `cardgen build --changed-since`.

`source` names and loads a version (a game of the data folder, a folder, or either at a git revision read by
`revision` without a checkout), `diff` compares two loaded games, `balance` finds each version's kept balance run,
and `report` prints the comparison and the changelog testers read.
"""
