"""Paper settings files against their schemas (issue 25, item 3): every ``config/papers/*.yaml``
has a schema in ``workflow/schemas/papers/``; unknown keys, mistyped values and values outside a
fixed set are refused with one line naming the file, the line and the key; ``--config papers``
overrides are checked against the same schemas; ``config/README.md`` documents every key."""

from __future__ import annotations

import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml

from schedlab.errors import ConfigError
from schedlab.pipeline.config import (
    check_config,
    check_paper_configs,
    check_paper_file,
    check_paper_overrides,
    paper_schema,
)

REPO = Path(__file__).resolve().parents[2]
PAPERS = REPO / "config" / "papers"
SCHEMAS = REPO / "workflow" / "schemas" / "papers"
FILES = sorted(p.stem for p in PAPERS.glob("*.yaml"))


def test_every_paper_file_has_a_valid_schema_and_passes_it():
    assert FILES and sorted(p.name.removesuffix(".schema.yaml") for p in SCHEMAS.glob("*.yaml")) \
        == FILES
    for name in FILES:
        schema = paper_schema(name, SCHEMAS)
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["additionalProperties"] is False, name
        check_paper_file(PAPERS / f"{name}.yaml", schema)
    check_paper_configs(PAPERS, SCHEMAS)


@pytest.fixture
def papers(tmp_path):
    d = tmp_path / "papers"
    shutil.copytree(PAPERS, d)
    return d


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def line_of(path: Path, needle: str) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if needle in ln)


@pytest.mark.parametrize(("name", "old", "new", "message"), [
    # an unknown key at the top level and nested, with the closest known key
    ("perkovic2000", "sweep_seeds: 1", "sweep_seed: 1",
     "top level: unknown key 'sweep_seed' (did you mean 'sweep_seeds'?)"),
    ("tang2013", "  qd_round_min: 100", "  qd_round_mins: 100",
     "tuning: unknown key 'qd_round_mins' (did you mean 'qd_round_min'?)"),
    # a value outside the set the code accepts
    ("tang2013", "fair_start: {runtime: estimate,", "fair_start: {runtime: estimated,",
     "fair_start.runtime: 'estimated' is not one of ['estimate', 'actual']"),
    ("schroeder2004", "slowdown: response", "slowdown: service",
     "slowdown: 'service' is not one of ['response', 'wait']"),
    # a mistyped value
    ("cirne2001_sa", "generator_check_jobs: 20000", "generator_check_jobs: many",
     "generator_check_jobs: 'many' is not of type 'integer'"),
    # a reading with a key the experiment does not know
    ("perkovic2000", "no_runtime_cut: {machine: 430, runtime_cut: false}",
     "no_runtime_cut: {machine: 430, runtime_cuts: false}",
     "attribution.readings.no_runtime_cut: unknown key 'runtime_cuts' (did you mean "
     "'runtime_cut'?)"),
])
def test_a_bad_paper_file_is_one_line_naming_file_line_and_key(papers, name, old, new, message):
    path = papers / f"{name}.yaml"
    edit(path, old, new)
    with pytest.raises(ConfigError) as e:
        check_paper_configs(papers, SCHEMAS)
    text = str(e.value)
    assert "\n" not in text
    assert text == f"{path} line {line_of(path, new)}: {message}"


def test_duplicate_keys_and_missing_schemas_are_refused(papers, tmp_path):
    path = papers / "perkovic2000.yaml"
    path.write_text(path.read_text() + "\nsweep_seeds: 2\n")
    with pytest.raises(ConfigError, match=r"perkovic2000.yaml: duplicate key 'sweep_seeds' on line"):
        check_paper_configs(papers, SCHEMAS)
    path.write_text((PAPERS / "perkovic2000.yaml").read_text())
    (papers / "newpaper2030.yaml").write_text("trace: x\n")
    with pytest.raises(ConfigError, match=r"config/papers/newpaper2030.yaml: no schema "):
        check_paper_configs(papers, SCHEMAS)


