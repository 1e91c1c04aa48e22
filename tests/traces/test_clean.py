"""Published archive cleaning filters (config/flurries.yaml) and their application."""

from __future__ import annotations

import gzip

import numpy as np
import pandas as pd
import pytest

from schedlab.errors import ConfigError
from schedlab.traces.clean import (
    Filter,
    clean_jobs,
    evaluate,
    filters_for,
    header_filters,
    load_filters,
    parse_filter,
)
from schedlab.traces.swf import SWF_COLUMNS, SWFHeader, read_swf


def _jobs(**cols) -> pd.DataFrame:
    n = len(next(iter(cols.values())))
    base = {c: np.full(n, -1, dtype=np.int64) for c in SWF_COLUMNS}
    base["job_id"] = np.arange(1, n + 1)
    base["submit_time"] = np.arange(n) * 600
    base |= {k: np.asarray(v) for k, v in cols.items()}
    return pd.DataFrame(base)


HEADER = SWFHeader.parse(["; UnixStartTime: 946684800", "; TimeZoneString: Europe/Stockholm"])


def test_operators_and_fields():
    jobs = _jobs(user_id=[1, 2, 1, 3, 1, 1], alloc_procs=[1, 4, 1, -1, 2, 1],
                 req_procs=[1, 4, 1, 8, 2, 1], app_id=[1, 1, 2, 1, 1, 1])
    m = evaluate(parse_filter("user=1 and (job>=2 and job<=5)"), jobs)
    assert m.tolist() == [False, False, True, False, True, False]
    assert evaluate(parse_filter("job<=2"), jobs).tolist() == [True, True] + [False] * 4
    # proc = allocated, else requested (job 4 has alloc -1, req 8)
    assert evaluate(parse_filter("proc=8"), jobs).tolist() == [False] * 3 + [True, False, False]
    m = evaluate(parse_filter("user=1 and proc=1 and app=1"), jobs)
    assert m.tolist() == [True, False, False, False, False, True]


def test_time_fields_use_log_time_zone():
    # 2000-01-01 00:00 UTC = 01:00 in Stockholm; jobs every 10 minutes
    jobs = _jobs(user_id=np.full(6, 5))  # 01:00 .. 01:50 local
    assert evaluate(parse_filter("hour>=1 and hour<=1"), jobs, HEADER).all()
    m = evaluate(parse_filter("submit<=2000-01-01 01:30:00"), jobs, HEADER)
    assert m.sum() == 4  # 01:00, 01:10, 01:20, 01:30 local
    with pytest.raises(ConfigError, match="UnixStartTime"):
        evaluate(parse_filter("hour=3"), jobs, None)


def test_user_and_or_reading():
    """`user=38 and (A) or (B)`: the archive's reading keeps the user condition on both ranges."""
    jobs = _jobs(user_id=[38, 7, 38, 7], job_id=[10, 11, 30, 31])
    expr = "user=38 and (job>=5 and job<=12) or (job>=29 and job<=32)"
    assert evaluate(parse_filter(expr), jobs).tolist() == [True, False, True, False]
    strict = evaluate(parse_filter(expr, strict_precedence=True), jobs)
    assert strict.tolist() == [True, False, True, True]


def test_clean_keeps_ids_and_reports_per_filter():
    jobs = _jobs(user_id=[1, 2, 2, 2, 3, 3])
    kept, report = clean_jobs(jobs, [Filter("job<=1", 1), Filter("user=2 and job<=3", 2),
                                     Filter("user=2", 3)])
    assert kept["job_id"].tolist() == [5, 6]
    assert report["removed"].tolist() == [1, 2, 1]  # each job counted by its first filter
    assert report["archive_removed"].tolist() == [1, 2, 3]


@pytest.mark.parametrize("bad", ["user=", "user=1 and", "(job<=3", "nodes=4", "user=1 xor job=2"])
def test_bad_expressions(bad):
    with pytest.raises(ConfigError, match="cleaning filter"):
        parse_filter(bad)


