"""Whether this run may reach the network: `cardgen --fetch` (fetch every address games name, this run) or
`cardgen --offline` (fetch nothing), else what the user allowed each game folder for good (cardgen/remote.py).

Kept apart from the fetching itself so that the command line sets it without importing the data layer.
"""

from __future__ import annotations

from cardgen.errors import DataError

ALLOWED, FETCH, OFFLINE = "allowed", "fetch", "offline"
_policy = ALLOWED
_run = 0  # each command a run of its own (an address is fetched once a run, and again in the next)


def configure(fetch: bool = False, offline: bool = False) -> None:
    """Set this run's policy from `--fetch` and `--offline` (a command begins a run)."""
    global _policy, _run
    if fetch and offline:
        raise DataError("--fetch and --offline contradict each other: give one")
    _policy = FETCH if fetch else OFFLINE if offline else ALLOWED
    _run += 1


def run() -> int:
    """Which run this is: what was fetched in an earlier one is fetched again."""
    return _run


def policy() -> str:
    """`allowed` (what the user allowed for good), `fetch` (everything, this run) or `offline` (nothing)."""
    return _policy
