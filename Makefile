# Two entry points for a fresh machine (see README): `make reproduce` and `make test`.
# Both create .venv, install the exact versions in requirements.lock plus schedlab itself, then run.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.schedlab-installed
PROFILE ?= workflow/profiles/default
SNAKEMAKE_ARGS ?=

.PHONY: setup reproduce reproduce-paper quick test lint mutation lock bench clean

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -r requirements.lock
	$(BIN)/python -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
	# compile conservative backfilling's kernels into numba's cache now (~2.5 s), not in the
	# first simulation a user runs (schedlab.sim.cbf_kernel.warm)
	$(BIN)/python -c "import schedlab.sim.cbf_kernel as k; k.warm()"
	touch $@

setup: $(STAMP)

# Prints its wall-clock time at the end (the default target's budget is 20 minutes on 2 cores).
# First, a lock left by a killed run (no Snakemake process working here) is removed, saying so.
reproduce: $(STAMP)
	@$(BIN)/python -m schedlab.pipeline.locks; start=$$(date +%s); $(BIN)/snakemake --profile $(PROFILE) $(SNAKEMAKE_ARGS); rc=$$?; \
	  echo "make reproduce: $$(( $$(date +%s) - start )) s wall (exit $$rc)"; exit $$rc

# Every paper at its published size (the `paper` scale of each config/papers/*.yaml, through the full
# profile layered on the default one). Not yet affordable on 2 cores (docs/engine.md, issue 34); on a
# cluster, layer workflow/profiles/full after workflow/profiles/slurm instead (docs/slurm.md).
# Writes under results/paper-scale/ (the default's results/ untouched; logs, models and studies
# shared); the report results/report/index.html then leads with this scale, the default's beside it
# (Scale sensitivity; results/scale_sensitivity.parquet, `schedlab scale-sensitivity`).
reproduce-paper: $(STAMP)
	@$(BIN)/python -m schedlab.pipeline.locks; start=$$(date +%s); $(BIN)/snakemake --profile $(PROFILE) --profile workflow/profiles/full $(SNAKEMAKE_ARGS); rc=$$?; \
	  echo "make reproduce-paper: $$(( $$(date +%s) - start )) s wall (exit $$rc)"; exit $$rc

quick: $(STAMP)
	@$(BIN)/python -m schedlab.pipeline.locks; start=$$(date +%s); $(BIN)/snakemake --profile workflow/profiles/quick $(SNAKEMAKE_ARGS); rc=$$?; \
	  echo "make quick: $$(( $$(date +%s) - start )) s wall (exit $$rc)"; exit $$rc

lint: $(STAMP)
	$(BIN)/ruff check src scripts tests benchmarks ci
	$(BIN)/snakemake --lint --cores 1 >/dev/null

# One BLAS thread per process: the machine has 2 cores and tests run many small linear-algebra calls.
test: $(STAMP)
	$(BIN)/ruff check src scripts tests benchmarks ci
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 $(BIN)/python -m pytest -q

# Every claim check made to always hold and then always fail: the claims tests must kill each
# mutant (ci/mutation_check.py; MUTATION_ARGS="--paper talby2005" for one paper).
mutation: $(STAMP)
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 $(BIN)/python ci/mutation_check.py $(MUTATION_ARGS)

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_swf.py
	$(BIN)/python benchmarks/bench_sim.py

# Regenerate the lock file from a fresh resolve of pyproject.toml (maintainers only).
lock:
	rm -rf .lockenv && $(PYTHON) -m venv .lockenv
	.lockenv/bin/python -m pip install -q --upgrade pip setuptools wheel
	.lockenv/bin/python -m pip install -q ".[test,slurm]"
	.lockenv/bin/python -m pip freeze --exclude schedlab | sort -f > requirements.lock
	.lockenv/bin/python -m pip freeze --all | grep -iE '^(pip|setuptools|wheel)==' | sort -f >> requirements.lock
	rm -rf .lockenv

clean:
	rm -rf $(VENV) .snakemake