def test_a_custom_cirne_sa_file_is_checked_too(tmp_path):
    custom = tmp_path / "my_sa.yaml"
    custom.write_text((PAPERS / "cirne2001_sa.yaml").read_text().replace("sa_version: cb",
                                                                          "sa_version: cg"))
    with pytest.raises(ConfigError, match=r"my_sa.yaml line \d+: sa_version: 'cg' is not one of"):
        check_paper_configs(PAPERS, SCHEMAS, extra={"cirne2001_sa": custom})
    base = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    with pytest.raises(ConfigError, match=r"my_sa.yaml line \d+: sa_version"):
        check_config(base | {"cirne2001_sa": str(custom)},
                     REPO / "workflow" / "schemas" / "config.schema.yaml", PAPERS)


@pytest.mark.parametrize(("overrides", "message"), [
    ({"tang2013": {"fair_start": {"runtime": "estimat"}}},
     "config papers.tang2013.fair_start.runtime: 'estimat' is not one of ['estimate', 'actual']"),
    ({"perkovic2000": {"paper_setting": {"seedz": 3}}},
     "config papers.perkovic2000.paper_setting: unknown key 'seedz' (did you mean 'seeds'?)"),
    ({"perkovic2000": {"max_jobs": "all"}},
     "config papers.perkovic2000.max_jobs: 'all' is not of type 'integer', 'null'"),
    ({"talby2005": {"quick": "maybe"}},
     "config papers.talby2005.quick: 'maybe' is not of type 'boolean'"),
    # a study's months are set from study_months by the study (with_log), never by a setting
    ({"talby2005": {"max_months": 3}},
     "config papers.talby2005: unknown key 'max_months' (did you mean 'min_month_jobs'?); known "
     f"keys are those of {PAPERS}/talby2005.yaml and quick, scale"),
    ({"cirne2001": {"single_targt": {}}},
     "config papers.cirne2001: unknown key 'single_targt' (did you mean 'single_target'?); known "
     f"keys are those of {PAPERS}/cirne2001.yaml and quick, scale"),
])
def test_overrides_are_checked_against_the_paper_schema(overrides, message):
    with pytest.raises(ConfigError) as e:
        check_paper_overrides(overrides, PAPERS, SCHEMAS)
    assert str(e.value) == message


def test_overrides_text_is_coerced_and_partial_mappings_pass():
    overrides = {"tang2013": {"timing_jobs": "300", "quick": "true"},
                 "perkovic2000": {"max_jobs": None, "paper_setting": {"seeds": 5}},
                 "cirne2001": {"single_target": {"experiments": 100}, "models": {"tolerance": 0.2}}}
    check_paper_overrides(overrides, PAPERS, SCHEMAS)
    assert overrides["tang2013"] == {"timing_jobs": 300, "quick": True}



def test_cirne_counts_given_on_the_command_line_resolve_as_integers():
    """``--config 'papers={cirne2001: {single_target: {experiments: 30000}}}'`` reaches the
    settings as text ("30000": Snakemake's parser); the schema makes it the integer the settings
    require (as a number it became 30000.0, refused as "not a positive integer")."""
    from schedlab.papers import cirne2001 as C

    overrides = {"cirne2001": {"single_target": {"experiments": "30000",
                                                 "targets_per_workload": "300"}}}
    check_paper_overrides(overrides, PAPERS, SCHEMAS)
    st = overrides["cirne2001"]["single_target"]
    assert st == {"experiments": 30000, "targets_per_workload": 300}
    assert all(type(v) is int for v in st.values())
    raw = yaml.safe_load((PAPERS / "cirne2001_sa.yaml").read_text())
    s = C.resolve_settings(raw, overrides={"single_target": st})
    assert (s.single_target["experiments"], s.n_workloads) == (30000, 100)

def schema_keys(schema: dict, prefix: str = "") -> list[str]:
    out = []
    for k, sub in schema.get("properties", {}).items():
        out.append(prefix + k)
        if sub.get("type") == "object" and "properties" in sub:
            out += schema_keys(sub, f"{prefix}{k}.")
    return out


def test_config_readme_documents_every_key():
    readme = (REPO / "config" / "README.md").read_text()
    for name in FILES:
        assert f"`config/papers/{name}.yaml`" in readme, name
        missing = [k for k in schema_keys(paper_schema(name, SCHEMAS)) if f"`{k}`" not in readme]
        assert not missing, (name, missing[:5])
