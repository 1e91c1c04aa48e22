"""The workflow as a whole (issue 10, parts 4 and 6).

* The profiles in ``workflow/profiles`` give snakemake the settings and config they document, read
  through snakemake's own command-line parser: ``quick``/``full`` set their config flags (and keep
  them when ``--config`` adds keys), ``slurm`` runs on the SLURM executor with no account or
  partition hard-coded, and every merged config passes the config schema.
* ``snakemake -n`` over the whole default DAG and ``snakemake --lint`` succeed, in a scratch copy
  of the workflow.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import yaml
from snakemake.cli import parse_args, parse_config
from snakemake.exceptions import WorkflowError
from snakemake.utils import update_config, validate
from test_reliability import copy_workflow, snakemake

from schedlab.traces.registry import load_registry

PROFILES = ("default", "quick", "slurm", "full")


def profile_args(repo, profiles: tuple[str, ...], *argv: str):
    """snakemake's parsed command line: ``--profile`` for each named profile, then ``argv``."""
    flags = [a for name in profiles for a in ("--profile", str(repo / "workflow/profiles" / name))]
    _, parsed = parse_args([*flags, *argv])
    return parsed


def merged_config(repo, parsed) -> dict:
    """config/config.yaml, then the profile's config files, then --config; validated (defaults set)."""
    config = yaml.safe_load((repo / "config/config.yaml").read_text())
    for path in parsed.configfile or ():
        update_config(config, yaml.safe_load(Path(path).read_text()))
    update_config(config, parse_config(parsed.config))
    validate(config, str(repo / "workflow/schemas/config.schema.yaml"))
    return config


def resources(parsed) -> dict[str, str]:
    return dict(a.split("=", 1) for a in parsed.default_resources.args)


@pytest.mark.parametrize("name", PROFILES)
def test_profile_files_are_yaml_mappings(repo, name):
    data = yaml.safe_load((repo / f"workflow/profiles/{name}/config.yaml").read_text())
    assert isinstance(data, dict) and data
    res = data.get("default-resources", {})
    assert {"mem_mb", "runtime"} <= set(res), f"{name}: default mem_mb and runtime"
    assert not {"slurm_account", "slurm_partition"} & set(res), f"{name}: site settings hard-coded"


def test_default_profile_is_local_on_all_cores(repo):
    p = profile_args(repo, ("default",))
    assert p.executor in (None, "local")
    assert p.cores == os.cpu_count()
    assert p.keep_going and p.rerun_incomplete
    assert resources(p)["runtime"] == "60"
    config = merged_config(repo, p)
    assert config["quick"] is False and config["full"] is False


def test_quick_profile_sets_quick_and_two_small_traces(repo):
    p = profile_args(repo, ("quick",))
    assert p.executor in (None, "local")
    config = merged_config(repo, p)
    assert config["quick"] is True and config["full"] is False
    assert config["traces"] == ["KTH-SP2-1996-2.1-cln", "lublin_256"]
    registry = load_registry(repo / "config/traces.yaml")
    assert all(registry[t].jobs <= 30_000 for t in config["traces"])
    # --config on the command line adds to the profile's config instead of replacing it
    config = merged_config(repo, profile_args(repo, ("quick",), "--config", "traces=all"))
    assert config["quick"] is True and config["traces"] == "all"


def test_slurm_profile_takes_account_and_partition_from_the_command_line(repo):
    p = profile_args(repo, ("slurm",))
    assert p.executor == "slurm"
    assert not {"slurm_account", "slurm_partition"} & set(resources(p))
    p = profile_args(repo, ("slurm",), "--default-resources", "slurm_account=proj1",
                     "slurm_partition=short", "mem_mb=2000", "runtime=60",
                     "--slurm-status-command", "squeue")
    assert p.executor == "slurm" and p.slurm_status_command == "squeue"
    assert resources(p) | {"tmpdir": "x"} == {"slurm_account": "proj1", "slurm_partition": "short",
                                              "mem_mb": "2000", "runtime": "60", "tmpdir": "x"}
    text = (repo / "workflow/profiles/slurm/config.yaml").read_text()
    assert "--slurm-status-command squeue" in text, "documented for sites without accounting"


def test_slurm_group_jobs_ask_for_the_one_cpu_they_use(repo):
    """The SLURM plugin runs a group job's members one at a time (its jobstep executor gets
    --jobs 1), so the profile's cores (what Snakemake sizes a group job's CPUs by) is 1, also
    under the full profile; the quick profile's ``cores: all`` would replace it (e2e.sh passes
    --cores 1 on the command line)."""
    assert profile_args(repo, ("slurm",)).cores == 1
    assert profile_args(repo, ("slurm", "full")).cores == 1
    assert profile_args(repo, ("slurm", "quick")).cores != 1
    assert profile_args(repo, ("slurm", "quick"), "--cores", "1").cores == 1
    e2e = (repo / "ci/slurm/e2e.sh").read_text()
    assert "--latency-wait 10 --cores 1" in e2e


def test_full_profile_layers_paper_scale_over_slurm(repo):
    p = profile_args(repo, ("slurm", "full"))
    assert p.executor == "slurm" and p.keep_going
    assert resources(p)["runtime"] == "240"
    config = merged_config(repo, p)
    assert config["full"] is True and config["quick"] is False


