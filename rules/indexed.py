"""Sequences that count their items and make only the ones asked for.

The legal-move listings (`rules.legal`) and the random player pick one action among
thousands (digs with every pedestal and workshop choice, trades, statue paths): a
sequence that knows its length and works out its k-th item without the ones before it
gives the same pick as `rng.choice` of the list, without making the list. Masks of
origins (bitboards, `rules.mountain`) are the usual groups: `kth_bit` finds the k-th
origin of a group, `Groups` the group of the k-th item.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from itertools import accumulate
from typing import Generic, Protocol, TypeVar

T = TypeVar("T")
U = TypeVar("U")
T_co = TypeVar("T_co", covariant=True)


class Indexed(Protocol[T_co]):
    """A sequence of values, maybe made only when asked for (`len`, `[k]`, iteration)."""

    def __len__(self) -> int: ...

    def __getitem__(self, k: int, /) -> T_co: ...

    def __iter__(self) -> Iterator[T_co]: ...


class Chained(Generic[T]):
    """Sequences one after another, as one (each part counted, its items made only
    when asked for)."""

    __slots__ = ("_groups", "parts")

    def __init__(self, parts: list[Indexed[T]]) -> None:
        self.parts = parts
        self._groups = Groups(len(p) for p in parts)

    def __len__(self) -> int:
        return self._groups.total

    def __getitem__(self, k: int) -> T:
        i, j = self._groups.find(k)
        return self.parts[i][j]

    def __iter__(self) -> Iterator[T]:
        for part in self.parts:
            yield from part


class Mapped(Generic[T, U]):
    """`make` of each item of a sequence, made only when asked for."""

    __slots__ = ("items", "make")

    def __init__(self, items: Indexed[T], make: Callable[[T], U]) -> None:
        self.items = items
        self.make = make

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, k: int) -> U:
        return self.make(self.items[k])

    def __iter__(self) -> Iterator[U]:
        return map(self.make, self.items)


def kth_bit(mask: int, k: int) -> int:
    """The index of the k-th set bit of `mask` (k from 0, lowest first)."""
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        mask ^= low
        yield low.bit_length() - 1


class Groups:
    """Where the k-th item of consecutive groups of known sizes lies: `find(k)` gives
    the group's index and the item's index within it."""

    __slots__ = ("ends",)

    def __init__(self, sizes: Iterable[int] = (), *, ends: list[int] | None = None) -> None:
        """Groups of these sizes, or ending (cumulatively) at `ends`."""
        self.ends = list(accumulate(sizes)) if ends is None else ends

    @property
    def total(self) -> int:
        return self.ends[-1] if self.ends else 0

    def find(self, k: int) -> tuple[int, int]:
        if not 0 <= k < self.total:
            raise IndexError(k)
        i = bisect_right(self.ends, k)
        return i, k - (self.ends[i - 1] if i else 0)


class Bundles:
    """Every bundle of `size` items (as sorted tuples of indices into `have`) taking
    item i at most `have[i]` times, in the order of `combinations_with_replacement`,
    as a sequence that counts them and works out the k-th without the ones before
    it (the trades and workshop conversions a purse can pay for)."""

    __slots__ = ("_have", "_ways", "size")

    def __init__(self, have: list[int], size: int) -> None:
        self._have = have
        self.size = size
        # ways[i][s]: the bundles of s items taken from items i on within `have`
        row = [1] + [0] * size
        ways = [row]
        for n in reversed(have):
            if n:  # taking j of this item leaves s - j to the rest, for j up to n
                upto = list(accumulate(row))
                row = (
                    upto
                    if n >= size
                    else [upto[s] - upto[s - n - 1] if s > n else upto[s] for s in range(size + 1)]
                )
            ways.append(row)
        ways.reverse()
        self._ways = ways

    def __len__(self) -> int:
        return self._ways[0][self.size]

    def __getitem__(self, k: int) -> tuple[int, ...]:
        if not 0 <= k < len(self):
            raise IndexError(k)
        bundle: list[int] = []
        left = self.size
        for i, have in enumerate(self._have):
            # the bundles taking more of item i come first
            for j in range(min(have, left), -1, -1):
                block = self._ways[i + 1][left - j]
                if k < block:
                    bundle += [i] * j
                    left -= j
                    break
                k -= block
        return tuple(bundle)

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return _bundles(list(self._have), self.size, 0)


def _bundles(have: list[int], size: int, start: int) -> Iterator[tuple[int, ...]]:
    """The bundles of `size` items from `start` on (`have` is scratch, left as it was)."""
    if not size:
        yield ()
        return
    for i in range(start, len(have)):
        if have[i]:
            have[i] -= 1
            for rest in _bundles(have, size - 1, i):
                yield (i, *rest)
            have[i] += 1
