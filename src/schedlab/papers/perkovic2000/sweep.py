"""Perković & Keleher 2000: the experiments, the run grid and a run's scheduler configuration.

Every run is a simulation of the shared engine with :class:`schedlab.sim.schedulers.perkovic.Perkovic`
(event order ``completions_first``; adapted alternatives rounded up to whole seconds — the
decisions and their golden-schedule evidence are in that module and docs/papers/perkovic2000.md).

Experiments (one simulation each, per machine size × algorithm of Table 4 × guarantees or -NG):

==================  ====================================================  ========
experiment          what runs                                             figure
==================  ====================================================  ========
``base``            queue order, regular backfilling only                 3, 4
``spec``            + speculative backfilling at percentage x             5
``spectest``        + speculative backfilling and test runs (§6.1)        6
``half``            half-size alternatives always (§7.1)                  7, 9
``quarter``         quarter-size (> 4 nodes) / half-size alternatives     7
``greedy``          greedy choice among regular, half, double             8
``half_widen``      half-size + start-time widening                       9
``half_spec``       half-size + speculative backfilling (+ test runs)     9
``half_widen_spec`` half-size + widening + speculative backfilling        9
==================  ====================================================  ========


Setting (issue 24). §2: "a one year long trace from the Cornell Theory Center's 430-node cluster";
Table 1: 430 nodes, 79,302 jobs. Default: the whole cleaned log (77,222 jobs) on 430 nodes for the
base experiment (Figures 3-4, Table 3, §4, §5, §8: :func:`paper_setting_points`), with 3 seeds of
every randomized algorithm (P, R, P/L, R/L, each with guarantees and -NG); Figures 5-9 (156 runs,
:func:`grid`) on the first ``max_jobs`` jobs at 430 nodes unless ``full`` (the whole log, 3 seeds
of the randomized orders: ~2-6 CPU-s per run, greedy 9-14; the default's 156 runs alone would
cost ~12 CPU-min on the whole log). Why 430 nodes and the other readings of the setting:
:mod:`.attribution`.
"""

from __future__ import annotations

import dataclasses
import zlib
from dataclasses import dataclass

import numpy as np

from ...sim.schedulers.compression import PERKOVIC
from ...sim.schedulers.perkovic import PKConfig
from ...sim.schedulers.queue_orders import ORDERS, QueueOrder, anti_starvation_weight, label, slug
from ...sim.schedulers.speculative import Speculation
from .config import Settings

GROUPS = ("SN", "SW", "LN", "LW")
#: experiment -> (adaptation, widening, speculation, test runs)
EXPERIMENTS: dict[str, tuple[str, bool, bool, bool]] = {
    "base": ("none", False, False, False),
    "spec": ("none", False, True, False),
    "spectest": ("none", False, True, True),
    "half": ("half", False, False, False),
    "quarter": ("quarter", False, False, False),
    "greedy": ("greedy", False, False, False),
    "half_widen": ("half", True, False, False),
    "half_spec": ("half", False, True, None),  # test runs: config fig9_test_runs
    "half_widen_spec": ("half", True, True, None),
}
SWEPT = ("spec", "spectest")  # experiments run at every speculation percentage


@dataclass(frozen=True)
class RunPoint:
    """One simulation: machine size, experiment, queue order, guarantees, speculation percentage."""

    machine: int
    experiment: str
    order: str
    guarantees: bool
    percentage: float | None = None
    replicate: int = 0  # independent random stream (seeds of randomized orders); 0 = the default

    @property
    def algorithm(self) -> str:
        return label(self.order, self.guarantees)

    @property
    def variant(self) -> str:
        """Experiment name with its percentage, e.g. ``spec50``."""
        if self.percentage is None:
            return self.experiment
        return f"{self.experiment}{round(self.percentage * 100):d}"

    @property
    def name(self) -> str:
        """The run within its experiment: the algorithm's slug and replicate, e.g. ``R_L-NG_r1``."""
        return f"{slug(self.order, self.guarantees)}{replicate_suffix(self.replicate)}"

    @property
    def path(self) -> str:
        """``<machine>/<variant>/<name>``, e.g. ``430/spec50/R_L-NG`` (benchmark and golden-file names)."""
        return f"{self.machine}/{self.variant}/{self.name}"


def grid(s: Settings) -> list[RunPoint]:
    """Every sweep point of the configuration (see module docstring); ``sweep_seeds`` > 1 adds that
    many replicates (independent random streams) of the ``paper_setting.seed_algorithms`` in every
    experiment, base included, so Figures 5-9 get intervals."""
    orders = list(s.orders)
    for o in orders:
        if o not in ORDERS:
            raise ValueError(f"config/papers/perkovic2000.yaml: unknown order {o!r}")
    algos = [(o, g) for o in orders for g in (True, False)]
    points: list[RunPoint] = []
    m0 = int(s.machine)
    for exp in s.experiments:
        if exp not in EXPERIMENTS:
            raise ValueError(f"config/papers/perkovic2000.yaml: unknown experiment {exp!r}")
        pcts = s.spec_percentages if exp in SWEPT else (
            [s.fig9_percentage] if EXPERIMENTS[exp][2] else [None])
        for pct in pcts:
            points += [RunPoint(m0, exp, o, g, pct) for o, g in algos]
    seeded = set(s.paper_setting.seed_algorithms if s.paper_setting else ())
    first = list(points)
    for rep in range(1, int(s.sweep_seeds)):
        points += [dataclasses.replace(p, replicate=rep) for p in first if p.algorithm in seeded]
    for m in s.extra_machines:
        points += [RunPoint(int(m), "base", o, g) for o, g in algos]
    return points


