"""Output namespaces: a trace's outputs are never another rule's.

An output pattern with the ``{trace}`` wildcard as a path component (``results/models/{trace}``, rule
``fit_models``) gives each registered trace a file or directory at that place. Any other output with a
fixed name at the same place (``results/models/cirne2001/tables``, rule ``models_tables``) reserves
that name: a trace registered under it would share the other rule's files, and Snakemake clears a
job's directory output before the job runs. :func:`reserved_names` derives these names from the rules'
outputs (and log files); :func:`check_trace_names` refuses a registry that uses one, in one line naming
each conflict. The papers' names are reserved as well: they name output directories (``results/<paper>/``,
Cirne's model tables) whether or not a run defines the rules that write them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import RegistryError

#: A wildcard, with an optional constraint (Snakemake writes global constraints into the patterns).
_WILDCARD = re.compile(r"\{\s*([A-Za-z_]\w*)\s*(?:,(?:[^{}]|\{\d+(?:,\d*)?\})*)?\}")


@dataclass(frozen=True)
class Reservation:
    """Why a name is reserved: the trace output ``trace_output`` (of ``trace_rule``) would be
    ``taken`` (of ``rule``)."""

    trace_rule: str
    trace_output: str
    rule: str
    taken: str


def _component_regex(component: str, wildcard: str) -> re.Pattern[str]:
    """A path component with wildcards as a regex; ``wildcard`` is the named group ``name``."""
    out, pos = [], 0
    for m in _WILDCARD.finditer(component):
        out.append(re.escape(component[pos:m.start()]))
        out.append("(?P<name>[^/]+)" if m.group(1) == wildcard else "[^/]+")
        pos = m.end()
    out.append(re.escape(component[pos:]))
    return re.compile("".join(out))


def reserved_names(outputs: list[tuple[str, str]], wildcard: str = "trace"
                   ) -> dict[str, Reservation]:
    """The names a ``{wildcard}`` value may not take, from ``(rule, output pattern)`` pairs.

    For each pattern whose path component ``i`` holds ``{wildcard}``, every other pattern with the
    same first ``i`` components and a fixed component ``i`` that the wildcard's component matches
    reserves the matched name (``{trace}`` matches ``cirne2001``; ``{trace}.log`` matches
    ``x.log`` as ``x``)."""
    plain = (_WILDCARD.sub(lambda m: "{" + m.group(1) + "}", str(p)) for _, p in outputs)
    pairs = [(rule, p, p.split("/")) for (rule, _), p in zip(outputs, plain, strict=True)]
    reserved: dict[str, Reservation] = {}
    for trace_rule, pattern, parts in pairs:
        for i, part in enumerate(parts):
            if not any(m.group(1) == wildcard for m in _WILDCARD.finditer(part)):
                continue
            regex = _component_regex(part, wildcard)
            for rule, other, oparts in pairs:
                if other == pattern or len(oparts) <= i or oparts[:i] != parts[:i]:
                    continue
                if _WILDCARD.search(oparts[i]):
                    continue  # a wildcard there too: its values are the other rule's business
                m = regex.fullmatch(oparts[i])
                if m:
                    reserved.setdefault(m.group("name"), Reservation(trace_rule, pattern, rule,
                                                                     other))
    return reserved


def check_trace_names(names: Iterable[str], outputs: list[tuple[str, str]],
                      papers: Iterable[str], source: str) -> None:
    """Raise RegistryError (one line, every conflict) if a trace of registry ``source`` is named
    like an output the rules reserve (:func:`reserved_names`) or like a paper."""
    reserved = reserved_names(outputs)
    papers = set(papers)
    problems = []
    for name in names:
        r = reserved.get(name)
        if r is not None:
            mine = r.trace_output.replace("{trace}", name)
            problems.append(f"'{name}' (rule {r.trace_rule}'s {r.trace_output} would be {mine}, "
                            f"where rule {r.rule} writes {r.taken})")
        elif name in papers:
            problems.append(f"'{name}' (a paper's name: it names output directories such as "
                            f"results/{name}/)")
    if problems:
        raise RegistryError(f"{source}: trace name(s) reserved for other outputs: "
                            f"{'; '.join(problems)}; rename the trace(s)")
