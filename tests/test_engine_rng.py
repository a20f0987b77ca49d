"""The counter-based generator: reproducible from its seed anywhere, cheap and independent clones, uniform draws."""

from __future__ import annotations

import collections
import itertools
import math
import pickle

import pytest

from cardgen.engine.rng import GAMMA, CounterRng, mix64


def test_the_same_seed_gives_the_same_numbers_and_pinned_values_guard_the_algorithm() -> None:
    a, b = CounterRng(42), CounterRng(42)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    # SplitMix64's published reference sequence for seed 0 (a change of algorithm would change every logged game)
    assert mix64(GAMMA) == 0xE220A8397B1DCDAF and mix64(2 * GAMMA % 2**64) == 0x6E789E6AA1B965F4
    assert CounterRng(key=0).next64() == 0xE220A8397B1DCDAF  # key 0, first counter: the reference's first output


def test_a_clone_continues_identically_and_independently() -> None:
    rng = CounterRng(7)
    rng.random()
    twin = rng.clone()
    assert twin.state() == rng.state()
    assert [twin.randint(1, 6) for _ in range(20)] == [rng.randint(1, 6) for _ in range(20)]
    twin.next64()
    assert twin.state() != rng.state()
    restored = pickle.loads(pickle.dumps(rng))
    assert restored.state() == rng.state() and restored.next64() == rng.next64()


@pytest.mark.parametrize("bound", [1, 2, 3, 6, 7, 10, 72, 1000, 2**40 + 3, 2**63 + 1])
def test_randbelow_stays_in_range(bound: int) -> None:
    rng = CounterRng(bound)
    assert all(0 <= rng.randbelow(bound) < bound for _ in range(2000))


def test_randbelow_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError, match="positive bound"):
        CounterRng(1).randbelow(0)


def chi_square(counts: collections.Counter[int], cells: int, draws: int) -> float:
    expected = draws / cells
    return sum((counts.get(i, 0) - expected) ** 2 / expected for i in range(cells))


def test_die_rolls_are_uniform() -> None:
    """60,000 rolls of a d6 and of a d10: chi-square below the 0.999 quantile (20.5 for 5, 27.9 for 9 degrees)."""
    rng = CounterRng(2026)
    for sides, limit in ((6, 20.5), (10, 27.9)):
        counts = collections.Counter(rng.randint(1, sides) - 1 for _ in range(60_000))
        assert chi_square(counts, sides, 60_000) < limit


@pytest.mark.parametrize("length", [5, 72])
def test_shuffles_put_every_card_everywhere_equally(length: int) -> None:
    """Where card 0 lands over 20,000 shuffles, of a short list and a long one."""
    rng = CounterRng(length)
    landed: collections.Counter[int] = collections.Counter()
    for _ in range(20_000):
        deck = list(range(length))
        rng.shuffle(deck)
        assert sorted(deck) == list(range(length))
        landed[deck.index(0)] += 1
    quantile = length - 1 + 3.1 * math.sqrt(2 * (length - 1))  # about the 0.999 quantile of chi-square
    assert chi_square(landed, length, 20_000) < quantile


def test_every_order_of_a_short_list_is_equally_likely() -> None:
    """All 24 orders of four cards over 24,000 shuffles (a shuffle that favoured some orders while putting each
    card everywhere equally would pass the test above and fail this one)."""
    rng = CounterRng(99)
    index = {order: i for i, order in enumerate(itertools.permutations(range(4)))}
    orders: collections.Counter[int] = collections.Counter()
    for _ in range(24_000):
        deck = [0, 1, 2, 3]
        rng.shuffle(deck)
        orders[index[tuple(deck)]] += 1
    assert len(orders) == 24
    assert chi_square(orders, 24, 24_000) < 23 + 3.1 * math.sqrt(2 * 23)


def test_random_floats_lie_in_the_unit_interval_with_the_right_mean() -> None:
    rng = CounterRng(9)
    values = [rng.random() for _ in range(50_000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert abs(sum(values) / len(values) - 0.5) < 0.01
