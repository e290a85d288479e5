"""rng.shuffled is the documented definition: Fisher–Yates over ``random.Random(f"{seed}/{purpose}/{n}").random()``
(its quicker index must not change one shuffle: every game record replays through them)."""
import random

from ttr_nb.rng import shuffled


def documented_shuffle(items, seed, purpose, n=0):
    out = list(items)
    r = random.Random(f"{seed}/{purpose}/{n}").random
    for i in range(len(out) - 1, 0, -1):
        j = int(r() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def test_shuffled_is_the_documented_fisher_yates():
    sizes = (0, 1, 2, 3, 30, 46, 110, 240)
    for seed in (0, 1, 2, 7, 12345, 2**63 - 1, "exercise", "ü/ß"):
        for purpose, n in (("deck", 0), ("deck", 3), ("tickets/long", 0), ("tickets/short", 0), ("position", 0)):
            for size in sizes:
                items = [f"c{k}" for k in range(size)]
                assert shuffled(items, seed, purpose, n) == documented_shuffle(items, seed, purpose, n)


def test_shuffled_leaves_its_input_and_keeps_every_item():
    items = tuple(range(110))
    out = shuffled(items, 5, "deck", 0)
    assert items == tuple(range(110)) and sorted(out) == list(items) and out != list(items)
