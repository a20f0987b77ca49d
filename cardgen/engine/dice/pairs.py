"""The dice-battle chain over pairs of side states, solved with arrays (numpy): for battles in which each side's state
changes only by the hits the other side scores (its targets picked by a fixed policy), but is not a function of the
hits taken alone (Rift Domination: units of different kinds, repairs used, kamikaze strikes back).

The game numbers its side states (a position is the pair of the two sides' numbers, as `chain` takes it) and gives,
for a side state, the distribution of hits its volley scores at a range and the side state each number of hits
leaves it in (`Sides.takes`). Every state a side can reach is found first, from its starting states by every
number of hits the enemy can score and every strike back; the positions are then the cells of a table of the two
sides' states, and each volley's moves are gathered as arrays. Hits that strike back (a kamikaze destroyed) move
the struck side by one `struck` state per strike that lands, with the chances the game's `landing` gives; where the
struck side could strike back in turn, the game's own `strike` is asked, once per cell and code, and kept.

It is the same chain as `chain.solve`'s, with the same results (every ending's chance, the expected phases, the
positions met): the fixed phases carried forward volley by volley, then the repeated round (the attacker's volley,
then the defender's) solved as an absorbing chain whose positions are taken in order of damage left. Positions of
equal order never lead to one another, so each order's cells are one layer: the mass arrived there, the loop back to
the round's start (a round that changes nothing) summed in closed form, the retreats, and the volleys that carry it
on to later layers, all as arrays. Only the calculators import this module (numpy stays out of the engine's
start-up).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from cardgen.engine.dice.chain import Ending

ATTACKER, DEFENDER = 0, 1
Pair = tuple[int, int]  # (the attacker's side number, the defender's)
Moves = tuple[np.ndarray, ...]  # (place of the source in the cells asked, cell led to, chance[, code of a strike back])
CHUNK = 2048  # cells carried through a fixed phase's volley at once (each with up to a hundred outcomes)


@dataclass(frozen=True)
class Sides:
    """A battle as this solver reads it, by the game's side numbers (see the module's docstring).

    - `shots(number, at)`: the distribution of hits a side state's volley scores at a range;
    - `takes(side, number, most)`: for 0 … `most` hits on a side's state, the side state they leave, and the game's
      code of how it strikes back (0: it does not; a small number otherwise);
    - `strike(position, target, code)`: the positions the strikes back of side `target`, hit and left in `position`,
      lead to;
    - `struck(number)`: the side state one strike back leaves;
    - `landing(code)`: how many strikes back land, with their chances, when each is one `struck` and the struck side
      cannot strike back in turn (None: `strike` is asked);
    - `left`, `used`, `empty`: a side state's damage left, the repairs it used, whether it has no unit left (the
      chain's order is damage left, most first, then repairs used);
    - `leaving(attacker, defender)`: the side (0, 1) a retreat takes out of each cell before a round, -1 where none,
      given both sides' numbers (arrays);
    - `phases`: the ranges of the fixed phases; `round_at`: the range of the repeated round;
    - `strikes_back(side, number)`: whether a side state holds units that strike back when destroyed."""

    shots: Callable[[int, str], Sequence[float]]
    takes: Callable[[int, int, int], tuple[Sequence[int], Sequence[int]]]
    strike: Callable[[Pair, int, int], Mapping[Pair, float]]
    struck: Callable[[int], int]
    landing: Callable[[int], Sequence[tuple[int, float]] | None]
    left: Callable[[int], int]
    used: Callable[[int], int]
    empty: Callable[[int], bool]
    leaving: Callable[[np.ndarray, np.ndarray], np.ndarray]
    phases: tuple[str, ...]
    round_at: str
    strikes_back: Callable[[int, int], bool]  # whether a side's state (side, number) has units that strike back


class _Side:
    """One side's reachable states as rows: the game's numbers, their volleys and what the enemy's hits do."""

    def __init__(self, sides: Sides, side: int, starts: Sequence[int], most: int, ranges: Sequence[str], struck: bool):
        numbers: list[int] = []
        index: dict[int, int] = {}
        queue = list(starts)
        takes: dict[int, tuple[Sequence[int], Sequence[int]]] = {}
        singles: dict[int, int] = {}
        while queue:  # every state the enemy's hits (and strikes back) can leave this side in
            number = queue.pop()
            if number in index:
                continue
            index[number] = len(numbers)
            numbers.append(number)
            if sides.empty(number):
                continue
            takes[number] = sides.takes(side, number, most)
            queue.extend(n for n in takes[number][0] if n not in index)
            if struck:
                singles[number] = sides.struck(number)
                queue.append(singles[number])
        self.numbers, self.index = np.array(numbers, dtype=np.int64), index
        size = len(numbers)
        self.left = np.array([sides.left(n) for n in numbers], dtype=np.int64)
        self.used = np.array([sides.used(n) for n in numbers], dtype=np.int64)
        self.empty = np.array([sides.empty(n) for n in numbers], dtype=bool)
        self.back = np.array([sides.strikes_back(side, n) for n in numbers], dtype=bool)
        # after[row, h]: the row h enemy hits leave (an empty side stays itself); strike[row, h]: how they strike back
        self.after = np.repeat(np.arange(size, dtype=np.int64)[:, None], most + 1, axis=1)
        self.strike = np.zeros((size, most + 1), dtype=np.int64)
        for number, (after, strikes) in takes.items():
            row = index[number]
            self.after[row] = [index[n] for n in after]
            self.strike[row] = strikes
        self.single = np.arange(size, dtype=np.int64)  # single[row]: the row one strike back leaves
        for number, after_one in singles.items():
            self.single[index[number]] = index[after_one]

        self.shots: dict[str, np.ndarray] = {}
        # reach[at][row]: past the most hits a row's volley can score (the table's columns beyond it are zeros)
        self.reach: dict[str, np.ndarray] = {}
        for at in ranges:
            volleys = [sides.shots(n, at) if not sides.empty(n) else [1.0] for n in numbers]
            self.reach[at] = np.array([len(v) for v in volleys], dtype=np.int64)
            table = np.zeros((size, int(self.reach[at].max())))
            for row, volley in enumerate(volleys):
                table[row, : len(volley)] = volley
            self.shots[at] = table
        self._powers = [np.arange(size, dtype=np.int64)]
        self._stacked = np.array(self._powers)  # the powers as one array

    def powers(self, count: int) -> np.ndarray:
        """powers[j, row]: the row j strikes back leave a row in, one after the other (j < `count`)."""
        if len(self._powers) < count:
            while len(self._powers) < count:
                self._powers.append(self.single[self._powers[-1]])
            self._stacked = np.array(self._powers)
        return self._stacked[:count]