def test_bad_filter_file(tmp_path):
    p = tmp_path / "f.yaml"
    p.write_text("logs:\n  X:\n    filters:\n      - expr: 'user=1 and'\n")
    with pytest.raises(ConfigError, match=r"logs\.X\.filters\[1\]"):
        load_filters(p)
    p.write_text("[1, 2]\n")
    with pytest.raises(ConfigError, match="logs"):
        load_filters(p)


def _header(path) -> SWFHeader:
    lines = []
    with gzip.open(path, "rt", errors="replace") as fh:
        for line in fh:
            if line.strip() and not line.startswith(";"):
                break
            lines.append(line.rstrip())
    return SWFHeader.parse(lines)


def test_config_matches_every_mirrored_header(mirror, repo):
    table = load_filters(repo / "config" / "flurries.yaml")
    seen = 0
    for path in sorted(mirror.glob("*.swf.gz")):
        name = path.name.removesuffix(".swf.gz")
        published = header_filters(_header(path))
        assert (filters_for(name, table) or []) == published, name
        seen += bool(published)
    assert seen >= 14


@pytest.fixture(scope="module")
def filter_table(repo):
    return load_filters(repo / "config" / "flurries.yaml")


CLEANED = ["KTH-SP2-1996-2.1-cln", "CTC-SP2-1996-3.1-cln", "SDSC-SP2-1998-4.2-cln",
           "SDSC-BLUE-2000-4.2-cln", "LANL-CM5-1994-4.1-cln", "HPC2N-2002-2.2-cln",
           "SDSC-Par-1996-3.1-cln", "NASA-iPSC-1993-3.1-cln", "LLNL-Thunder-2007-1.1-cln",
           "LLNL-Atlas-2006-2.1-cln", "OSC-Clust-2000-3.1-cln", "Sandia-Ross-2001-1.1-cln",
           "SDSC-DS-2004-2.1-cln", "CEA-Curie-2011-2.1-cln"]


@pytest.mark.parametrize("name", CLEANED)
def test_cleaned_logs_lose_nothing(mirror, filter_table, name):
    trace = read_swf(mirror / f"{name}.swf.gz", submit_order="keep")
    filters = filters_for(name, filter_table)
    assert filters
    kept, report = clean_jobs(trace.jobs, filters, trace.header)
    assert len(kept) == len(trace.jobs) and report["removed"].sum() == 0


def test_reconstructed_raw_log_is_cleaned_back(mirror, filter_table):
    """A raw-like SDSC-SP2 log: the cleaned log plus jobs filling the job-number gaps that each
    published filter left (the archive keeps job numbers, so removed jobs leave gaps). Cleaning
    must remove exactly the injected jobs, each counted by its own filter."""
    import re

    name = "SDSC-SP2-1998-4.2-cln"
    trace = read_swf(mirror / f"{name}.swf.gz")
    jobs = trace.jobs
    present = set(jobs["job_id"].tolist())
    template = jobs.iloc[0].to_dict()
    injected, expected = [], []
    for f in filters_for(name, filter_table):
        m = re.fullmatch(r"user=(\d+) and \(job>=(\d+) and job<=(\d+)\)", f.expr)
        if m:
            user, lo, hi = map(int, m.groups())
        else:
            user, lo, hi = 999, 1, int(re.fullmatch(r"job<=(\d+)", f.expr).group(1))
        gaps = [j for j in range(lo, hi + 1) if j not in present][:40]
        for j in gaps:  # these filters look at job and user only; submit time is irrelevant
            injected.append(template | {"job_id": j, "user_id": user})
            present.add(j)
        expected.append(len(gaps))
    raw = pd.concat([jobs, pd.DataFrame(injected).astype(jobs.dtypes.to_dict())])
    raw = raw.sort_values("job_id", kind="stable").reset_index(drop=True)
    kept, report = clean_jobs(raw, filters_for(name, filter_table), trace.header)
    assert report["removed"].tolist() == expected and min(expected) > 0
    assert kept["job_id"].tolist() == jobs.sort_values("job_id")["job_id"].tolist()
