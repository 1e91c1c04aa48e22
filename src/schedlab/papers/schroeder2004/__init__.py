"""Schroeder & Harchol-Balter (2004), "Evaluation of task assignment policies for supercomputing
servers: the case for load unbalancing and fairness": the paper contract of
:mod:`schedlab.papers` (settings, points, run_point, outputs, tables, figures, scorecard).

What runs (paper sections in brackets; one module each, a point each where it simulates):

* Table 1 [§2.1] (:mod:`.workload`, point ``table1``): service-time characteristics (jobs, mean,
  min, max, C²) of each configured log.
* Cutoffs [§4.1, §4.4] (:mod:`.cutoffs`, point ``cutoffs``): SITA-E, SITA-U-opt, SITA-U-fair and
  the ρ/2 rule of thumb, analytically (Theorem 1 over every feasible cutoff) and by simulation, on
  the *first* half of the jobs.
* Simulations (:mod:`.simulations`, one point ``sim_<experiment>`` each, all needing ``cutoffs``):
  Poisson experiments ``poisson-<order>`` [§2.2, §3.2, §4.2]: every policy on the *second* half at
  each load ρ (arrival rate λ = ρh/E[X]) for 2 and 4 hosts, ``replications`` independent Poisson
  streams; many hosts ``many_hosts-<order>`` [§5]: short/long host groups (half the hosts each),
  each group scheduled by LWL, using the 2-host cutoffs derived at ρ = ``many_hosts_load``; scaled
  trace arrivals ``scaled`` [§6]: the trace's own inter-arrival times scaled to the load, with the
  analytic (Poisson) cutoffs.
* Analysis [§3.3, Appendix A] (:mod:`.analysis`, point ``analysis``): Theorem 1 / M/G/h mean
  slowdown of each policy on the evaluation half (Random, Least-Work-Left, SITA-E,
  SITA-U-opt/fair/rule). Round-Robin (an E_h/G/1 queue) and Shortest-Queue have no closed form in
  the paper and are simulated only.
* Assembly: the points' frames as tables (``table1``, ``cutoffs``, ``sim_<experiment>``,
  ``analysis``), the service-order attribution table and the scorecard (:mod:`.scoring`, rules in
  :mod:`.checks`, intervals in :mod:`.intervals`), and the figures (:mod:`.plots`): 2, 3, 4, 12
  (mean and variance of slowdown), 5 (Host-1 load fraction; on CTC this is the paper's Fig 13), 6
  (many hosts), 7 (scaled arrivals), 8, 9 (analysis vs simulation, every service order). Figs 10
  and 11 are the paper's J90 results and cannot be made (log unavailable). Figures use the first
  (headline) service order; the others are compared in the attribution table.
* Settings (:mod:`.config`, a :class:`.config.Settings`): ``config/papers/schroeder2004.yaml`` at
  one scale (``default``; ``quick=true`` -> ``quick``; ``full=true`` -> ``paper``; or the override
  ``scale``) deep-merged with the overrides ``config["papers"]["schroeder2004"]``. The points and
  what each runs: :mod:`.points`; the tables: :mod:`.tabulate`.

Workload [§2.1, Table 1, note 2]. The paper's CTC row: 8-processor jobs, July 1996 - May 1997,
"users are told jobs will be killed after 12 hours": 5729 jobs, mean 2903.6 s, min 1 s, max 43138 s,
C² 5.42. The default ``subset: {procs: [8], max_run_time: 43200}`` keeps the 5920 8-processor jobs of
CTC-SP2-1996-3.1-cln minus the 191 that ran longer than 12 hours: 5729 jobs, mean 2903.63 s,
max 43138 s, C² 5.426 — Table 1 except the minimum (2 s in the cleaned log). Capping the 191 at
43200 s instead gives 5920 jobs (not Table 1); keeping them gives mean 4584.9 s, C² 6.23.
Attribution (``--config 'papers={"schroeder2004": {"subset": {"procs": [8]}}}'`` beside the default;
the 22 claims that depend on the service order, holds under shuffled / trace order): with the
12-hour limit 11 / 10, without it 15 / 12. Without the limit SITA-E beats LWL at 2 hosts (LWL/SITA-E
at least 2.0 at loads 0.5-0.8) and LWL overtakes SITA-E as hosts grow, as the paper says; with
Table 1's workload LWL is as good as or better than SITA-E (LWL/SITA-E 0.74-0.98) and SITA-U's
margin grows (at least 4.0 against 1.5). The default stays Table 1's workload: it is the paper's.

Service order with Poisson arrivals [§2.2]. The text: "While the job service requirements are taken
from a trace, we generate the arrival times according to a Poisson arrival process"; the analysis
(Theorem 1, an M/G/1 queue with i.i.d. service times) is "in very close agreement with the
simulation results" (§3.3, §4.3); the only dependence the paper discusses is hypothetical and about
arrivals ("the above analysis assumes that the interarrival times are independent identically
distributed. One can imagine that if there are dependencies ..., the performance of SITA-E becomes
worse", §3.3), which §6 studies with the trace's own arrival times. Readings:

* ``shuffled`` (default): the evaluation half's service times in a fresh random permutation per
  replication — i.i.d. draws from the trace's service-time distribution, as the analysis assumes;
* ``trace``: the jobs in trace order, which keeps the strong serial correlation of CTC run times
  (lag-1 correlation of log run time 0.50) that no Poisson-arrival model of the paper has.

Attribution (``tables/attribution_service_order``, both orders on every run): with trace order
Theorem 1 misses the simulation by a median 80-130% (Figs 8-9 fail), with shuffled order by 0-2%, as
the paper reports; so the default is ``shuffled``; ``trace`` is kept as the attribution variant.

Replications and verdicts. Every simulated point is ``replications`` independent Poisson streams
(and permutations), each from its own ``SeedSequence(seed, spawn_key=...)``; the tables keep the
per-replication values (``rep_*``) and a Student-t interval (``*_lo``/``*_hi``, level
``confidence``). Policies share the streams (common random numbers), so ratios are paired: the
ratio of two policies is the geometric mean of the per-replication ratios with the t-interval of
their logarithms (:mod:`.intervals`). Claims use the interval (rules in :mod:`.checks`). The
scaled-trace experiment (§6) is deterministic: one run per load, a point interval.

C90 / J90. The PSC logs are not obtainable offline; the figures in the body of the paper (2-9) are
C90 results and Appendix C's CTC figures (12, 13) give no numbers in the text. The claims are
checked on CTC because the paper says the comparative results carry over to CTC (§2.1); C90 numbers
are quoted in notes only, never compared as if equal.

Other choices where the paper is silent (each is an option in the config):

* Slowdown = response time / service time (§1.2); the analysis adds 1 to Theorem 1's E[W/X].
* Halves: chronological (first half of the jobs in submit order derives cutoffs); the simulated
  cutoff search (§4.1) uses the headline service order.
* Fig 6 groups: half the hosts serve short jobs, half long (preserves the 2-host per-host loads).
* Variance of slowdown: population variance over all jobs of all replications pooled.
"""

from __future__ import annotations

from .config import Settings, settings, study_role, with_log
from .plots import figures
from .points import extra_targets, log_names, logs, points, run_point
from .scoring import scorecard
from .tabulate import outputs, tables

title = ("Schroeder & Harchol-Balter 2004 — Evaluation of task assignment policies for "
         "supercomputing servers")
summary = ("Schroeder & Harchol-Balter 2004: task assignment in a distributed server (SITA-E/U, "
           "Least-Work-Left, Random, ...) on the CTC workload of Table 1")

__all__ = ["Settings", "extra_targets", "figures", "log_names", "logs", "outputs", "points", "run_point",
           "scorecard", "settings", "study_role", "summary", "tables", "title",
           "with_log"]
