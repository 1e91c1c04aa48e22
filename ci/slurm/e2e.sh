#!/usr/bin/env bash
# End-to-end test of the pipeline on a real (single-node, localhost) SLURM cluster.
#
#   1. starts SLURM (start-local-slurm.sh: installs Debian's packages if missing), after setting a
#      trap that ALWAYS stops the daemons it started, by PID (stop-local-slurm.sh), even on failure;
#   2. runs the quick profile's DAG locally, in a scratch copy of the workflow (the whole DAG: every
#      paper's scorecard and figures, the merged scorecard and the report must be built);
#   3. runs the same DAG through `snakemake --executor slurm` (profiles slurm + quick, partition on
#      the command line, `--slurm-status-command squeue` because this cluster has no accounting) in
#      a second scratch copy;
#   4. checks every job was a real SLURM batch job of this run (squeue --states=all by run ID,
#      COMPLETED, and listed in the jobcomp file) and that results/ is byte-identical to the local run;
#   5. adds a registry entry pointing at a corrupt trace and checks that building it on the cluster
#      fails, naming the failed rule (parse_trace) and leaving no output.
# Prints one summary line: "slurm e2e: PASS ..." or "slurm e2e: FAIL ...", exit status 0 / 1.
#
# Needs root, Debian 12, the project's .venv (make setup) and the real logs
# (SCHEDLAB_TRACE_MIRROR, default ../shared/traces). Takes about 10 minutes on 2 cores (the quick DAG twice);
# each cluster command is under `timeout`, cut so that the whole script stays within
# SCHEDLAB_E2E_BUDGET seconds (default 3000) plus the final shutdown (about 10 s).
#
# Environment:
#   SCHEDLAB_E2E_SCALE     quick (default) or paper: the paper scale (profile full) layered on the
#                          default profile locally and on the slurm profile on the cluster, each point
#                          rule's runtime and mem_mb set from the local run's measured costs
#                          (benchmarks/point_costs.py --set-resources); needs SCHEDLAB_E2E_TARGETS
#   SCHEDLAB_E2E_TARGETS   targets instead of the quick profile's default target (space separated)
#   SCHEDLAB_E2E_MAX_JOBS  largest quick DAG run whole (default 400 jobs); a larger one is replaced by
#                          the trace targets (download/parse/summary), as the summary line says
#   SCHEDLAB_E2E_KEEP=1    keep the scratch directory (printed) for inspection
#   SCHEDLAB_E2E_LOCAL     a finished local run of the same targets at the same scale (the directory
#                          of its workflow copy, with its results/ and logs/) to compare the cluster
#                          run with, instead of running them locally again (a paper scale of hours);
#                          its dry run must have nothing left to do. Run it from a checkout at the
#                          local run's commit: the cluster run computes with this checkout's code
#   SCHEDLAB_SLURM_STATE, SCHEDLAB_SLURM_PARTITION: see start-local-slurm.sh
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE=$REPO/ci/slurm
SNAKEMAKE=$REPO/.venv/bin/snakemake
PYTHON=$REPO/.venv/bin/python
export SCHEDLAB_TRACE_MIRROR=${SCHEDLAB_TRACE_MIRROR:-$(cd "$REPO/.." && pwd)/shared/traces}
export SCHEDLAB_SLURM_PARTITION=${SCHEDLAB_SLURM_PARTITION:-debug}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/schedlab-e2e.XXXXXX")
export SCHEDLAB_SLURM_STATE=${SCHEDLAB_SLURM_STATE:-$WORK/slurm-state}
JOBCOMP=/var/log/slurm/jobcomp.log
read -r -a TARGETS <<<"${SCHEDLAB_E2E_TARGETS:-}"
SCALE=${SCHEDLAB_E2E_SCALE:-quick}
case $SCALE in
    quick) LOCAL_PROFILES=(--profile workflow/profiles/quick)
           SIZE_PROFILE=workflow/profiles/quick; POINT_LOGS=logs ;;
    paper) LOCAL_PROFILES=(--profile workflow/profiles/default --profile workflow/profiles/full)
           SIZE_PROFILE=workflow/profiles/full; POINT_LOGS=logs/paper-scale ;;
    *) echo "slurm e2e: SCHEDLAB_E2E_SCALE=$SCALE: not quick or paper" >&2; exit 2 ;;
