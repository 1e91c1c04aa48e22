"""SWF read in blocks (bounded inputs): the same trace, or the same error, as a reading of
the whole file, whatever the block size; and memory flat in the number of jobs."""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

import pandas as pd
import pytest

from schedlab.errors import SWFFormatError
from schedlab.io import read_parquet
from schedlab.traces.swf import header_metadata, parse_swf_text, read_swf

OPTIONS = [dict(lenient=lenient, submit_order=order, renumber_duplicates=renumber)
           for lenient in (False, True) for order in ("error", "keep", "sort")
           for renumber in (False, True)]
BAD_TOKENS = ["nan", "NA", "inf", "-inf", "x06", "1e30", "9223372036854775807", "35.5", "-5",
              "1_000", "N/A", "0x10", "+7"]
HEADERS = ["; MaxProcs: 8", "; UnixStartTime: 0", "; Note: a note", ";   continued",
           "; Computer: café", "; MaxRuntime: N/A"]


def swf_texts(n: int, seed: int = 36) -> list[str]:
    """``n`` small SWF files mixing good job lines with every kind of bad one (each kind in any
    block): wrong field counts, bad tokens, repeated ids, submit times going back, comments and
    blank lines between jobs, bad header fields, CRLF line ends."""
    rng = random.Random(seed)
    texts = []
    for _ in range(n):
        lines = [rng.choice(HEADERS) for _ in range(rng.randint(0, 3))]
        if rng.random() < 0.08:
            lines.append(rng.choice(["; MaxNodes: 12.5", "; MaxProcs: 1e23"]))
        t = 0
        for j in range(rng.randint(0, 25)):
            t += rng.randint(-5 if rng.random() < 0.05 else 0, 100)
            job = rng.randint(1, j + 1) if rng.random() < 0.05 else j + 1
            f = [str(job), str(t), "0", str(rng.randint(1, 500)), rng.choice(["1", "4", "-1"]),
                 rng.choice(["-1", "12.5"]), "-1", "4", "600", "-1", "1", str(rng.randint(1, 5)),
                 "1", "-1", "1", "-1", "-1", "-1"]
            r = rng.random()
            if r < 0.06:
                f[rng.randrange(18)] = rng.choice(BAD_TOKENS)
            elif r < 0.08:
                f = f[:rng.randint(1, 17)]
            elif r < 0.12:
                lines.append(rng.choice([*HEADERS, ""]))
            lines.append(" ".join(f))
        texts.append(("\r\n" if rng.random() < 0.1 else "\n").join(lines)
                     + ("\n" if rng.random() < 0.8 else ""))
    return texts


def outcome(parse, *args, **kwargs) -> tuple:
    """What ``parse(*args, **kwargs)`` gives: the trace's parts, or the error message."""
    try:
        tr = parse(*args, **kwargs)
    except SWFFormatError as e:
        return ("error", str(e))
    return ("trace", tr.jobs, tr.header.lines, tr.header.fields, tr.skipped, tr.renumbered)


def same(a: tuple, b: tuple) -> None:
    assert a[0] == b[0] and len(a) == len(b), (a[:1], b[:1], a[-1:], b[-1:])
    if a[0] == "error":
        assert a == b
        return
    pd.testing.assert_frame_equal(a[1], b[1], check_exact=True)
    assert a[2:] == b[2:]


def test_parse_in_blocks_equals_parse_whole():
    texts = swf_texts(40)
    errors = 0
    for k, text in enumerate(texts):
        for opts in OPTIONS:
            whole = outcome(parse_swf_text, text, "t.swf", **opts)
            errors += whole[0] == "error"
            lines = 1 + k % 3  # a block of one, two or three lines
            same(outcome(parse_swf_text, text, "t.swf", lines_per_block=lines, **opts), whole)
    assert 0 < errors < len(texts) * len(OPTIONS)  # both outcomes were compared


def _in_blocks(path: Path, out: Path, **opts) -> object:
    """The trace of ``path`` written to parquet in blocks of 7 bytes, its job table read back."""
    from schedlab.traces.swf import parse_swf_to_parquet

    trace, _ = parse_swf_to_parquet(path, out, header_metadata, block_bytes=7, **opts)
    trace.jobs = read_parquet(out)[0]
    return trace


