"""SWF reading/writing: lossless round trip on every real log, header parsing, every bad-input case."""

from __future__ import annotations

import csv
import gzip

import numpy as np
import pandas as pd
import pytest

from schedlab.errors import SWFFormatError
from schedlab.traces.swf import (
    SWF_COLUMNS,
    SWFHeader,
    format_swf,
    parse_swf_text,
    read_swf,
    write_swf,
)

HEADER = """; Version: 2.2
; Computer: Test SP2
; MaxJobs: 3
; UnixStartTime: 835823160
; TimeZoneString: US/Eastern
; MaxNodes: 338 (batch partition; 512 total)
; MaxProcs: 338
; Note: a note
;       that continues
"""
JOBS = """    1        0 588530    937  306 142.00    -1   -1  35100    -1  1  97  -1 307  3 -1 -1 -1
    2   164472 356587     75   17   2.00    -1   -1    300    -1  1  81  -1 195  3 -1 -1 -1
    3   197154 459987  35268  306  32792    -1   -1  35100    -1  0  97  -1 307  3 -1 -1 -1
"""


def write(tmp_path, text, name="t.swf"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_columns_types_and_header(tmp_path):
    tr = read_swf(write(tmp_path, HEADER + JOBS))
    assert list(tr.jobs.columns) == list(SWF_COLUMNS)
    assert tr.n_jobs == 3
    assert tr.jobs["job_id"].dtype == np.int64
    assert tr.jobs["avg_cpu_time"].dtype == np.float64
    assert tr.jobs["avg_cpu_time"].tolist() == [142.0, 2.0, 32792.0]
    assert tr.jobs["req_procs"].tolist() == [-1, -1, -1]  # -1 kept as in SWF
    h = tr.header
    assert h.max_nodes == 338 and h.max_procs == 338 and h.machine_size == 338
    assert h.fields["MaxNodes"] == "338 (batch partition; 512 total)"
    assert h.unix_start_time == 835823160
    assert h.time_zone_string == "US/Eastern"
    assert h.notes == ["a note\nthat continues"]


def test_machine_size_falls_back_to_max_nodes():
    h = SWFHeader.parse(["; MaxNodes: 256"])
    assert h.max_procs is None and h.machine_size == 256


def test_header_roundtrip_via_dict(tmp_path):
    tr = read_swf(write(tmp_path, HEADER + JOBS))
    d = tr.header.to_dict()
    assert d["MaxProcs"] == 338 and d["TimeZoneString"] == "US/Eastern"
    assert SWFHeader.from_dict(d) == tr.header


def test_write_read_roundtrip_plain_and_gz(tmp_path):
    tr = read_swf(write(tmp_path, HEADER + JOBS))
    for name in ("out.swf", "out.swf.gz"):
        write_swf(tmp_path / name, tr)
        back = read_swf(tmp_path / name)
        pd.testing.assert_frame_equal(back.jobs, tr.jobs)
        assert back.header.lines == tr.header.lines
    # gzip output is byte-reproducible
    first = (tmp_path / "out.swf.gz").read_bytes()
    write_swf(tmp_path / "out.swf.gz", tr)
    assert (tmp_path / "out.swf.gz").read_bytes() == first


def _manifest(mirror):
    with open(mirror / "MANIFEST.tsv") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def test_roundtrip_every_mirrored_log(mirror):
    rows = _manifest(mirror)
    assert len(rows) >= 16
    for row in rows:
        tr = read_swf(mirror / row["file"], submit_order="keep")
        assert tr.n_jobs == int(row["jobs"]), row["file"]
        assert tr.header.machine_size == int(row["max_procs"]), row["file"]
        back = parse_swf_text(format_swf(tr), "roundtrip", submit_order="keep")
        pd.testing.assert_frame_equal(back.jobs, tr.jobs, obj=row["file"])
        assert back.header.lines == tr.header.lines


def test_real_header_with_annotated_max_nodes(mirror):
    tr = read_swf(mirror / "CTC-SP2-1996-3.1-cln.swf.gz")
    assert tr.header.max_nodes == 338
    assert any("THIS IS A CLEANED VERSION" in n for n in tr.header.notes)


# --- bad input: each case names file, line and text -----------------------------------------------

@pytest.mark.parametrize(
    ("body", "line", "reason"),
    [
        (JOBS + "    4   200000 1 2 3\n", 13, "expected 18 fields, found 5"),
        (JOBS.replace("  35268  306", "  35268  x06"), 12, "non-numeric field 'x06'"),
        (JOBS.replace("  35268  306", "  35268.5  306"), 12, "non-integer value in field run_time"),
        (JOBS.replace("197154", "100000"), 12, "submit time goes backwards"),
    ],
)
def test_bad_lines_are_named(tmp_path, body, line, reason):
    p = write(tmp_path, HEADER + body)
    with pytest.raises(SWFFormatError) as ei:
        read_swf(p)
    e = ei.value
    assert e.line == line
    assert reason in str(e)
    assert str(p) in str(e)
    assert f":{line}:" in str(e)
    if "backwards" not in reason:
        assert e.text is not None and e.text.strip() in HEADER + body


def test_lenient_skips_and_counts(tmp_path):
    body = JOBS + "garbage line\n" + "    5 300000 1 1 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 zz\n"
    body += "    6 300001 1 1 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"
    tr = read_swf(write(tmp_path, HEADER + body), lenient=True)
    assert tr.jobs["job_id"].tolist() == [1, 2, 3, 6]
    assert [s[0] for s in tr.skipped] == [13, 14]
    assert "expected 18 fields" in tr.skipped[0][1] and "non-numeric" in tr.skipped[1][1]


def test_submit_order_options(tmp_path):
    p = write(tmp_path, HEADER + JOBS.replace("197154", "100000"))
    assert read_swf(p, submit_order="keep").jobs["job_id"].tolist() == [1, 2, 3]
    assert read_swf(p, submit_order="sort").jobs["job_id"].tolist() == [1, 3, 2]


def test_empty_file(tmp_path):
    with pytest.raises(SWFFormatError, match="empty file"):
        read_swf(write(tmp_path, ""))


def test_no_job_lines(tmp_path):
    with pytest.raises(SWFFormatError, match="no job lines"):
        read_swf(write(tmp_path, HEADER))


def test_truncated_gzip(tmp_path):
    data = gzip.compress((HEADER + JOBS * 50).encode())
    p = tmp_path / "t.swf.gz"
    p.write_bytes(data[: len(data) // 2])
    with pytest.raises(SWFFormatError, match="truncated gzip") as ei:
        read_swf(p)
    assert str(p) in str(ei.value)


def test_missing_file(tmp_path):
    with pytest.raises(SWFFormatError, match="cannot read"):
        read_swf(tmp_path / "nope.swf")