esac
STEP="setup"
DETAILS=""
T0=$SECONDS
# Whole-script time budget (seconds): each step's timeout is cut to what is left of it.
BUDGET=${SCHEDLAB_E2E_BUDGET:-3000}

say() { printf '\n=== slurm e2e [%3d s]: %s\n' "$((SECONDS - T0))" "$*" >&2; }
fail() { say "FAILED: $*"; DETAILS=$*; exit 1; }

finish() {
    local rc=$?
    trap - EXIT INT TERM
    say "stopping the daemons started by this script"
    bash "$HERE/stop-local-slurm.sh" || { rc=1; DETAILS="${DETAILS:+$DETAILS; }stop-local-slurm.sh failed"; }
    if [[ ${SCHEDLAB_E2E_KEEP:-0} == 1 ]]; then
        echo "kept $WORK" >&2
    else
        rm -rf "$WORK"
    fi
    if ((rc == 0)); then
        echo "slurm e2e: PASS ($((SECONDS - T0)) s) $DETAILS"
    else
        echo "slurm e2e: FAIL at step '$STEP' ($((SECONDS - T0)) s): ${DETAILS:-exit status $rc}"
    fi
    exit "$rc"
}
trap finish EXIT
trap 'DETAILS="interrupted"; exit 1' INT TERM