def test_file_in_tiny_blocks_to_parquet_equals_the_whole_text(tmp_path):
    for k, text in enumerate(swf_texts(20, seed=7)):
        path = tmp_path / f"f{k}.swf"
        encoding = "latin-1" if k % 5 == 0 else "utf-8"  # read again as Latin-1 when not UTF-8
        path.write_bytes(text.encode(encoding))
        for opts in OPTIONS[::3]:
            same(outcome(_in_blocks, path, tmp_path / "out.parquet", **opts),
                 outcome(parse_swf_text, path.read_bytes().decode(encoding), str(path), **opts))


def _parquet_vs_read(src: Path, out: Path, block_bytes: int, **opts) -> None:
    from schedlab.traces.swf import parse_swf_to_parquet

    whole = read_swf(src, **opts)
    trace, n_jobs = parse_swf_to_parquet(src, out, header_metadata, block_bytes=block_bytes,
                                         **opts)
    jobs, meta = read_parquet(out)
    pd.testing.assert_frame_equal(jobs, whole.jobs, check_exact=True)
    assert meta == header_metadata(whole) and n_jobs == whole.n_jobs
    assert (trace.skipped, trace.renumbered) == (whole.skipped, whole.renumbered)


def test_parquet_written_in_blocks_holds_the_frame_of_read_swf(tmp_path):
    from schedlab.traces.swf import parse_swf_to_parquet

    jobs = [f"{i} {t} 0 100 2 -1 -1 2 200 -1 1 {i % 3} 1 -1 1 -1 -1 -1"
            for i, t in zip([*range(1, 40), 7, 41], [*range(0, 390, 10), 5, 400], strict=True)]
    src = tmp_path / "t.swf"
    src.write_text("; MaxProcs: 8\n" + "\n".join(jobs[:20]) + "\n; Note: late comment\n"
                   + "\n".join(jobs[20:]) + "\nbad line\n")
    for opts in ({"lenient": True, "submit_order": "sort", "renumber_duplicates": True},
                 {"lenient": True, "submit_order": "keep", "renumber_duplicates": True}):
        _parquet_vs_read(src, tmp_path / "o.parquet", 97, **opts)
    with pytest.raises(SWFFormatError, match=r"t.swf:42: job id 7 already used on line 8"):
        parse_swf_to_parquet(src, tmp_path / "x.parquet", header_metadata, lenient=True,
                             block_bytes=97)
    assert not (tmp_path / "x.parquet").exists() and sorted(p.name for p in tmp_path.iterdir()) \
        == ["o.parquet", "t.swf"]


@pytest.mark.mirror
def test_a_real_log_in_blocks(mirror, tmp_path):
    _parquet_vs_read(mirror / "KTH-SP2-1996-2.1-cln.swf.gz", tmp_path / "kth.parquet", 1 << 16)


def _peak_bytes(path: Path, out: Path) -> int:
    from schedlab.traces.swf import parse_swf_to_parquet

    tracemalloc.start()
    try:
        parse_swf_to_parquet(path, out, header_metadata, block_bytes=1 << 16)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_memory_of_a_parse_is_flat_in_the_number_of_jobs(tmp_path):
    def log(n: int) -> Path:
        p = tmp_path / f"{n}.swf"
        p.write_text("; MaxProcs: 64\n" + "".join(
            f"{i} {i * 7} 3 {i % 900 + 1} 4 12.5 -1 4 1000 -1 1 {i % 97} 1 -1 1 -1 -1 -1\n"
            for i in range(1, n + 1)))
        return p

    small, big = _peak_bytes(log(10_000), tmp_path / "s.parquet"), \
        _peak_bytes(log(100_000), tmp_path / "b.parquet")
    # 90,000 more jobs: at most 40 bytes each (the ids of the repeated-id check take 16 at the
    # end); a whole-file reading holds the text, its lines and the table, some 700 bytes a job
    assert big - small < 90_000 * 40, (small, big)
