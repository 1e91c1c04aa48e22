"""Schroeder & Harchol-Balter (2004): the readings behind the deviating scorecard rows, as data
(the long format of :mod:`schedlab.report.attribution`).

* Service order (§2.2): every claim under the other service orders of the run (``trace``: the
  jobs in trace order, serial correlation kept); the same rows as
  ``tables/attribution_service_order``.
* The M/G/h factor of Least-Work-Left's analysis (§3.3, Fig 8): the other factor, the printed
  E[X²]/E[X]² beside the standard (1+C²)/2 (exactly twice it: the mean queue, so the mean wait,
  doubles or halves).
* The C90 numbers: the rows that test the paper's C90 factors (§1.4, §4.2's ranges) on our CTC
  workload carry ``data`` (the PSC C90 log is not available offline) when no reading explains
  them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from ...report.attribution import attribution_frame, data_gap, needs_run
from ...report.scorecard import NOT_ATTRIBUTED
from .config import PAPER

SERVICE_ORDER_SOURCE = f"{PAPER}/tables/attribution_service_order"
MGH_SOURCE = f"{PAPER}/tables/analysis"
ORDER_WORDS = {"trace": "service order: the jobs in trace order (serial correlation kept)",
               "shuffled": "service order: i.i.d. (a fresh permutation per replication)"}


def log_label(trace: str) -> str:
    """How the causes name the workload's log: its site, the registry name's first part
    (``CTC-SP2-1996-3.1-cln`` -> ``CTC``)."""
    return trace.split("-")[0]


def order_cause(log: str) -> str:
    return ("the paper's Poisson runs are read as i.i.d. service times (Theorem 1's "
            f"assumption); the trace order keeps {log}'s serial correlation")


MGH_CAUSE = ("LWL's M/G/h factor: the standard (1+C²)/2 here, the paper prints E[X²]/E[X]² "
             "(twice it)")
#: Items whose claims are the paper's C90 numbers, checked on CTC.
C90_ITEMS = ("§1.4", "§4.2 / Fig 4")


def c90_cause(log: str, scv: float) -> str:
    """The C90 rows' cause: the paper's workload against ours (``log``'s jobs, C² ``scv``)."""
    smaller = ", whose gains are smaller" if scv < C90_SCV else ""
    return (f"the paper's numbers are the PSC C90 log's (C² 43); our workload is the {log} log's "
            f"8-processor jobs (C² {scv:.1f}){smaller}")


#: The PSC C90 log's C² (Table 1).
C90_SCV = 43.16


def other_factor(analysis: pd.DataFrame, slowdown: str, current: str) -> pd.DataFrame:
    """``analysis`` with Least-Work-Left's mean wait, slowdown and response under the M/G/h factor
    other than ``current`` (``standard`` or ``paper``): the printed factor E[X²]/E[X]² is twice the
    standard (1+C²)/2, so the mean wait doubles (halves from the printed one); the slowdown moves
    with it (Theorem 1: E[S] = E[W] E[1/X], plus 1 when ``slowdown`` is ``response``)."""
    out = analysis.copy()
    lwl = (out["policy"] == "Least-Work-Left").to_numpy()
    scale = 2.0 if current == "standard" else 0.5
    offset = 1.0 if slowdown == "response" else 0.0
    wait = out.loc[lwl, "mean_wait"]
    out.loc[lwl, "mean_wait"] = wait * scale
    out.loc[lwl, "mean_response"] = out.loc[lwl, "mean_response"] + wait * (scale - 1)
    out.loc[lwl, "mean_slowdown"] = offset + (out.loc[lwl, "mean_slowdown"] - offset) * scale
    return out


def _key(r: Mapping[str, Any]) -> tuple[str, str]:
    return str(r["item"]), str(r["quantity"])


def _reading(row: Mapping[str, Any], other: Mapping[str, Any], words: str, cause: str,
             source: str) -> dict[str, Any]:
    return {"paper": row["paper"], "item": row["item"], "quantity": row["quantity"],
            "condition": row["condition"], "reading": words, "cause": cause,
            "value": other["reproduced"], "baseline": row["reproduced"],
            "holds": None if other["verdict"] not in ("holds", "fails")
            else other["verdict"] == "holds", "source": source}


def readings(rows: Sequence[Mapping[str, Any]],
             other_orders: Mapping[str, Iterable[Mapping[str, Any]]],
             other_factor_rows: Iterable[Mapping[str, Any]], factor_words: str,
             log: str = "CTC") -> pd.DataFrame:
    """The long frame: each claim row of ``rows`` under each other service order (``other_orders``:
    order -> that order's claim rows, matched by item and quantity) and, for the analysis rows,
    under the other M/G/h factor (``other_factor_rows``: the analysis rows recomputed with it);
    ``log`` names the workload's log (:func:`log_label`)."""
    own = {_key(r): r for r in rows}
    out = []
    for order, alt in other_orders.items():
        for o in alt:
            r = own.get(_key(o))
            if r is not None and o["verdict"] != "not_run":
                out.append(_reading(r, o, ORDER_WORDS.get(order, f"service order {order}"),
                                    order_cause(log), SERVICE_ORDER_SOURCE))
    for o in other_factor_rows:
        r = next((x for x in rows if x["item"] == o["item"]
                  and x["quantity"].split(" (")[0] == o["quantity"].split(" (")[0]), None)
        if r is not None and "Least-Work-Left" in str(r["note"]):
            out.append(_reading(r, o, factor_words, MGH_CAUSE, MGH_SOURCE))
    return attribution_frame(out)


def c90_gaps(rows: Iterable[dict[str, Any]], log: str, scv: float) -> list[dict[str, Any]]:
    """The deviating C90-number rows that no reading explains, marked ``data`` (our workload:
    ``log``'s jobs, C² ``scv``)."""
    return [data_gap(r, c90_cause(log, scv), "the PSC C90 log (not obtainable offline)")
            if r["item"] in C90_ITEMS and r["verdict"] in ("close", "differs", "fails")
            and r.get("explained") not in ("explained", "partly") else r for r in rows]


LOG_VERSION_CAUSE = ("the log version: the archive's cleaned CTC log has no 8-processor job "
                     "shorter than 2 s, the paper's version one of 1 s")


def workload_cause(log: str) -> str:
    return (f"untested here: the workload reading (Table 1's {log} jobs keep the 12-hour "
            "limit; without it the 2-host comparisons change, module docstring of "
            "schedlab.papers.schroeder2004)")


def workload_run(log: str, study: bool) -> str:
    """The run that would test :func:`workload_cause`, as the user would ask for it."""
    where = ("config 'studies: {schroeder2004: {subset: {procs: [8]}}}'" if study else
             "--config 'papers={\"schroeder2004\": {\"subset\": {\"procs\": [8]}}}'")
    return (f"the runs on the {log} 8-processor jobs without the 12-hour limit ({where}; its "
            "points are not in the default target)")


def untried(rows: Iterable[dict[str, Any]], log: str = "CTC", study: bool = False
            ) -> list[dict[str, Any]]:
    """The deviating rows no reading was tried on: Table 1's minimum (the log version, ``data``)
    and the rest ``unexplained``, naming the workload run that would test them (on ``log``;
    ``study``: a study's settings, changed under config ``studies``)."""
    out = []
    for r in rows:
        if r["verdict"] in ("close", "differs", "fails") and r["cause"] == NOT_ATTRIBUTED["cause"]:
            r = (data_gap(r, LOG_VERSION_CAUSE, "the paper's version of the CTC log")
                 if r["item"] == "Table 1" and r["quantity"] == "min_service"
                 else needs_run(r, workload_cause(log), workload_run(log, study),
                                "about 60 CPU-s"))
        out.append(r)
    return out