[[ -x $SNAKEMAKE ]] || fail "$SNAKEMAKE not found: run 'make setup' first"
[[ -d $SCHEDLAB_TRACE_MIRROR ]] || fail "SCHEDLAB_TRACE_MIRROR=$SCHEDLAB_TRACE_MIRROR is not a directory"
[[ $SCALE == quick || ${#TARGETS[@]} -gt 0 ]] || fail "SCHEDLAB_E2E_SCALE=paper needs SCHEDLAB_E2E_TARGETS"

# left CAP: the timeout for the next step, at most CAP seconds and at most what is left of BUDGET.
left() {
    local rest=$((BUDGET - (SECONDS - T0)))
    ((rest > 15)) || fail "time budget of $BUDGET s used up"
    echo $((rest < $1 ? rest : $1))
}

# A scratch copy of the workflow, so nothing touches the repository's results/.
copy_workflow() {
    mkdir -p "$1"
    cp -r "$REPO/Snakefile" "$REPO/workflow" "$REPO/scripts" "$REPO/config" "$1/"
}

# ---------------------------------------------------------------------------------------------
STEP="start SLURM"
say "$STEP (state in $SCHEDLAB_SLURM_STATE)"
limit=$(left 300)
timeout -k 10 "$limit" bash "$HERE/start-local-slurm.sh"

LOCAL=${SCHEDLAB_E2E_LOCAL:-$WORK/local}
[[ -z ${SCHEDLAB_E2E_LOCAL:-} ]] || [[ -d $LOCAL/results ]] \
    || fail "SCHEDLAB_E2E_LOCAL=$LOCAL: no results/ there (a finished local run's workflow copy)"
[[ -z ${SCHEDLAB_E2E_LOCAL:-} || -n ${SCHEDLAB_E2E_TARGETS:-} ]] \
    || fail "SCHEDLAB_E2E_LOCAL needs SCHEDLAB_E2E_TARGETS (the targets of that run)"
[[ -n ${SCHEDLAB_E2E_LOCAL:-} ]] || copy_workflow "$LOCAL"
NOTE=""
if [[ -z ${SCHEDLAB_E2E_TARGETS:-} ]]; then
    STEP="size of the quick DAG"
    limit=$(left 120)
    n_jobs=$(cd "$LOCAL" && timeout -k 10 "$limit" "$SNAKEMAKE" --profile workflow/profiles/quick -n 2>&1 \
        | awk '$1 == "total" {n = $2} END {print n}') || true
    [[ $n_jobs =~ ^[0-9]+$ ]] || fail "cannot dry-run the quick profile's DAG"
    if ((n_jobs > ${SCHEDLAB_E2E_MAX_JOBS:-400})); then
        TARGETS=(results/traces/summary.parquet)
        NOTE=" (the quick DAG has $n_jobs jobs, more than ${SCHEDLAB_E2E_MAX_JOBS:-400}: ran ${TARGETS[*]} only)"
    else
        NOTE=" (the whole quick DAG, $n_jobs jobs)"
    fi
    say "quick DAG: $n_jobs jobs$NOTE"
fi

if [[ -n ${SCHEDLAB_E2E_LOCAL:-} ]]; then
    STEP="finished local run"
    say "$STEP in $LOCAL (at $(git -C "$LOCAL" rev-parse --short HEAD 2>/dev/null || echo '?'); this checkout at $(git -C "$REPO" rev-parse --short HEAD))"
    limit=$(left 600)
    (cd "$LOCAL" && timeout -k 10 "$limit" "$SNAKEMAKE" "${LOCAL_PROFILES[@]}" --cores 2 -n \
        "${TARGETS[@]}") >"$WORK/local.dry" 2>&1 || { tail -n 20 "$WORK/local.dry" >&2; fail "cannot dry-run $LOCAL"; }
    grep -q "Nothing to be done" "$WORK/local.dry" \
        || { grep -A12 "^Job stats" "$WORK/local.dry" >&2; fail "the run in $LOCAL is not finished"; }
    # the rules of its DAG, as a local run would have printed them (checked against SLURM's below)
    (cd "$LOCAL" && timeout -k 10 "$limit" "$SNAKEMAKE" "${LOCAL_PROFILES[@]}" --cores 2 -n --forceall \
        "${TARGETS[@]}") >"$WORK/local.out" 2>&1 || fail "cannot dry-run the DAG of $LOCAL"
else
    STEP="local run"
    say "$STEP: snakemake ${LOCAL_PROFILES[*]} ${TARGETS[*]}"
    limit=$(left $((BUDGET / 2)))
    (cd "$LOCAL" && timeout -k 30 "$limit" "$SNAKEMAKE" "${LOCAL_PROFILES[@]}" --cores 2 \
        "${TARGETS[@]}") >"$WORK/local.out" 2>&1 || { tail -n 40 "$WORK/local.out" >&2; fail "local run failed"; }
fi
if [[ $NOTE == " (the whole quick DAG"* ]]; then
    STEP="the whole quick DAG end to end"
    # every paper's scorecard and figures, the merged scorecard and the report
    for paper in $("$PYTHON" -c 'from schedlab.papers import PAPERS; print(*PAPERS)'); do
        [[ -s $LOCAL/results/$paper/scorecard.parquet ]] || fail "the local run built no $paper scorecard"
        compgen -G "$LOCAL/results/$paper/figures/*.png" >/dev/null || fail "the local run drew no $paper figure"
    done
    for f in results/scorecard.parquet results/report/index.html; do
        [[ -s $LOCAL/$f ]] || fail "the local run built no $f"
    done
    say "every paper's scorecard and figures, the merged scorecard and the report built"
fi
RESOURCES=()
if [[ $SCALE == paper ]]; then
    # each point rule asks for what its points measured in the local run (docs/slurm.md)
    read -r -a RESOURCES <<<"$("$PYTHON" "$REPO/benchmarks/point_costs.py" "$LOCAL/$POINT_LOGS" --set-resources)" \
        || fail "no measured point costs under $LOCAL/$POINT_LOGS"
    "$PYTHON" "$REPO/benchmarks/point_costs.py" "$LOCAL/$POINT_LOGS" >&2 || true
    say "resources from the local run's measured costs: ${RESOURCES[*]}"
    RESOURCES=(--set-resources "${RESOURCES[@]}")
fi

STEP="cluster run"
copy_workflow "$WORK/slurm"
# The size profile layered after the slurm one: its default-resources replace the slurm profile's,
# and the command line's replace both, so mem_mb and runtime are repeated here. --cores is the
# node's: a group job asks for the cores of the points it runs side by side, and without it a group
# of more points than the node has cores would wait forever (PartitionConfig); with it Snakemake
# runs them in turn (docs/slurm.md).
SLURM_ARGS=(--profile workflow/profiles/slurm --profile "$SIZE_PROFILE"
    --executor slurm --jobs 4 --latency-wait 10 --cores "$(nproc)"
    --default-resources "slurm_partition=$SCHEDLAB_SLURM_PARTITION" mem_mb=1000 runtime=15
    "${RESOURCES[@]}"
    --slurm-status-command squeue --slurm-init-seconds-before-status-checks 5)
say "$STEP: snakemake ${SLURM_ARGS[*]} ${TARGETS[*]}"
rc=0
limit=$(left $((BUDGET * 7 / 10)))
(cd "$WORK/slurm" && timeout -k 30 "$limit" "$SNAKEMAKE" "${SLURM_ARGS[@]}" "${TARGETS[@]}") \
    >"$WORK/slurm.out" 2>&1 || rc=$?
((rc == 0)) || { tail -n 60 "$WORK/slurm.out" >&2; fail "cluster run exited $rc (124/137 = timeout)"; }

STEP="jobs went through SLURM"
run_id=$(sed -n 's/.*SLURM run ID: \([0-9a-f-]*\).*/\1/p' "$WORK/slurm.out" | head -n 1)
[[ -n $run_id ]] || fail "no 'SLURM run ID' in the cluster run's output"
mapfile -t submitted < <(sed -n 's/.*has been submitted with SLURM jobid \([0-9]*\).*/\1/p' "$WORK/slurm.out" | sort -n)
((${#submitted[@]} > 0)) || fail "the cluster run submitted no job"
# All jobs of this run by its run ID (the plugin's job name), finished ones included (MinJobAge=3600 in start-local-slurm.sh).
squeue_out=$(timeout 20 squeue --states=all --name "$run_id" -h -o '%i|%T|%k')
echo "$squeue_out" >&2
mapfile -t seen < <(cut -d'|' -f1 <<<"$squeue_out" | sort -n)
[[ ${seen[*]} == "${submitted[*]}" ]] \
    || fail "squeue lists jobs (${seen[*]}) but snakemake submitted (${submitted[*]})"
not_done=$(grep -v '|COMPLETED|' <<<"$squeue_out" || true)
[[ -z $not_done ]] || fail "jobs not COMPLETED: $not_done"
for rule in parse_trace trace_summary; do
    if grep -q "rule $rule" "$WORK/local.out"; then
        # a rule's own job (comment rule_<rule>_wildcards_...) or a group job holding it
        # (comment rule_<group>_<rule>_<rule>..., e.g. rule_prep_clean_trace_parse_trace)
        grep -Eq "\|rule_([^|]*_)?$rule(_|\||$)" <<<"$squeue_out" || fail "no SLURM job of rule $rule"
    fi
done
# slurmctld appends a finished job to the jobcomp file when it completes; allow it a few seconds.
for id in "${submitted[@]}"; do
    for _ in $(seq 1 25); do
        grep -q "JobId=$id .*JobState=COMPLETED" "$JOBCOMP" 2>/dev/null && break
        sleep 0.2
    done
    grep -q "JobId=$id .*JobState=COMPLETED" "$JOBCOMP" || fail "job $id not COMPLETED in $JOBCOMP"
done
rules=$(sed -E 's/.*\|rule_//; s/_wildcards_.*//' <<<"$squeue_out" | sort | uniq -c | awk '{print $2 " x" $1}' | paste -sd, -)
say "${#submitted[@]} SLURM jobs (${rules}) all COMPLETED in squeue and $JOBCOMP"

STEP="byte-identical results"
# Byte for byte, except Tang's Table 4 wall-clock timings (compare_results.py says how).
"$PYTHON" "$HERE/compare_results.py" "$LOCAL" "$WORK/slurm" >"$WORK/compare.out" 2>&1 \
    || { tail -n 30 "$WORK/compare.out" >&2; fail "results/ differ between the local and the cluster run"; }
n_files=$(sed -n 's/^\([0-9]*\) files compared.*/\1/p' "$WORK/compare.out")
((n_files > 0)) || fail "the local run produced no file under results/"
say "$n_files files under results/ identical (local vs SLURM; wall-clock timings aside)"

STEP="failing rule on the cluster"
bad=Broken-e2e
printf '; MaxProcs: 8\n1 0 0 10 1 -1 -1 1 60 -1 1 1 1 -1 1 -1 -1 -1\n2 5 0 oops\n' >"$WORK/$bad.swf"
"$PYTHON" - "$WORK/slurm/config/traces.yaml" "$bad" "$WORK/$bad.swf" <<'EOF'
import sys
import yaml
path, name, swf = sys.argv[1:]
with open(path) as fh:
    data = yaml.safe_load(fh)
data["traces"][name] = {"file": f"{name}.swf", "path": swf, "kind": "raw",
                        "description": "corrupt log written by ci/slurm/e2e.sh"}
with open(path, "w") as fh:
    yaml.safe_dump(data, fh, sort_keys=False)
EOF
target=results/traces/$bad/jobs.parquet
say "$STEP: snakemake ... $target (a corrupt trace: parse_trace must fail)"
rc=0
limit=$(left 240)
(cd "$WORK/slurm" && timeout -k 30 "$limit" "$SNAKEMAKE" "${SLURM_ARGS[@]}" "$target") \
    >"$WORK/fail.out" 2>&1 || rc=$?
tail -n 30 "$WORK/fail.out" >&2
((rc != 0)) || fail "the run with a corrupt trace exited 0"
((rc != 124 && rc != 137)) || fail "the run with a corrupt trace timed out instead of failing"
grep -q "Error in rule parse_trace" "$WORK/fail.out" || fail "the failure does not name rule parse_trace"
# The failed job is a SLURM job in state FAILED (a grouped rule reports "Error in group <g>",
# an ungrouped one "SLURM-job '<id>' failed"; both name the rule and its log).
fail_id=$(sed -n 's/.*has been submitted with SLURM jobid \([0-9]*\).*/\1/p' "$WORK/fail.out" | tail -n 1)
[[ -n $fail_id ]] || fail "the run with a corrupt trace submitted no SLURM job"
fail_state=$(timeout 20 squeue --states=all -j "$fail_id" -h -o '%T' || true)
[[ $fail_state == FAILED ]] || fail "SLURM job $fail_id of the corrupt trace is '$fail_state', not FAILED"
[[ ! -e $WORK/slurm/$target ]] || fail "the failed rule left $target behind"
fail_log=$(grep -rl "rule parse_trace (trace=$bad): error:" "$WORK/slurm/.snakemake/slurm_logs" "$WORK/slurm/logs" \
    2>/dev/null | head -n 1 || true)
[[ -n $fail_log ]] || fail "no log holds the one-line error 'rule parse_trace (trace=$bad): error: ...'"
say "the run failed (exit $rc) naming rule parse_trace: $(grep -h "rule parse_trace (trace=$bad): error:" "$fail_log" | head -n 1)"

STEP="done"
DETAILS="${#submitted[@]} SLURM jobs COMPLETED, $n_files result files identical to the local run (wall-clock timings aside), failing rule parse_trace reported$NOTE"