class _Table:
    """The positions as cells of the table of the two sides' states (cell = attacker row × defender rows + row)."""

    def __init__(self, sides: Sides, starts: Mapping[Pair, float]):
        self.sides = sides
        ranges = (*dict.fromkeys((*sides.phases, sides.round_at)),)
        firsts = ([p[0] for p in starts], [p[1] for p in starts])
        # the most hits a side can score: its starting states' volleys at full strength (hits only take units away)
        most = [max(len(sides.shots(n, at)) - 1 for n in firsts[s] for at in ranges) for s in (0, 1)]
        # a side is struck back at where the enemy starts with units that strike back (units are only lost)
        back = [any(sides.strikes_back(s, n) for n in firsts[s]) for s in (0, 1)]
        self.a = _Side(sides, ATTACKER, firsts[0], most[1], ranges, back[1])
        self.d = _Side(sides, DEFENDER, firsts[1], most[0], ranges, back[0])
        self.width = len(self.d.numbers)
        self.cells = len(self.a.numbers) * self.width
        rows_a, rows_d = np.divmod(np.arange(self.cells), self.width)
        self.over = self.a.empty[rows_a] | self.d.empty[rows_d]
        self._memo: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        self.span = int(max(self.a.strike.max(), self.d.strike.max())) + 1  # codes of strikes back
        # by code, once the code is met: whether the game says how many strikes land (`landing`), the chance of each
        # number landing (landed[code, strikes]), and one past the most that can
        self._met = np.zeros(self.span, dtype=bool)
        self._known = np.zeros(self.span, dtype=bool)
        self._landed = np.zeros((self.span, 1))
        self._reach = np.zeros(self.span, dtype=np.int64)

    def side(self, which: int) -> _Side:
        return self.a if which == ATTACKER else self.d

    def cell(self, pair: Pair) -> int:
        return self.a.index[pair[0]] * self.width + self.d.index[pair[1]]

    def pairs(self, cells: np.ndarray) -> list[Pair]:
        rows_a, rows_d = np.divmod(cells, self.width)
        return list(zip(self.a.numbers[rows_a].tolist(), self.d.numbers[rows_d].tolist(), strict=True))

    def pair(self, cell: int) -> Pair:
        a, d = divmod(cell, self.width)
        return int(self.a.numbers[a]), int(self.d.numbers[d])

    def moves(self, cells: np.ndarray, shooter: int, at: str) -> tuple[np.ndarray, Moves, Moves | None]:
        """Where one side's volley takes each cell: the chance it leaves the cell as it is (no hit that changes
        anything), and for every other (cell, hits) with a chance, the source's place in `cells`, the cell the hits
        leave and the chance; those whose hits strike back apart, with their codes (`strike_back` carries them on;
        a strike back destroys a unit, so it never leads back to its cell)."""
        rows_a, rows_d = np.divmod(cells, self.width)
        own, aim = (rows_a, rows_d) if shooter == ATTACKER else (rows_d, rows_a)
        side, target = self.side(shooter), self.side(1 - shooter)
        width = min(int(side.reach[at][own].max()), target.after.shape[1])
        shots = side.shots[at][own, :width]  # (cells, hits)
        after = target.after[aim, :width]
        dest = rows_a[:, None] * self.width + after if shooter == ATTACKER else after * self.width + rows_d[:, None]
        codes = target.strike[aim, :width]
        moving = (shots > 0.0) & (after != aim[:, None])  # no hit (or hits all taken by nothing) stays
        stay = np.where(after[:, 0] == aim, shots[:, 0], 0.0)
        plain = moving & (codes == 0)
        entries = np.flatnonzero(plain)  # a row's entries in order (row-major), found once for the three arrays
        moves = entries // width, dest.take(entries), shots.take(entries)
        if not (struck := moving & (codes != 0)).any():
            return stay, moves, None
        entries = np.flatnonzero(struck)
        return stay, moves, (entries // width, dest.take(entries), shots.take(entries), codes.take(entries))

    def strike_back(self, struck: Moves, mass: np.ndarray, target: int) -> tuple[np.ndarray, np.ndarray]:
        """The cells the strikes back of `struck` (moves whose hits strike back) lead to and the mass they carry
        there, from `mass` by place. Where the struck side cannot strike back in turn and the game says how many
        strikes land (`landing`), each is one step of the struck side's `single` table: all as arrays. Elsewhere the
        game's `strike` is asked, once per struck side's state and code where only that state changes, else once
        per cell and code; each answer kept for the solve. (Gathering the mass by cell and code first would save a
        tenth of the entries in the largest battle; its sort costs more.)"""
        places, cells, chances, codes = struck
        chances = mass[places] * chances
        shooter = 1 - target
        side = self.side(shooter)
        rows = np.divmod(cells, self.width)
        struck_rows, other_rows = rows[shooter], rows[target]
        alone = ~side.back[struck_rows]
        parts, asked = [], ~alone
        present = np.bincount(codes, minlength=self.span) > 0
        self._learn(np.flatnonzero(present & ~self._met))
        known = self._known[codes] & alone
        asked |= alone & ~known
        if known.any():
            most = int(self._reach[present & self._known].max())
            these = np.flatnonzero(known)
            row = side.powers(most)[:, struck_rows[these]].T  # (entries, strikes)
            chance = chances[these, None] * self._landed[codes[these], :most]
            other = other_rows[these, None]
            dest = row * self.width + other if shooter == ATTACKER else other * self.width + row
            kept = np.flatnonzero(chance > 0.0)
            parts.append((dest.take(kept), chance.take(kept)))
        if asked.any():
            parts.append(self._asked(cells[asked], chances[asked], codes[asked], target))
        if len(parts) == 1:
            return parts[0]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    def _learn(self, codes: np.ndarray) -> None:
        """Ask the game's `landing` of codes not met before, and keep its answers by code."""
        for code in codes.tolist():
            self._met[code] = True
            landing = self.sides.landing(code)
            if landing is None:
                continue
            most = max(count for count, _ in landing) + 1
            if most > self._landed.shape[1]:
                self._landed = np.pad(self._landed, ((0, 0), (0, most - self._landed.shape[1])))
            for count, q in landing:
                self._landed[code, count] += q
            self._known[code], self._reach[code] = True, most

    def _asked(self, cells: np.ndarray, chances: np.ndarray, codes: np.ndarray,
               target: int) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
        """The strikes back the game's `strike` gives (see `strike_back`), gathered with arrays."""
        shooter = 1 - target
        rows = np.divmod(cells, self.width)
        struck_rows, other_rows = rows[shooter], rows[target]
        span = self.span
        alone = ~self.side(shooter).back[struck_rows]
        key = np.where(alone, struck_rows, self.cells + cells) * span + codes
        keys, first, which = np.unique(key, return_index=True, return_inverse=True)
        found = [self._struck(int(k), int(cells[f]), target) for k, f in zip(keys, first, strict=True)]
        lengths = np.array([len(f[0]) for f in found])
        offsets = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        ends = np.concatenate([f[0] for f in found])
        odds = np.concatenate([f[1] for f in found])
        counts = lengths[which]
        entry = np.repeat(np.arange(len(cells)), counts)
        flat = np.repeat(offsets[which] - np.concatenate(([0], np.cumsum(counts)[:-1])), counts) + np.arange(
            int(counts.sum())
        )
        # a struck state alone becomes a cell beside the entry's other side
        row, other = ends[flat], other_rows[entry]
        beside = row * self.width + other if shooter == ATTACKER else other * self.width + row
        return np.where(alone[entry], beside, ends[flat]), chances[entry] * odds[flat]

    def _struck(self, key: int, cell: int, target: int) -> tuple[np.ndarray, np.ndarray]:
        """`strike` from a cell (one with this key): the cells it leads to, or where only the struck side's state
        changes (a key below cells × span), that side's rows, with their chances."""
        found = self._memo.get((key, target))
        if found is None:
            shooter = 1 - target
            dist = self.sides.strike(self.pair(cell), target, key % self.span)
            if key < self.cells * self.span:
                side = self.side(shooter)
                spots = [side.index[pos[shooter]] for pos in dist]
            else:
                spots = [self.cell(pos) for pos in dist]
            found = (np.array(spots, dtype=np.int64), np.array(list(dist.values())))
            self._memo[(key, target)] = found
        return found


def solve(sides: Sides, start: Mapping[Pair, float]) -> Ending[Pair]:
    """Every way the battle from `start` (a distribution over positions, after the opening) can end, exactly: the
    same `Ending` as `chain.solve` of the same battle, its ends by cell order (see the module's docstring)."""
    table = _Table(sides, start)
    over, cells = table.over, table.cells
    result: Ending[Pair] = Ending()
    finished = np.zeros(cells)  # mass that ended the battle at a cell (a side has no unit left)
    reached = np.zeros(cells, dtype=bool)  # over cells some move reached (the old chain's ends, even at zero)
    mass = np.zeros(cells)
    for pos, p in start.items():
        mass[table.cell(pos)] += p
    for at in sides.phases:  # the fixed phases, volley by volley, each from every cell that holds mass
        ended = over & (mass != 0)
        finished[ended] += mass[ended]
        reached |= ended
        mass[over] = 0.0
        result.length += float(mass.sum())
        for shooter in (ATTACKER, DEFENDER):
            live = np.flatnonzero((mass != 0) & ~over)
            carried = np.zeros(cells)
            for part in np.array_split(live, -(-len(live) // CHUNK)) if len(live) else ():  # a few thousand at once
                kept, (places, dests, chances), struck = table.moves(part, shooter, at)
                carried[part] += mass[part] * kept
                np.add.at(carried, dests, mass[part][places] * chances)
                if struck is not None:
                    np.add.at(carried, *table.strike_back(struck, mass[part], 1 - shooter))
            standing = (mass != 0) & over  # the defender's volley leaves the cells the attacker's ended
            carried[standing] += mass[standing]
            mass = carried
    seen = mass != 0
    pending = [np.where(over, 0.0, mass), np.zeros(cells)]  # mass at a cell with the attacker's, defender's volley due
    finished[over] += mass[over]
    reached |= over & seen
    retreats: dict[int, np.ndarray] = {ATTACKER: np.zeros(cells), DEFENDER: np.zeros(cells)}
    left = np.add.outer(table.a.left, table.d.left).ravel()
    used = np.add.outer(table.a.used, table.d.used).ravel()
    order = np.lexsort((used, -left))  # damage left, most first, then repairs used
    keys = left[order] * (1 << 20) - used[order]
    bounds = np.flatnonzero(np.diff(keys)) + 1
    at = sides.round_at
    rows_a, rows_d = np.divmod(np.arange(cells), table.width)
    leaving = sides.leaving(table.a.numbers[rows_a], table.d.numbers[rows_d])  # who retreats where, every cell
    for layer in np.split(order, bounds):
        layer = layer[seen[layer] & ~over[layer]]
        if not len(layer):
            continue
        m0, m1 = pending[0][layer], pending[1][layer]
        moves = [table.moves(layer, shooter, at) for shooter in (ATTACKER, DEFENDER)]
        stay = [moved[0] for moved in moves]
        begins = m0 + m1 * stay[1]
        rest = stay[0] * stay[1]
        going = np.where(begins != 0, leaving[layer], -1)
        for side in (ATTACKER, DEFENDER):
            leave = going == side
            retreats[side][layer[leave]] += begins[leave]
        fights = going < 0
        if (fights & (rest >= 1.0)).any():
            raise ValueError("a battle in which no die can ever hit")
        total0 = np.where(fights, begins / np.where(fights, 1.0 - rest, 1.0), 0.0)
        total1 = m1 + stay[0] * total0
        result.length += float(total0.sum())
        for k, (_, (places, dests, chances), struck) in enumerate(moves):
            total = total0 if k == 0 else total1
            weight = total[places] * chances
            if struck is not None:
                more = table.strike_back(struck, total, 1 - k)
                dests, weight = np.concatenate((dests, more[0])), np.concatenate((weight, more[1]))
            seen[dests] = True
            np.add.at(pending[1 - k], dests, weight)  # an over cell is never taken: its mass ends the battle
    finished[over] += pending[0][over] + pending[1][over]
    reached |= over & seen
    result.states = int(np.count_nonzero(seen))
    ends = np.flatnonzero(reached)
    a_left, d_left = ~table.a.empty[ends // table.width], ~table.d.empty[ends % table.width]
    hows = np.where(a_left, 0, np.where(d_left, 1, 2))
    names = ("attacker wins", "defender wins", "mutual destruction")
    outcomes = [names[how] for how in hows.tolist()]
    result.ends.update(zip(zip(table.pairs(ends), outcomes, strict=True), finished[ends].tolist(), strict=True))
    for side, name in ((ATTACKER, "attacker retreats"), (DEFENDER, "defender retreats")):
        gone = np.flatnonzero(retreats[side] != 0)
        result.ends.update(zip(((pos, name) for pos in table.pairs(gone)), retreats[side][gone].tolist(), strict=True))
    return result
