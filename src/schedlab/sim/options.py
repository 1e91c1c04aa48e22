"""The engine's settings as data: :class:`SimOptions`, and the setting names (importable without
numpy/pandas: the CLI builds its help from them).

A :class:`SimOptions` travels from where it is decided to the engine as a value: the workflow's
config ``sim:`` and each paper's settings file (``sim:``, a paper that pins an order says so
there), the CLI's ``--tie-rule``, a test's argument. :func:`~schedlab.sim.engine.simulate`,
:func:`~schedlab.sim.fork.simulate_from`, :func:`~schedlab.sim.fork.starts_from` and
:class:`~schedlab.sim.fork.Simulation` take it as ``options``, and the schedulers read the run's
options as :attr:`MachineView.options <schedlab.sim.state.MachineView>` (their forks run under
the same ones). Nothing reads them from the environment.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal

from ..errors import ConfigError

#: Event orders (see :mod:`schedlab.sim.engine`).
TIE_RULES: tuple[str, ...] = ("completions_first", "arrivals_first", "per_event")
TieRule = Literal["completions_first", "arrivals_first", "per_event"]
#: Bounded-slowdown threshold (s), the one for every policy and metric: Perković §2, Tang §4.2,
#: Talby §3, Feitelson's usual 10 s: ``max(1, response / max(runtime, BSLD_BOUND))``.
BSLD_BOUND = 10
#: Processor allocation models.
ALLOCATIONS: tuple[str, ...] = ("any", "contiguous")
Allocation = Literal["any", "contiguous"]

#: The engine's default event order (decision and evidence: :mod:`schedlab.sim.engine`).
DEFAULT_TIE_RULE: TieRule = "per_event"


@dataclass(frozen=True)
class SimOptions:
    """How the engine reads what a paper leaves open: simulator details that no paper states, each
    a reading with a default chosen on evidence (docs/engine.md).

    Attributes:
        tie_rule: the order of same-time events (:data:`TIE_RULES`; :mod:`schedlab.sim.engine`).

    Readings of the same kind join here as fields with their default, e.g. the compression
    reading of conservative backfilling (``compress_on``, ``compress_passes``: when and how often
    the schedule is compressed, today parameters of the schedulers' constructors); a field a
    scheduler needs it reads as ``ctx.options.<field>``, or the driver that builds the scheduler
    passes it on. A new field is a new key of config ``sim:`` and of the papers' ``sim:`` blocks
    (:meth:`pinned`; add it to their schemas) and is recorded in every result's settings.
    """

    tie_rule: TieRule = DEFAULT_TIE_RULE
    # the compression reading joins here (compress_on, compress_passes), with its defaults

    def __post_init__(self) -> None:
        if self.tie_rule not in TIE_RULES:
            raise ConfigError(f"unknown tie_rule {self.tie_rule!r}; choose one of {TIE_RULES}")

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None, where: str = "sim") -> SimOptions:
        """The options a settings block names (``None``/empty: the defaults); a one-line error
        naming ``where`` and the key for an unknown key or value."""
        return cls().pinned(values, where)

    def pinned(self, values: Mapping[str, Any] | None, where: str = "sim") -> SimOptions:
        """These options with the ones ``values`` names replaced (a paper's ``sim:`` block over the
        workflow's options); a one-line error naming ``where`` for an unknown key or value."""
        values = dict(values or {})
        known = [f.name for f in fields(self)]
        unknown = sorted(set(values) - set(known))
        if unknown:
            raise ConfigError(f"{where}: unknown engine option(s) {unknown}; known: {known}")
        try:
            return replace(self, **values)
        except ConfigError as e:
            raise ConfigError(f"{where}: {e}") from None

    def as_dict(self) -> dict[str, Any]:
        """JSON-able: settings travel to the pipeline's jobs as params, and into result metadata."""
        return asdict(self)


#: The keys of :class:`SimOptions` (config ``sim:`` also holds the baseline runs' normalization).
SIM_OPTION_KEYS: tuple[str, ...] = tuple(f.name for f in fields(SimOptions))
