"""Trace registry validation, mirror-before-URL, checksums, lock file, real HTTP download on loopback."""

from __future__ import annotations

import functools
import gzip
import hashlib
import http.server
import threading
from pathlib import Path

import pytest
import yaml

from schedlab.errors import DownloadError, RegistryError
from schedlab.traces.download import fetch_trace
from schedlab.traces.registry import load_registry, read_lock
from schedlab.traces.swf import read_swf

SWF = (
    "; MaxProcs: 16\n; UnixStartTime: 0\n"
    + "".join(
        f"{i} {i * 10} 0 {5 + i} 4 -1 -1 4 100 -1 1 {i % 3} 1 -1 1 -1 -1 -1\n" for i in range(1, 21)
    )
)


def make_trace(dirpath: Path, name: str = "tiny.swf.gz", text: str = SWF) -> tuple[Path, str]:
    p = dirpath / name
    p.write_bytes(gzip.compress(text.encode(), mtime=0))
    return p, hashlib.sha256(p.read_bytes()).hexdigest()


def make_registry(tmp_path: Path, entries: dict) -> Path:
    cfg = tmp_path / "config"
    cfg.mkdir(exist_ok=True)
    p = cfg / "traces.yaml"
    p.write_text(yaml.safe_dump({"traces": entries}))
    return p


def entry(**kw):
    base = {"file": "tiny.swf.gz", "kind": "other", "description": "test trace",
            "url": "http://127.0.0.1:9/tiny.swf.gz"}
    return base | kw


# --- registry ------------------------------------------------------------------------------------

def test_repo_registry_lists_every_mirrored_log(repo):
    reg = load_registry(repo / "config" / "traces.yaml")
    manifest = (Path(__file__).resolve().parents[3] / "shared" / "traces" / "MANIFEST.tsv")
    for name in ("SDSC-SP2-1998-4.2-cln", "KTH-SP2-1996-2.1-cln", "CTC-SP2-1996-3.1-cln",
                 "lublin_256", "ANL-Intrepid-2009-1", "SDSC-SP2-1998-4.2"):
        assert name in reg
    assert reg["ANL-Intrepid-2009-1"].sha256 is None
    assert reg["SDSC-SP2-1998-4.2-cln"].url.endswith("/l_sdsc_sp2/SDSC-SP2-1998-4.2-cln.swf.gz")
    if manifest.exists():
        files = {line.split("\t")[0]: line.split("\t")[1] for line in manifest.read_text().splitlines()[1:]}
        by_file = {e.file: e for e in reg.entries.values()}
        for f, sha in files.items():
            assert by_file[f].sha256 == sha, f


@pytest.mark.parametrize(
    ("bad", "expect"),
    [
        ({"file": "x.txt"}, "entry 'T', field 'file'"),
        ({"sha256": "abc"}, "entry 'T', field 'sha256'"),
        ({"kind": "weird"}, "entry 'T', field 'kind'"),
        ({"machine_size": 0}, "entry 'T', field 'machine_size'"),
        ({"colour": "red"}, "entry 'T'"),
    ],
)
def test_bad_registry_entry_named(tmp_path, bad, expect):
    reg = make_registry(tmp_path, {"T": entry(**bad)})
    with pytest.raises(RegistryError) as ei:
        load_registry(reg)
    assert expect in str(ei.value)
    assert str(reg) in str(ei.value)


def test_entry_needs_url_or_path(tmp_path):
    e = entry()
    del e["url"]
    with pytest.raises(RegistryError, match="entry 'T'"):
        load_registry(make_registry(tmp_path, {"T": e}))


def test_a_study_log_needs_its_machine_size(tmp_path):
    with pytest.raises(RegistryError, match="entry 'T': 'machine_size' is a required property"):
        load_registry(make_registry(tmp_path, {"T": entry(study=True)}))
    assert load_registry(make_registry(tmp_path, {"T": entry(study=True, machine_size=8)}))["T"].study


def test_unknown_trace_name(tmp_path):
    reg = load_registry(make_registry(tmp_path, {"T": entry()}))
    with pytest.raises(RegistryError, match="no trace named 'U'"):
        reg["U"]


# --- download ------------------------------------------------------------------------------------

