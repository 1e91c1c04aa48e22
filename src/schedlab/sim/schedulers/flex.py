"""Flex: slack-based backfilling (Talby & Feitelson 1999, as summarized in Talby & Feitelson 2005 §2.1).

Paper (2005, §2.1): "whenever a decision has to be made (job arrival, termination or cancellation
events), all possible queues are compared, and the best one (according to a configurable criteria)
is chosen. [...] Each possible schedule is graded, suffering a penalty for every job that must wait.
To prevent starvation, Flex introduces the concept of slack: Each job is given a slack upon arrival,
and it can never be delayed by more than its slack."

Our reading, precisely (every choice is a constructor option where cheap):

* **Plan.** Like conservative backfilling, every queued job holds a reservation in an availability
  profile (free processors over time, running jobs until ``start + estimate``).
* **Guarantee and slack.** On arrival a job's *guaranteed start* ``G`` is the start conservative
  backfilling would give it (earliest hole after all existing reservations). Its slack is
  ``slack_factor x base``, fixed at arrival; ``slack_base`` is ``"mean_wait"`` (default: the mean
  wait of all jobs started so far, the "current average wait"), ``"estimate"`` (the job's own
  runtime estimate) or ``"constant"`` (``slack_constant`` seconds). Its deadline is ``G + slack``;
  no schedule in which any job would start after its deadline is ever chosen.
  ``slack_reference`` says what the slack is measured from: ``"guarantee"`` (default: the start
  promised at arrival, "never delayed by more than its slack") or ``"plan"`` (when compression
  moves a job earlier its deadline moves with it, so the slack is a budget of delay relative to
  the current plan).
* **Arrival: all insertion positions.** With ``Q`` jobs queued, the new job may be inserted at any
  position ``p = 0..Q``. Candidate ``p`` keeps the reservations of the jobs before ``p``, places the
  new job at its earliest start given those, then re-places the jobs from ``p`` on, in queue order,
  each at its earliest start. ``p = Q`` is exactly conservative backfilling. A candidate is feasible
  if every job starts by its deadline; the cheapest feasible one wins, ties going to the larger
  ``p`` (least disruption).
* **Cost** (``cost``): sum over the affected jobs of the planned wait (``"wait"``, default: "a
  penalty for every job that must wait"), of the planned bounded slowdown with estimates
  (``"bsld"``), or of the delay beyond the guaranteed start (``"delay"``; moving a job ahead then
  earns nothing, so this variant stays close to conservative backfilling).
* **Speed.** If the new job could not start before ``G`` even with every queued reservation
  removed (running jobs only), no position can help and none is evaluated (exact). Of all
  positions giving the new job the same start only the largest is evaluated: the others displace
  more jobs for no gain of the new job (a pruning heuristic, exact unless re-placing a displaced
  job happens to find it an earlier hole). A candidate's evaluation stops at the first deadline
  violation or as soon as its partial cost reaches the best cost so far (exact).
* **Termination / cancellation.** There is no new job to insert; the queue is re-planned in its
  current order by compression (each job, in order, moves to its earliest start given all other
  reservations, which is never later than before), as conservative backfilling does (Mu'alem &
  Feitelson 2001). Every deadline therefore stays met. When and how often are the options
  ``compress_on`` and ``compress_passes`` of :mod:`~schedlab.sim.schedulers.compression`; the
  default is pyss's reading, the Feitelson lab's simulator (every termination, also one at the
  estimated end: the queue order chosen at an arrival may have left holes; one pass). Flex
  compresses inside its planner when the engine reports the termination (under ``per_event`` a
  termination at the estimate is reported before the same-time arrivals).
* With ``slack_factor = 0`` no job may start later than its conservative guarantee. With the
  ``"guarantee"`` reference Flex may still reorder the queue when no job ends up later than its
  guarantee (a job moved earlier by compression can be pushed back towards it); with the ``"plan"``
  reference and no slack no job is ever delayed relative to its current reservation, which is
  conservative backfilling (the tests check both).

Slack factor (not in the 2005 paper; the class default is 3.0, the Talby config uses 0.5). Chosen
by the joint fit over the three logs and Tables 2 and 4 (attribution table ``attr_slack_fit``;
cleaned logs, cancelled jobs dropped, Maui with XFACTOR 100): ``T2`` = mean |relative error| of
Flex's mean wait and bounded slowdown, ``T4`` = mean |ours - published| (points) of the Flex-Maui
monthly wait gaps, ``score = T2 + T4 / 100``; Table 3's Maui share (months won, one run, mean of
the three logs; paper ~70%) shown beside it (table ``attr_table3_fit``):

======  ==========  ==========  ==========  =====  =====  =====  =================
factor  KTH (6250)  SP2 (5500)  BLUE(1661)  T2     T4     score  Maui share (wait)
======  ==========  ==========  ==========  =====  =====  =====  =================
0       6503 +4%    7147 +30%   1720 +4%    0.118  60.3   0.721  74%
0.5     6018 -4%    6738 +23%   1700 +2%    0.078  58.2   0.660  57%
1       5654 -10%   6523 +19%   1681 +1%    0.100  56.3   0.663  47%
2       5420 -13%   6434 +17%   1624 -2%    0.121  59.0   0.711  38%
3       5158 -17%   6142 +12%   1603 -3%    0.142  55.2   0.693  34%
4       5223 -16%   6070 +10%   1614 -3%    0.122  55.0   0.672  27%
5       4827 -23%   5904 +7%    1588 -4%    0.166  55.8   0.724  24%
======  ==========  ==========  ==========  =====  =====  =====  =================

0.5 has the lowest score (0.660; factor 1 0.663, 3 0.693) and the lowest Table 2 error alone; Table
3 favours still less slack (factor 0: Maui wins 74% of the months, as in the paper, but SDSC-SP2's
Flex wait is +30% and the score 0.721). SDSC-SP2's waits are high under every factor for a reason
outside Flex (the cleaned log lacks the raw log's flurries; ``attr_log_version``). A factor of 0.5
changes every PBAS/WBAS run against the previous default 3.0 (see docs/papers/talby2005.md).

Ties inside the profile search: the earliest feasible time wins; among jobs due at the same time,
queue order decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..job import SimJob
from ..options import BSLD_BOUND
from ..profile import Profile, profile_of_running
from ..scheduler import Scheduler, Start
from ..state import MachineView, Run
from .compression import PYSS, check_compression, compress

SLACK_BASES = ("mean_wait", "estimate", "constant")
SLACK_REFERENCES = ("guarantee", "plan")
COSTS = ("wait", "bsld", "delay")


@dataclass(slots=True)
class FlexJob:
    """What Flex knows of a job: submit time, processors, estimate; plus its guarantee."""

    job_id: int
    submit: int
    procs: int
    estimate: int
    guarantee: int = 0
    deadline: int = 0


class FlexPlanner:
    """The Flex decision procedure on its own profile (engine-independent; see module docstring).

    Call :meth:`arrive`, :meth:`finish` (termination, at or before the estimate) and :meth:`cancel`
    in time order; each returns the ids of the jobs to start now, in queue order.
    """

    def __init__(self, machine_size: int, slack_factor: float = 3.0, slack_base: str = "mean_wait",
                 cost: str = "wait", slack_constant: float = 0.0,
                 slack_reference: str = "guarantee", compress_on: str = PYSS[0],
                 compress_passes: str = PYSS[1]) -> None:
        check_compression(compress_on, compress_passes, "flex")
        self.compress_every = compress_on == "every"
        self.compress_passes = compress_passes
        if slack_reference not in SLACK_REFERENCES:
            raise ValueError(f"Flex slack_reference must be one of {SLACK_REFERENCES}, "
                             f"got {slack_reference!r}")
        if slack_base not in SLACK_BASES:
            raise ValueError(f"Flex slack_base must be one of {SLACK_BASES}, got {slack_base!r}")
        if cost not in COSTS:
            raise ValueError(f"Flex cost must be one of {COSTS}, got {cost!r}")
        if slack_factor < 0:
            raise ValueError(f"Flex slack_factor must be >= 0, got {slack_factor}")
        self.size = machine_size
        self.slack_factor = float(slack_factor)
        self.slack_base = slack_base
        self.slack_constant = float(slack_constant)
        self.cost_name = cost
        self.plan_reference = slack_reference == "plan"
        self.profile = Profile(machine_size)
        self.queue: list[FlexJob] = []
        self.res: dict[int, int] = {}            # queued job id -> planned start
        self.running: dict[int, tuple[int, FlexJob]] = {}   # id -> (start, job)
        self.base = Profile(machine_size)       # running jobs only (lower bound for any start)
        self.wait_sum = 0.0
        self.started = 0

    # -- slack and cost ---------------------------------------------------------------------------
    def slack(self, job: FlexJob) -> float:
        if self.slack_base == "mean_wait":
            base = self.wait_sum / self.started if self.started else 0.0
        elif self.slack_base == "estimate":
            base = float(job.estimate)
        else:
            base = self.slack_constant
        return self.slack_factor * base

    def _cost(self, job: FlexJob, start: int) -> float:
        if self.cost_name == "wait":
            return float(start - job.submit)
        if self.cost_name == "delay":
            return float(max(0, start - job.guarantee))
        return (start - job.submit + job.estimate) / max(job.estimate, BSLD_BOUND)

    # -- events -----------------------------------------------------------------------------------
    def arrive(self, job: FlexJob, now: int) -> list[int]:
        """A job arrives: choose the cheapest feasible insertion position; start what is due."""
        if job.procs > self.size:
            raise ValueError(f"job {job.job_id} needs {job.procs} > {self.size} processors")
        prof = self.profile
        prof.advance(now)
        q = self.queue
        n = len(q)
        s_end = prof.earliest_start(job.procs, job.estimate, now)
        job.guarantee = s_end
        job.deadline = s_end + int(self.slack(job))
        best_p, best_cost = n, self._cost(job, s_end) + sum(self._cost(x, self.res[x.job_id]) for x in q)
        best_plan: tuple[Profile, list[int]] | None = None
        can_gain = False
        if n and s_end > now:
            self.base.advance(now)
            can_gain = self.base.earliest_start(job.procs, job.estimate, now) < s_end
        if can_gain:
            # Prefix profiles P_p (reservations of q[:p] only), from p = n down: candidates are the
            # largest p for each strictly earlier start of the new job.
            work = prof.copy()
            last = s_end
            cands: list[tuple[int, int, Profile]] = []
            for p in range(n - 1, -1, -1):
                x = q[p]
                work.release(self.res[x.job_id], x.estimate, x.procs)
                s = work.earliest_start(job.procs, job.estimate, now)
                if s < last:
                    cands.append((p, s, work.copy()))
                    last = s
                    if s == now:
                        break
            for p, s, base in cands:
                cost = self._cost(job, s) + sum(self._cost(x, self.res[x.job_id]) for x in q[:p])
                if cost >= best_cost:
                    continue
                base.reserve(s, job.estimate, job.procs)
                starts = []
                ok = True
                for x in q[p:]:
                    sx = base.earliest_start(x.procs, x.estimate, now)
                    cost += self._cost(x, sx)
                    if sx > x.deadline or cost >= best_cost:
                        ok = False
                        break
                    base.reserve(sx, x.estimate, x.procs)
                    starts.append(sx)
                if ok and (cost < best_cost):
                    best_p, best_cost, best_plan = p, cost, (base, [s, *starts])
        if best_plan is None:
            prof.reserve(s_end, job.estimate, job.procs)
            self.res[job.job_id] = s_end
            q.append(job)
        else:
            self.profile, starts = best_plan
            q.insert(best_p, job)
            for x, sx in zip(q[best_p:], starts, strict=True):
                self.res[x.job_id] = sx
        return self._start_due(now)

    def finish(self, job_id: int, now: int) -> list[int]:
        """A running job terminated at ``now`` (<= its estimated end): compress (if it ended early,
        or at every termination under ``compress_on="every"``), start what is due."""
        start, job = self.running.pop(job_id)
        end = start + job.estimate
        self.profile.advance(now)
        self.profile.release(now, end - now, job.procs)
        self.base.advance(now)
        self.base.release(now, end - now, job.procs)
        if end > now or self.compress_every:
            self._compress(now)
        return self._start_due(now)

    def cancel(self, job_id: int, now: int) -> list[int]:
        """A queued job is withdrawn: drop its reservation, compress, start what is due."""
        self.profile.advance(now)
        i = next(k for k, x in enumerate(self.queue) if x.job_id == job_id)
        x = self.queue.pop(i)
        self.profile.release(self.res.pop(job_id), x.estimate, x.procs)
        self._compress(now)
        return self._start_due(now)

    # -- internals --------------------------------------------------------------------------------
    def _compress(self, now: int) -> None:
        """Every queued job, in queue order, to its earliest slot if earlier (conservative
        backfilling's compression pass, :func:`~schedlab.sim.schedulers.conservative.compress`);
        the profile is advanced to ``now`` by the caller."""
        res = self.res
        waiting = ((x, x.procs, x.estimate, res[x.job_id]) for x in self.queue)
        for x, s in compress(self.profile, now, waiting, self.compress_passes):
            old = res[x.job_id]
            res[x.job_id] = s
            if self.plan_reference:   # the margin to the deadline follows the plan
                x.deadline -= old - s

    def _start_due(self, now: int) -> list[int]:
        due = [x for x in self.queue if self.res[x.job_id] == now]
        if not due:
            return []
        self.queue = [x for x in self.queue if self.res[x.job_id] != now]
        for x in due:
            del self.res[x.job_id]
            self.running[x.job_id] = (now, x)
            self.base.reserve(now, x.estimate, x.procs)
            self.wait_sum += now - x.submit
            self.started += 1
        return [x.job_id for x in due]

    def planned_start(self, job_id: int) -> int:
        """Current reservation of a queued job."""
        return self.res[job_id]


class Flex(Scheduler):
    """Flex as an engine scheduler (``--scheduler flex``): forwards the engine's hooks to
    :class:`FlexPlanner` and returns the jobs it decided to start (see the module docstring).

    :meth:`sync` (policy switch in PBAS/WBAS, forks) rebuilds the plan from the machine: running jobs
    until their expected end, waiting jobs in arrival order placed as conservative backfilling would
    (that start is their new guarantee); a job keeps the slack it was given when this instance first
    saw it, otherwise it gets one now. :meth:`set_wait_stats` seeds the "current average wait" slack
    base (e.g. with the real run's statistics when PBAS forks a fresh Flex).
    """

    name = "flex"

    def __init__(self, slack_factor: float = 3.0, slack_base: str = "mean_wait", cost: str = "wait",
                 slack_constant: float = 0.0, slack_reference: str = "guarantee",
                 compress_on: str = PYSS[0], compress_passes: str = PYSS[1]) -> None:
        self._opts = {"slack_factor": float(slack_factor), "slack_base": slack_base, "cost": cost,
                      "slack_constant": float(slack_constant), "slack_reference": slack_reference,
                      "compress_on": compress_on, "compress_passes": compress_passes}
        FlexPlanner(1, **self._opts)  # validates the options now
        self.planner: FlexPlanner | None = None
        self._due: list[int] = []
        self._slacks: dict[int, int] = {}
        self._stats = (0.0, 0)
        self._timer_at: int | None = None

    def params(self) -> dict[str, Any]:
        return dict(self._opts)

    def _plan(self, ctx: MachineView) -> FlexPlanner:
        if self.planner is None:
            self.planner = FlexPlanner(ctx.machine_size, **self._opts)
            self.planner.wait_sum, self.planner.started = self._stats
        return self.planner

    def set_wait_stats(self, wait_sum: float, started: int) -> None:
        """Seed the mean-wait slack base (sum of waits, number of started jobs)."""
        self._stats = (float(wait_sum), int(started))
        if self.planner is not None:
            self.planner.wait_sum, self.planner.started = self._stats

    def reset(self) -> None:
        if self.planner is not None:
            self._stats = (self.planner.wait_sum, self.planner.started)
        self.planner = None
        self._due = []

    def sync(self, ctx: MachineView) -> None:
        self.reset()
        pl = self._plan(ctx)
        now = ctx.now
        for run in ctx.running.values():
            fj = FlexJob(run.job.job_id, run.job.submit, run.procs, run.expected_end - run.start)
            pl.running[fj.job_id] = (run.start, fj)
        # the running jobs until their expected ends, in one sort (= a reservation per job)
        pl.base = profile_of_running(ctx.machine_size, now, ((r.expected_end, r.procs, None)
                                                             for r in ctx.running.values()))
        pl.profile = pl.base.copy()
        for job in ctx.waiting.values():
            fj = FlexJob(job.job_id, job.submit, job.procs, job.estimate)
            s = pl.profile.earliest_start(fj.procs, fj.estimate, now)
            pl.profile.reserve(s, fj.estimate, fj.procs)
            slack = self._slacks.setdefault(job.job_id, int(pl.slack(fj)))
            fj.guarantee, fj.deadline = s, s + slack
            pl.queue.append(fj)
            pl.res[fj.job_id] = s
        self._due = pl._start_due(now)

    def on_arrival(self, ctx: MachineView, job: SimJob) -> None:
        pl = self._plan(ctx)
        fj = FlexJob(job.job_id, job.submit, job.procs, job.estimate)
        self._due += pl.arrive(fj, ctx.now)
        self._slacks[job.job_id] = fj.deadline - fj.guarantee

    def on_completion(self, ctx: MachineView, run: Run, killed_at_estimate: bool) -> None:
        self._due += self._plan(ctx).finish(run.job.job_id, ctx.now)

    def on_cancel(self, ctx: MachineView, job: SimJob, run: Run | None) -> None:
        pl = self._plan(ctx)
        if run is None:
            self._due += pl.cancel(job.job_id, ctx.now)
        else:
            self._due += pl.finish(job.job_id, ctx.now)

    def on_timer(self, ctx: MachineView, key: Any) -> None:
        if key == "reservation" and self.planner is not None:
            self._due += self.planner._start_due(ctx.now)

    def schedule(self, ctx: MachineView) -> list[Start]:
        due, self._due = self._due, []
        waiting = ctx.waiting
        res = self.planner.res if self.planner is not None else None
        if res:  # a reservation may fall where no job event happens (as in Conservative)
            nxt = min(res.values())
            if nxt > ctx.now and nxt != self._timer_at:
                self._timer_at = nxt
                ctx.set_timer(nxt, "reservation")
        return [Start(waiting[j]) for j in due]
