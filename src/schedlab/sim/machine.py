"""The simulated machine: processor accounting that raises on over-allocation.

:class:`Machine` counts free processors (``allocation="any"``); :class:`ContiguousMachine` keeps a 1-D
row of processors and gives each job one block of consecutive processors, first fit (lowest index)
unless the caller names the first processor (Tang et al. §4.1: BG/P partitions are logically
contiguous). Both raise :class:`~schedlab.sim.errors.SimulationError` on any allocation that does not
fit and on releasing what was not allocated: a scheduler bug is never silently absorbed.
"""

from __future__ import annotations

from bisect import bisect_left

from .errors import SimulationError


class Machine:
    """Any-processor allocation: only the count matters."""

    contiguous = False

    def __init__(self, size: int) -> None:
        if size < 1:
            raise SimulationError(f"machine size must be >= 1, got {size}")
        self.size = size
        self.free = size

    def fits(self, procs: int) -> bool:
        return procs <= self.free

    def largest_block(self) -> int:
        return self.free

    def allocate(self, procs: int, first: int | None, who: str) -> int | None:
        """Take ``procs`` processors for ``who`` (a label for errors); returns the first node
        (``None`` here: nodes are not tracked)."""
        if first is not None:
            raise SimulationError(f"{who}: first_node given but allocation is 'any'")
        if procs < 1 or procs > self.free:
            raise SimulationError(
                f"{who}: over-allocation: {procs} processors requested, {self.free} free "
                f"of {self.size}"
            )
        self.free -= procs
        return None

    def release(self, procs: int, first: int | None, who: str) -> None:
        if self.free + procs > self.size:
            raise SimulationError(f"{who}: releases {procs} processors that were not allocated")
        self.free += procs


class ContiguousMachine(Machine):
    """1-D contiguous allocation: free space is a sorted list of disjoint blocks."""

    contiguous = True

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self._start: list[int] = [0]
        self._len: list[int] = [size]

    def blocks(self) -> list[tuple[int, int]]:
        """Free blocks as (first processor, length), by position."""
        return list(zip(self._start, self._len, strict=True))

    def fits(self, procs: int) -> bool:
        return any(n >= procs for n in self._len)

    def largest_block(self) -> int:
        return max(self._len, default=0)

    def allocate(self, procs: int, first: int | None, who: str) -> int | None:
        starts, lens = self._start, self._len
        if procs < 1:
            raise SimulationError(f"{who}: cannot allocate {procs} processors")
        if first is None:
            for k, n in enumerate(lens):
                if n >= procs:
                    first = starts[k]
                    break
            else:
                raise SimulationError(
                    f"{who}: over-allocation: no contiguous block of {procs} processors "
                    f"(largest {self.largest_block()}, {self.free} free of {self.size})"
                )
        k = bisect_left(starts, first + 1) - 1
        if k < 0 or first + procs > starts[k] + lens[k]:
            raise SimulationError(f"{who}: processors [{first}, {first + procs}) are not all free")
        b0, n0 = starts[k], lens[k]
        pieces = []
        if first > b0:
            pieces.append((b0, first - b0))
        if first + procs < b0 + n0:
            pieces.append((first + procs, b0 + n0 - first - procs))
        starts[k : k + 1] = [p[0] for p in pieces]
        lens[k : k + 1] = [p[1] for p in pieces]
        self.free -= procs
        return first

    def release(self, procs: int, first: int | None, who: str) -> None:
        if first is None:
            raise SimulationError(f"{who}: contiguous release needs the first processor")
        starts, lens = self._start, self._len
        k = bisect_left(starts, first)
        end = first + procs
        if (k > 0 and starts[k - 1] + lens[k - 1] > first) or (k < len(starts) and starts[k] < end):
            raise SimulationError(f"{who}: releases processors [{first}, {end}) that are free")
        merge_left = k > 0 and starts[k - 1] + lens[k - 1] == first
        merge_right = k < len(starts) and starts[k] == end
        if merge_left and merge_right:
            lens[k - 1] += procs + lens[k]
            del starts[k]
            del lens[k]
        elif merge_left:
            lens[k - 1] += procs
        elif merge_right:
            starts[k] = first
            lens[k] += procs
        else:
            starts.insert(k, first)
            lens.insert(k, procs)
        self.free += procs


def make_machine(size: int, allocation: str) -> Machine:
    """A :class:`Machine` for ``allocation`` ``"any"`` or ``"contiguous"``."""
    if allocation == "any":
        return Machine(size)
    if allocation == "contiguous":
        return ContiguousMachine(size)
    raise SimulationError(f"unknown allocation {allocation!r}; choose 'any' or 'contiguous'")