def test_mirror_used_before_url(tmp_path):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    _, sha = make_trace(mirror)
    # The URL points at a closed port: if it were tried, the fetch would fail.
    reg = load_registry(make_registry(tmp_path, {"T": entry(sha256=sha)}))
    dest = tmp_path / "out" / "T.swf.gz"
    assert fetch_trace(reg, "T", dest, mirror=mirror, retries=0) == sha
    assert read_swf(dest).n_jobs == 20


def test_checksum_mismatch_keeps_nothing(tmp_path):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    make_trace(mirror)
    wrong = "0" * 64
    reg = load_registry(make_registry(tmp_path, {"T": entry(sha256=wrong)}))
    dest = tmp_path / "out" / "T.swf.gz"
    with pytest.raises(DownloadError) as ei:
        fetch_trace(reg, "T", dest, mirror=mirror, retries=0)
    msg = str(ei.value)
    assert "sha256 mismatch" in msg and wrong in msg and "tiny.swf.gz" in msg
    assert not dest.exists()
    assert list(dest.parent.iterdir()) == []  # no temp file left behind


def test_no_network_no_mirror_fails_fast_with_advice(tmp_path):
    # an unresolvable host: fails at once, no retries, tells how to set a mirror
    reg = load_registry(make_registry(
        tmp_path, {"T": entry(url="http://no-such-host.invalid/tiny.swf.gz")}))
    dest = tmp_path / "T.swf.gz"
    with pytest.raises(DownloadError) as ei:
        fetch_trace(reg, "T", dest, retries=3, backoff=30)  # backoff would make a retry visible
    assert "SCHEDLAB_TRACE_MIRROR" in str(ei.value)
    assert not dest.exists()


class _Server:
    """A static file server on 127.0.0.1 (ephemeral port), optionally lying about the length."""

    def __init__(self, root: Path, truncate: bool = False):
        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def copyfile(self, source, outputfile):
                data = source.read()
                outputfile.write(data[: len(data) // 2] if truncate else data)

        handler = functools.partial(Handler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


def test_url_download_records_lock_then_verifies(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the project: the registry's lock file is beside it
    served = tmp_path / "served"
    served.mkdir()
    _, sha = make_trace(served)
    with _Server(served) as srv:
        reg_path = make_registry(tmp_path, {"T": entry(url=f"{srv.url}/tiny.swf.gz", sha256=None)})
        reg = load_registry(reg_path)
        dest = tmp_path / "res" / "T.swf.gz"
        assert fetch_trace(reg, "T", dest, retries=0) == sha
        assert read_lock(reg.lock_path) == {"T": sha}
        # the served file changes: the lock now catches it
        make_trace(served, text=SWF.replace("; MaxProcs: 16", "; MaxProcs: 32"))
        dest.unlink()
        with pytest.raises(DownloadError, match="sha256 mismatch"):
            fetch_trace(load_registry(reg_path), "T", dest, retries=0)
        assert not dest.exists()


def test_truncated_url_download_keeps_nothing(tmp_path):
    served = tmp_path / "served"
    served.mkdir()
    _, sha = make_trace(served, text=SWF * 20)
    with _Server(served, truncate=True) as srv:
        reg = load_registry(make_registry(tmp_path, {"T": entry(url=f"{srv.url}/tiny.swf.gz",
                                                                sha256=sha)}))
        dest = tmp_path / "res" / "T.swf.gz"
        with pytest.raises(DownloadError, match="truncated"):
            fetch_trace(reg, "T", dest, retries=0)
        assert not dest.exists()
        assert list(dest.parent.iterdir()) == []


def test_plain_swf_local_path_is_stored_gzipped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the project: the registry's lock file is beside it
    src = tmp_path / "mine.swf"
    src.write_text(SWF)
    sha = hashlib.sha256(src.read_bytes()).hexdigest()
    e = {"file": "mine.swf", "path": str(src), "kind": "raw", "description": "new site log"}
    reg = load_registry(make_registry(tmp_path, {"Mine": e}))
    dest = tmp_path / "res" / "Mine.swf.gz"
    assert fetch_trace(reg, "Mine", dest) == sha
    assert dest.read_bytes()[:2] == b"\x1f\x8b"
    assert read_swf(dest).n_jobs == 20
    assert read_lock(reg.lock_path) == {"Mine": sha}