def test_schema_rejects_non_boolean_size_flags(repo):
    config = yaml.safe_load((repo / "config/config.yaml").read_text()) | {"quick": "yes"}
    with pytest.raises(WorkflowError):
        validate(config, str(repo / "workflow/schemas/config.schema.yaml"))


@pytest.fixture(scope="module")
def workflow_copy(repo, mirror, tmp_path_factory):
    return copy_workflow(repo, tmp_path_factory.mktemp("dag") / "wf")


@pytest.mark.slow
def test_whole_default_dag_dry_run(workflow_copy):
    r = snakemake(workflow_copy, "--profile", "workflow/profiles/default", "-n")
    out = r.stdout + r.stderr
    assert "Job stats:" in out and "rule all:" in out and "parse_trace" in out


@pytest.mark.slow
def test_lint_is_clean(workflow_copy):
    r = snakemake(workflow_copy, "--lint", "--cores", "1")
    assert "Lints for" not in r.stdout + r.stderr


@pytest.mark.slow
def test_quick_flag_accepts_lower_case_true(workflow_copy):
    r = snakemake(workflow_copy, "-n", "--cores", "1", "tang2013", "--config", "quick=true")
    out = r.stdout + r.stderr
    # quick: Tang's quick grid (BF {1, 0.5} x W {1, 4} + 3 adaptive schemes) on each of its two logs,
    # Table 4 and the search cap on each, two SP2 attribution selections and the SP2 base readings
    assert any(line.split()[:2] == ["tang2013_point", "21"] for line in out.splitlines()), out[-2000:]


@pytest.mark.slow
def test_study_traces_choose_the_logs_of_the_per_log_studies(workflow_copy):
    def studied(*config: str) -> set[str]:
        r = snakemake(workflow_copy, "-n", "--cores", "1", "studies", *config)
        return set(re.findall(r"results/studies/([^/\s]+)/", r.stdout + r.stderr))

    # default: the logs marked `study: true` that are present (HPC2N, in the mirror)
    assert studied() == {"HPC2N-2002-2.2-cln"}
    # independent of `traces`, the logs of the summary and cleaning targets
    assert studied("--config", "traces=[lublin_256]") == {"HPC2N-2002-2.2-cln"}
    # a list studies exactly those logs, marked or not
    assert studied("--config", "study_traces=[lublin_256]") == {"lublin_256"}


@pytest.mark.slow
def test_a_new_log_marked_study_gets_every_papers_study_with_no_code(repo, tmp_path):
    """One registry entry with ``study: true`` (a local file): the DAG of target ``studies`` holds
    each paper's point and assembly rules of its study (schedlab.papers.study_pairs)."""
    from scratch_workflow import scratch_workflow

    src = tmp_path / "MySite-2024-1.swf"
    src.write_text("; MaxProcs: 32\n; UnixStartTime: 1000000000\n" + "".join(
        f"{i} {i * 100} 0 {50 + i} 4 -1 -1 4 600 -1 1 {i % 4} 1 -1 1 -1 -1 -1\n"
        for i in range(1, 41)))
    wd = scratch_workflow(repo, tmp_path, {"MySite-2024-1": {
        "file": "MySite-2024-1.swf", "path": str(src), "kind": "raw", "machine_size": 32,
        "description": "a new site's log", "study": True}})
    r = snakemake(wd, "-n", "--cores", "1", "studies", "--config", "quick=true")
    out = r.stdout + r.stderr
    stats = {line.split()[0] for line in out.splitlines() if line.startswith("study_")}
    from schedlab.papers import PAPERS

    for paper in PAPERS:
        assert {f"study_MySite_2024_1_{paper}_point", f"study_MySite_2024_1_{paper}_assemble"} \
            <= stats, sorted(stats)
        assert f"results/studies/MySite-2024-1/{paper}/done.json" in out


@pytest.mark.slow
def test_the_configs_sim_block_reaches_the_baseline_engine(repo, tmp_path):
    """config ``sim:`` travels as the rule's param to the engine of a baseline run (sim.smk,
    scripts/simulate.py ``simulate_under``): the run's recorded engine settings are the config's,
    the default when the block is empty (schedlab.sim.options.DEFAULT_TIE_RULE)."""
    from scratch_workflow import scratch_workflow

    from schedlab.io import read_parquet
    from schedlab.sim.options import DEFAULT_TIE_RULE

    src = tmp_path / "Tie-2024-1.swf"
    src.write_text("; MaxProcs: 8\n" + "".join(
        f"{i} {i * 50} 0 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n" for i in range(1, 9)))
    wd = scratch_workflow(repo, tmp_path, {"Tie-2024-1": {
        "file": "Tie-2024-1.swf", "path": str(src), "kind": "raw", "machine_size": 8,
        "description": "same-time completions and arrivals"}})
    out = "results/sim/Tie-2024-1/easy/jobs.parquet"
    rules = {}
    for rule in ("completions_first", "arrivals_first", None):
        config = ["--config", f"sim={{tie_rule: {rule}}}"] if rule else []
        snakemake(wd, "--cores", "1", "--forceall", out, *config)
        rules[rule] = read_parquet(wd / out)[1]["settings"]["tie_rule"]
    assert rules == {"completions_first": "completions_first", "arrivals_first": "arrivals_first",
                     None: DEFAULT_TIE_RULE}
