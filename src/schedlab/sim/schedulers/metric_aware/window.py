"""Step 5 of the metric-aware scheduler (Tang et al. 2013 §3.3): the window allocation, and the
placement primitives on the shared availability profile it uses.

Allocation: ``"any"`` (any set of free nodes, SP2) or ``"contiguous"`` (a 1-D block of node
indices, first fit at the lowest index, the paper's BG/P setting).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...profile import ContiguousProfile, Profile, profile_of_running
from .policy import INF


def new_profile(allocation: str, n: int, now: int,
                running: Sequence[tuple[int, int, int]]) -> Profile:
    """The shared availability profile at ``now`` (contiguous mode under contiguous
    allocation) holding the running jobs: ``(predicted end, nodes, first node)``."""
    return profile_of_running(n, now, running, allocation == "contiguous")


def earliest(prof: Profile, now: int, size: int, dur: int) -> tuple[int, int]:
    """Earliest placement of ``size`` nodes for ``dur`` at or after ``now``: (start, first node;
    -1 under any-node allocation)."""
    if type(prof) is ContiguousProfile:
        return prof.earliest_block(size, dur, now)
    return prof.earliest_start(size, dur, now), -1


def take(prof: Profile, start: int, dur: int, size: int, lo: int) -> None:
    """Reserve a placement found by :func:`earliest`."""
    if lo >= 0:
        prof.reserve_block(start, dur, size, lo)  # type: ignore[attr-defined]
    else:
        prof.reserve(start, dur, size)


def fits_now(prof: Profile, now: int, size: int, dur: int) -> int | None:
    """The first node of a placement starting at ``now`` (-1 under any-node allocation), or
    None if there is none."""
    if type(prof) is ContiguousProfile:
        lo = prof.first_fit(now, dur, size)
        return lo if lo >= 0 else None
    return -1 if prof.fits(size, now, dur) else None



def window_allocation(
    profile, now: float, sizes: Sequence[int], durs: Sequence[float],
    counter: list[int] | None = None, floor: float = -INF,
) -> list[tuple[int, float, int]]:
    """Step 5 for one window: the greedy allocation, over all permutations of the window, with
    the least makespan. Returns (window position, start, first node) in the chosen order and
    leaves those reservations in ``profile``. Ties: first permutation in priority order.
    ``counter[0]`` (if given) is increased by the number of placements tried (profile
    ``earliest`` look-ups): Table 4's cost as an operation count. ``floor``: the makespan of a
    permutation is ``max(floor, latest end of the window's jobs)`` — ``-inf`` (default) is the
    window's own makespan, the latest planned end on the machine is the
    ``window_makespan="machine"`` reading (:class:`~.policy.Policy`): permutations ending before
    it tie and the priority order is kept.

    Depth-first branch and bound over prefixes; the result is that of trying every permutation
    (:func:`window_allocation_reference`, tested). Three exact cuts: (a) a reservation never
    makes another job's earliest start earlier, so ``max(span, max over the remaining jobs of
    earliest end)`` bounds every completion of a prefix — a prefix whose bound is not below
    the best makespan is dropped; (b) the search stops once a plan ends at ``now + max(durs)``,
    which none can beat; (c) of two jobs with the same size and duration only the earlier one
    (window position) is tried at a given depth — the swapped permutation has the same
    makespan and comes later in priority order, so it never wins the tie rule. The last job
    of a permutation is not reserved on a copy of the profile, only its end is taken. Look-ups
    are shared: jobs of the same size and duration have the same earliest placement, and a
    placement that the prefix's last reservation does not overlap is still the earliest one
    (:func:`_still_earliest`); ``counter`` counts the look-ups made."""
    w = len(sizes)
    if w == 1:
        if counter is not None:
            counter[0] += 1
        t, lo = earliest(profile, now, sizes[0], durs[0])
        take(profile, t, durs[0], sizes[0], lo)
        return [(0, t, lo)]
    best: list = [INF, None]
    bound = max(now + max(durs), floor)  # no schedule of the window ends earlier: stop there
    kinds = list(zip(sizes, durs, strict=True))

    def dfs(prof, remaining: tuple[int, ...], plan: list, span: float, known: dict) -> None:
        if best[0] <= bound:
            return
        seen: set = set()
        tried = [i for i in remaining if not (kinds[i] in seen or seen.add(kinds[i]))]
        places = []
        for i in tried:
            if kinds[i] not in known:
                if counter is not None:
                    counter[0] += 1
                known[kinds[i]] = earliest(prof, now, sizes[i], durs[i])
            places.append((i, *known[kinds[i]]))
        if max(span, max(t + durs[i] for i, t, _ in places)) >= best[0]:
            return
        for i, t, lo in places:
            s = max(span, t + durs[i])
            if s >= best[0]:
                continue
            plan.append((i, t, lo))
            if len(remaining) == 1:
                best[0], best[1] = s, list(plan)
            else:
                p2 = prof.copy()
                take(p2, t, durs[i], sizes[i], lo)
                dfs(p2, tuple(r for r in remaining if r != i), plan, s,
                    _still_earliest(known, t, durs[i], lo, sizes[i]))
            plan.pop()
            if best[0] <= bound:
                return

    dfs(profile, tuple(range(w)), [], floor, {})
    for i, t, lo in best[1]:
        take(profile, t, durs[i], sizes[i], lo)
    return best[1]


def _still_earliest(known: dict, t: float, dur: float, lo: int, size: int) -> dict:
    """The earliest placements of ``known`` ((size, duration) -> (start, first node)) that stay
    earliest after a reservation of ``size`` nodes from ``lo`` on ``[t, t + dur)``: those it
    does not overlap (in time, and in nodes under contiguous allocation, ``lo >= 0``). A
    reservation only removes free space, so nothing earlier (or lower) becomes feasible and a
    placement it leaves untouched is still the first fit."""
    out = {}
    for (ksize, kdur), (kt, klo) in known.items():
        if kt >= t + dur or kt + kdur <= t or (lo >= 0 and (klo >= lo + size or klo + ksize <= lo)):
            out[(ksize, kdur)] = (kt, klo)
    return out


def window_allocation_reference(profile, now: float, sizes: Sequence[int],
                                durs: Sequence[float], floor: float = -INF
                                ) -> list[tuple[int, float, int]]:
    """:func:`window_allocation` by trying every permutation in priority (lexicographic)
    order and keeping the first with the least makespan (the definition; tests)."""
    from itertools import permutations

    best_span, best_plan = INF, None
    for perm in permutations(range(len(sizes))):
        prof, plan = profile.copy(), []
        for i in perm:
            t, lo = earliest(prof, now, sizes[i], durs[i])
            take(prof, t, durs[i], sizes[i], lo)
            plan.append((i, t, lo))
        span = max(floor, *(t + durs[i] for i, t, _ in plan))
        if span < best_span:
            best_span, best_plan = span, plan
    for i, t, lo in best_plan:
        take(profile, t, durs[i], sizes[i], lo)
    return best_plan