def pk_config(point: RunPoint, s: Settings, median_estimate: float) -> PKConfig:
    """The scheduler configuration of a sweep point."""
    adaptation, widening, spec, tests = EXPERIMENTS[point.experiment]
    if tests is None:
        tests = bool(s.fig9_test_runs)
    weight = anti_starvation_weight(point.order, point.guarantees, median_estimate,
                                    float(s.starvation_horizon_s))
    speculation = None
    if spec:
        t = s.test_runs
        speculation = Speculation(percentage=float(point.percentage), test_runs=bool(tests),
                                  min_estimate_s=float(t.min_estimate_s),
                                  length_s=float(t.length_s),
                                  max_length_s=float(t.max_length_s),
                                  max_test_runs=int(t.max_test_runs))
    comp = {"compress_on": PERKOVIC[0], "compress_passes": PERKOVIC[1], **s.compression}
    return PKConfig(order=QueueOrder(point.order, point.guarantees, weight),
                    speculation=speculation, adaptation=adaptation, widening=widening,
                    widen_factors=tuple(int(f) for f in s.widen_factors), **comp)


def seed_for(entropy: int, point: RunPoint) -> np.random.SeedSequence:
    """Seed of a run: the experiment entropy and the algorithm (common random numbers across
    experiments and percentages for the same algorithm and machine)."""
    key = zlib.crc32(f"{point.machine}|{point.order}|{point.guarantees}".encode())
    spawn = (key,) if not point.replicate else (key, int(point.replicate))
    return np.random.SeedSequence(int(entropy), spawn_key=spawn)



def paper_setting_points(s: Settings) -> list[RunPoint]:
    """Base experiment (Figures 3-4, Table 3, §8) in the paper's own setting (``paper_setting`` in
    the config: the whole log on 430 nodes), with ``seeds`` replicates of the randomized algorithms
    in ``seed_algorithms``; [] when not configured."""
    ps = s.paper_setting
    if not ps:
        return []
    m = int(ps.machine)
    points = [RunPoint(m, "base", o, g) for o in s.orders for g in (True, False)]
    seeded = set(ps.seed_algorithms)
    known = {p.algorithm for p in points}
    for a in seeded - known:
        raise ValueError(f"config/papers/perkovic2000.yaml: paper_setting.seed_algorithms: {a!r} "
                         f"is not a configured algorithm ({', '.join(sorted(known))})")
    for rep in range(1, int(ps.seeds)):
        points += [RunPoint(m, "base", p.order, p.guarantees, replicate=rep)
                   for p in points[: 2 * len(s.orders)] if p.algorithm in seeded]
    return points


def scale(max_jobs: int | None) -> str:
    """The runs of different job subsets never overwrite each other: ``n5000``, ``all``."""
    return f"n{max_jobs}" if max_jobs else "all"


def run_sets(s: Settings) -> list[tuple[str, int | None, list[RunPoint]]]:
    """(scale, max_jobs, run points) of the sweep (Figures 5-9 and the extra machines) and of the
    paper setting (no points when it is not configured)."""
    paper_max = s.paper_setting.max_jobs if s.paper_setting else None
    return [(scale(s.max_jobs), s.max_jobs, grid(s)),
            (scale(paper_max), paper_max, paper_setting_points(s))]


def experiment_id(scale_name: str, point: RunPoint) -> str:
    """The point id of the runs of one experiment: ``<scale>/<machine>/<variant>``, and
    ``<variant>_r<k>`` for replicate ``k`` >= 1 of its seeded algorithms, so that the whole-log
    paper setting (12 runs, then 8 per further seed) is a few jobs of similar size, not one."""
    return f"{scale_name}/{point.machine}/{point.variant}{replicate_suffix(point.replicate)}"


def replicate_suffix(replicate: int) -> str:
    """``_r<k>`` for replicate ``k`` >= 1, nothing for the first."""
    return f"_r{replicate}" if replicate else ""


def experiment_runs(s: Settings) -> dict[str, dict[str, RunPoint]]:
    """Every run of :func:`run_sets` by its experiment's point id (:func:`experiment_id`), then by
    its :attr:`RunPoint.name`: a run the sweep and the paper setting both contain is listed once."""
    out: dict[str, dict[str, RunPoint]] = {}
    for scale_name, _, runs in run_sets(s):
        for p in runs:
            out.setdefault(experiment_id(scale_name, p), {}).setdefault(p.name, p)
    return out
