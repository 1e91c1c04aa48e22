"""Conservative backfilling's compression, as each source defines it: when it runs and how often.

Every waiting job of conservative backfilling holds a reservation that may only move earlier. When
the schedule changes, the queue is *compressed*: jobs are moved to earlier slots. The sources agree
on the move and disagree on two things, which are two options of every policy that compresses
(:class:`~schedlab.sim.schedulers.conservative.Conservative` and ``ListConservative``, SA, Flex,
Perković's orders with guarantees; PBAS/WBAS through their candidates' options):

``compress_on`` — what triggers a compression

* ``"early"``: a job that ends before its estimate (a released slot; also a cancellation).
  Perković & Keleher 2000 §2: "Whenever a job finishes earlier than estimated, conservative
  backfilling attempts to reschedule each waiting job in the arrival order to an earlier than its
  current guaranteed start-time"; Figure 2: "Executed whenever a new job comes or a running job
  finishes earlier than it estimated". Cirne 2001 §2.2.1: "Whenever a job finishes using less time
  than it required, conservative backfilling traverses the queue".
* ``"every"``: every termination, also one exactly at the estimate, which frees nothing the profile
  did not already show free. pyss (``dinesh121991/pyss``, ``ConservativeScheduler``): its
  ``new_events_on_job_termination`` runs ``_reschedule_jobs`` for each termination event. Such a
  pass can still move a job: a later job moved earlier in the previous pass vacated a slot that
  the jobs before it in submission order, already visited, could only take in the next pass.

``compress_passes`` — how far one compression goes

* ``"one"``: one pass in submission (queue) order, each job taken out and re-placed at its earliest
  slot if that is earlier (pyss's ``_reschedule_jobs``: one loop over the queue per termination;
  Perković §2: "reschedule each waiting job in the arrival order").
* ``"until_stable"``: Cirne 2001 §2.2.1: "traverses the queue (in submission order) and 'promotes'
  the first job that fits in the just-made-available slot. Of course, this may create another
  available slot. Such a slot is backfilled in the same way. The process stops only when no more
  backfilling can be done." Read literally: promote the first job in submission order that can
  start earlier, then search again from the head of the queue, until no job can move. A job
  before the promoted one in the queue thus gets the slot it vacated first (a single pass gives it
  to the jobs after it).

Under ``until_stable`` no job can move after a compression, and nothing but a released slot makes
one movable again (time passing only shortens the candidate windows, an arrival only takes space),
so ``every`` and ``early`` give identical schedules there (tested): three distinct readings.

=================  ==============  =================  ==============================================
reading            compress_on     compress_passes    source
=================  ==============  =================  ==============================================
pyss's             every           one                pyss ``ConservativeScheduler``; Talby &
                                                      Feitelson 2005 (the lab whose simulator it is)
Perković's         early           one                Perković & Keleher 2000 §2, Figure 2
Cirne's            early           until_stable       Cirne 2001 §2.2.1
=================  ==============  =================  ==============================================

Where an ``every`` compression sits among same-time events: under the engine's ``per_event`` order
(pyss's, :mod:`schedlab.sim.engine`) a termination at the estimate releases its processors
before the same-time arrivals, and its pass comes after them, in the order of the terminations
(pyss's event order); the compression runs in that pass, after the arrivals were placed, as in
pyss. Under the batch orders (one pass per time) it runs in that pass, or before placing an
arrival, as a released slot's does. The registry's ``conservative`` and ``schedlab simulate``
use pyss's reading; each paper sets its own in ``config/papers/*.yaml``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Hashable, Iterable, Iterator, Sequence

from ..errors import SimulationError
from ..profile import Profile

#: ``compress_on`` values (module docstring).
COMPRESS_ON: tuple[str, ...] = ("early", "every")
#: ``compress_passes`` values (module docstring).
COMPRESS_PASSES: tuple[str, ...] = ("one", "until_stable")
#: (compress_on, compress_passes) of each source's reading.
PYSS = ("every", "one")
PERKOVIC = ("early", "one")
CIRNE = ("early", "until_stable")


def check_compression(compress_on: str, compress_passes: str, who: str) -> None:
    """Raise :class:`SimulationError` naming ``who`` unless both options are known values."""
    if compress_on not in COMPRESS_ON:
        raise SimulationError(f"{who}: compress_on must be one of {COMPRESS_ON}, "
                              f"not {compress_on!r}")
    if compress_passes not in COMPRESS_PASSES:
        raise SimulationError(f"{who}: compress_passes must be one of {COMPRESS_PASSES}, "
                              f"not {compress_passes!r}")


def compress(
    p: Profile, now: float, waiting: Iterable[tuple[Hashable, int, float, float]],
    passes: str = "one",
) -> Iterator[tuple[Hashable, float]]:
    """Compress the queue ``waiting`` on ``p`` (Cirne §2.2.1, Mu'alem & Feitelson 2001).

    ``waiting`` gives ``(key, procs, estimate, reserved start)`` in submission (queue) order; each
    job that can start earlier is moved to its first-fit slot on ``p`` at once
    (:meth:`Profile.shift`) and ``(key, new start)`` is yielded (a job can move more than once
    under ``until_stable``). ``passes``: ``"one"`` pass over the queue, or ``"until_stable"``:
    promote the first job that can move, search again from the head, until none can (module
    docstring). Used by ``ListConservative``, Flex and Perković's orders.
    """
    if passes == "one":
        for _, key, s2 in _pass(p, now, waiting, False):
            yield key, s2
        return
    items = [list(w) for w in waiting]
    while True:
        moved = next(_pass(p, now, items, True), None)
        if moved is None:
            return
        k, key, s2 = moved
        items[k][3] = s2
        yield key, s2


def _pass(
    p: Profile, now: float, waiting: Iterable[Sequence], first_only: bool
) -> Iterator[tuple[int, Hashable, float]]:
    """One pass in queue order (stopping after the first move if ``first_only``): yields
    ``(position, key, new start)`` after moving each job.

    Exact pruning (a job is skipped only if it provably cannot move):

    * a job can start before its reservation ``s`` only at a time before ``s`` with ``procs``
      processors free; and unless the step just before ``s`` has them (a window reaching
      ``s``), only in a window of its whole estimate lying before ``s``, which needs
      ``estimate <= s - now`` and a step starting by ``s - estimate`` with ``procs`` free
      (the profile's cached prefix maxima: O(1));
    * dominance: once a job ``(procs_a, d_a, s_a)`` found no such window, none exists for a job
      with ``procs >= procs_a``, ``d >= d_a`` and ``s <= s_a`` either (its windows would contain
      one for the first job) until the profile changes, i.e. until the next job moves.
    """
    t, free = p.t, p.free  # p.t / p.free are updated in place
    fail_procs, fail_d, fail_s = 0, 0, -1  # the last job that found no window (dominance)
    for k, (key, procs, d, s) in enumerate(waiting):
        if s <= now:
            continue
        latest = None
        if free[bisect_left(t, s) - 1] < procs:  # only a window wholly before s
            latest = s - d  # its latest start
            if latest < now or (procs >= fail_procs and d >= fail_d and s <= fail_s):
                continue
            j = bisect_right(t, latest) - 1
            pm = p._pm
            if j >= len(pm):
                pm = p.prefix_max(j + 1)
            if pm[j] < procs:
                continue
        s2 = p.earliest_move(procs, d, s, latest)
        if s2 != s:
            p.shift(procs, d, s, s2)
            fail_s = -1
            yield k, key, s2
            if first_only:
                return
        elif latest is not None:
            fail_procs, fail_d, fail_s = procs, d, s
