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
# Prints one summary line: "slurm e2e: PASS ..." or "slurm e2e: FAIL ...", exit status 0 / 1 (or
# "slurm e2e: INCOMPLETE ...", exit status 3: a resumable cluster run cut by the budget, below).
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
#   SCHEDLAB_E2E_CLUSTER   keep the cluster run's workflow copy in this directory and resume it there
#                          (a paper scale of hours, over several sittings): created by the first call,
#                          which records this checkout's commit in DIR/.e2e/commit; a later call must
#                          run from the same commit and workflow files, and goes on with what is
#                          left (Snakemake keeps the finished points; --rerun-incomplete). If the
#                          cluster step's time runs out, or a sitting is killed, rerun the same
#                          command: the script says INCOMPLETE (exit 3) and how far it got. Each
#                          sitting's output is DIR/.e2e/sitting-N.out; the job checks cover every
#                          sitting (the jobcomp file, by run ID). The corrupt-trace check runs in a
#                          scratch copy, so DIR stays a copy of the workflow
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
# run_id_of OUT: the SLURM run ID a cluster run's Snakemake printed in OUT (empty if none)
run_id_of() { sed -n 's/.*SLURM run ID: \([0-9a-f-]*\).*/\1/p' "$1" | head -n 1; }

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
    elif ((rc == 3)); then
        echo "slurm e2e: INCOMPLETE at step '$STEP' ($((SECONDS - T0)) s): $DETAILS"
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
CLUSTER=${SCHEDLAB_E2E_CLUSTER:-$WORK/slurm}
HEAD=$(git -C "$REPO" rev-parse HEAD 2>/dev/null || echo unknown)
if [[ -z ${SCHEDLAB_E2E_CLUSTER:-} ]]; then
    copy_workflow "$CLUSTER"
elif [[ -d $CLUSTER/.e2e ]]; then
    # a later sitting: the same code and workflow, else its finished points are another run's
    [[ $(cat "$CLUSTER/.e2e/commit") == "$HEAD" ]] \
        || fail "SCHEDLAB_E2E_CLUSTER=$CLUSTER was started at $(cat "$CLUSTER/.e2e/commit"), this checkout is at $HEAD"
    for f in Snakefile workflow scripts config; do
        diff -rq -x __pycache__ "$REPO/$f" "$CLUSTER/$f" >&2 \
            || fail "SCHEDLAB_E2E_CLUSTER=$CLUSTER: $f differs from this checkout's"
    done
else
    copy_workflow "$CLUSTER"
    mkdir -p "$CLUSTER/.e2e"
    echo "$HEAD" >"$CLUSTER/.e2e/commit"
fi
SITTING_OUT=$WORK/slurm.out
# harvest: the jobcomp lines of every sitting's run into $CLUSTER/.e2e/jobcomp.log. Each start of the
# local cluster moves the jobcomp file to $JOBCOMP.old (job IDs start again at 1), so a sitting killed
# with its daemons is harvested from there by the next one.
harvest() {
    local out rid
    for out in "$CLUSTER"/.e2e/sitting-*.out; do
        [[ -e $out ]] || continue
        rid=$(run_id_of "$out")
        [[ -z $rid ]] || grep -hs "Name=$rid " "$JOBCOMP.old" "$JOBCOMP" >>"$CLUSTER/.e2e/jobcomp.log" || true
    done
    [[ ! -e $CLUSTER/.e2e/jobcomp.log ]] || sort -u -o "$CLUSTER/.e2e/jobcomp.log" "$CLUSTER/.e2e/jobcomp.log"
}
if [[ -n ${SCHEDLAB_E2E_CLUSTER:-} ]]; then
    harvest
    n_sit=$(find "$CLUSTER/.e2e" -name 'sitting-*.out' | wc -l)
    SITTING_OUT=$CLUSTER/.e2e/sitting-$((n_sit + 1)).out
    say "$STEP in $CLUSTER: sitting $((n_sit + 1))"
    # a sitting killed with its Snakemake leaves the directory locked
    (cd "$CLUSTER" && timeout -k 10 120 "$SNAKEMAKE" "${LOCAL_PROFILES[@]}" --unlock "${TARGETS[@]}") \
        >/dev/null 2>&1 || fail "cannot unlock $CLUSTER"
fi
# The size profile layered after the slurm one: its default-resources replace the slurm profile's,
# and the command line's replace both, so mem_mb and runtime are repeated here. --cores 1: a group
# job runs its points one at a time (the SLURM plugin starts its jobstep executor with --jobs 1), so
# it asks for one CPU and the sum of their runtimes; with --cores C it would hold C CPUs and use one,
# and without --cores a group of more points than a node has cores waits forever (docs/slurm.md).
SLURM_ARGS=(--profile workflow/profiles/slurm --profile "$SIZE_PROFILE"
    --executor slurm --jobs 4 --latency-wait 10 --cores 1
    --default-resources "slurm_partition=$SCHEDLAB_SLURM_PARTITION" mem_mb=1000 runtime=15
    "${RESOURCES[@]}"
    --slurm-status-command squeue --slurm-init-seconds-before-status-checks 5)
say "$STEP: snakemake ${SLURM_ARGS[*]} ${TARGETS[*]}"
rc=0
limit=$(left $((BUDGET * 7 / 10)))
(cd "$CLUSTER" && timeout -k 30 "$limit" "$SNAKEMAKE" "${SLURM_ARGS[@]}" "${TARGETS[@]}") \
    >"$SITTING_OUT" 2>&1 || rc=$?
[[ -z ${SCHEDLAB_E2E_CLUSTER:-} ]] || harvest
if [[ -n ${SCHEDLAB_E2E_CLUSTER:-} ]] && ((rc == 124 || rc == 137)); then
    progress=$(grep -E '^[0-9]+ of [0-9]+ steps' "$SITTING_OUT" | tail -n 1)
    say "the cluster step's time ran out: ${progress:-no step done}"
    DETAILS="time ran out in $SITTING_OUT (${progress:-no step done}); run the same command again to resume"
    exit 3
fi
((rc == 0)) || { tail -n 60 "$SITTING_OUT" >&2; fail "cluster run exited $rc (124/137 = timeout)"; }

STEP="jobs went through SLURM"
# earlier sittings of a resumed cluster run (SCHEDLAB_E2E_CLUSTER): their jobs, by run ID, in the
# jobcomp file (squeue forgets them when the daemons restart); a job cut by the end of its sitting
# has no COMPLETED line there, and Snakemake ran its points again in a later sitting
EARLIER=""
n_earlier=0
if [[ -n ${SCHEDLAB_E2E_CLUSTER:-} ]]; then
    for out in $(find "$CLUSTER/.e2e" -name 'sitting-*.out' | sort -V); do
        [[ $out != "$SITTING_OUT" ]] || continue
        rid=$(run_id_of "$out")
        n_sub=$(grep -c 'has been submitted with SLURM jobid' "$out" || true)
        n_ok=0
        [[ -z $rid ]] || n_ok=$(grep -cs "Name=$rid JobState=COMPLETED" "$CLUSTER/.e2e/jobcomp.log" || true)
        EARLIER="${EARLIER:+$EARLIER; }$(basename "$out" .out): $n_sub submitted, $n_ok COMPLETED"
        n_earlier=$((n_earlier + n_sub))
    done
    [[ -z $EARLIER ]] || say "earlier sittings: $EARLIER"
fi
run_id=$(run_id_of "$SITTING_OUT")
[[ -n $run_id ]] || fail "no 'SLURM run ID' in the cluster run's output"
mapfile -t submitted < <(sed -n 's/.*has been submitted with SLURM jobid \([0-9]*\).*/\1/p' "$SITTING_OUT" | sort -n)
((${#submitted[@]} + n_earlier > 0)) || fail "the cluster run submitted no job"
# All jobs of this run by its run ID (the plugin's job name), finished ones included: squeue keeps a
# finished job for MinJobAge (3600 s, start-local-slurm.sh), the jobcomp file for good, so a job of a
# sitting longer than that is found there (Cirne's paper-scale sitting 4 ran 2 hours).
squeue_out=$(timeout 20 squeue --states=all --name "$run_id" -h -o '%i|%T|%k')
echo "$squeue_out" >&2
mapfile -t seen < <({ cut -d'|' -f1 <<<"$squeue_out"
    sed -n "s/^JobId=\([0-9]*\) .*Name=$run_id .*/\1/p" "$JOBCOMP" 2>/dev/null; } | grep . | sort -nu)
[[ ${seen[*]} == "${submitted[*]}" ]] \
    || fail "squeue and $JOBCOMP list jobs (${seen[*]}) but snakemake submitted (${submitted[*]})"
not_done=$(grep -v '|COMPLETED|' <<<"$squeue_out" || true)
[[ -z $not_done ]] || fail "jobs not COMPLETED: $not_done"
for rule in parse_trace trace_summary; do
    if grep -q "rule $rule" "$WORK/local.out"; then
        # a rule's own job (comment rule_<rule>_wildcards_...) or a group job holding it
        # (comment rule_<group>_<rule>_<rule>..., e.g. rule_prep_clean_trace_parse_trace)
        if [[ -n ${SCHEDLAB_E2E_CLUSTER:-} ]]; then
            # over every sitting: the job (or group job) Snakemake submitted printed the rule
            grep -Eqs "(^|[^a-z])rule $rule:" "$CLUSTER"/.e2e/sitting-*.out \
                || fail "no SLURM job of rule $rule in any sitting"
        else
            # squeue's comment, or (a job squeue has forgotten, MinJobAge) the rule Snakemake printed
            grep -Eq "\|rule_([^|]*_)?$rule(_|\||$)" <<<"$squeue_out" \
                || grep -Eqs "(^|[^a-z])rule $rule:" "$SITTING_OUT" || fail "no SLURM job of rule $rule"
        fi
    fi
done
# slurmctld appends a finished job to the jobcomp file when it completes; allow it a few seconds.
# By job ID and run ID: job IDs start again at every start of the local cluster.
for id in "${submitted[@]}"; do
    for _ in $(seq 1 25); do
        grep -q "JobId=$id .*Name=$run_id JobState=COMPLETED" "$JOBCOMP" 2>/dev/null && break
        sleep 0.2
    done
    grep -q "JobId=$id .*Name=$run_id JobState=COMPLETED" "$JOBCOMP" || fail "job $id not COMPLETED in $JOBCOMP"
done
# the rules of the jobs squeue still lists (the jobcomp file has no comment)
rules=$(sed -E 's/.*\|rule_//; s/_wildcards_.*//' <<<"$squeue_out" | sort | uniq -c | awk '{print $2 " x" $1}' | paste -sd, -)
if ((${#submitted[@]})); then
    say "${#submitted[@]} SLURM jobs (squeue still lists: ${rules:-none}) all COMPLETED in $JOBCOMP"
else
    say "this sitting submitted no job: earlier sittings made every output"
fi
if [[ -n ${SCHEDLAB_E2E_CLUSTER:-} ]]; then
    STEP="cluster run finished"
    (cd "$CLUSTER" && timeout -k 10 600 "$SNAKEMAKE" "${LOCAL_PROFILES[@]}" --cores 2 -n "${TARGETS[@]}") \
        >"$WORK/cluster.dry" 2>&1 || fail "cannot dry-run $CLUSTER"
    grep -q "Nothing to be done" "$WORK/cluster.dry" || fail "the cluster run in $CLUSTER has jobs left"
    JOBS_NOTE="; ${EARLIER:-no earlier sitting}; the last sitting's jobs COMPLETED"
fi

STEP="byte-identical results"
# Byte for byte, except Tang's Table 4 wall-clock timings (compare_results.py says how).
"$PYTHON" "$HERE/compare_results.py" "$LOCAL" "$CLUSTER" >"$WORK/compare.out" 2>&1 \
    || { tail -n 30 "$WORK/compare.out" >&2; fail "results/ differ between the local and the cluster run"; }
n_files=$(sed -n 's/^\([0-9]*\) files compared.*/\1/p' "$WORK/compare.out")
((n_files > 0)) || fail "the local run produced no file under results/"
say "$n_files files under results/ identical (local vs SLURM; wall-clock timings aside)"

STEP="failing rule on the cluster"
FAILDIR=$CLUSTER
if [[ -n ${SCHEDLAB_E2E_CLUSTER:-} ]]; then
    FAILDIR=$WORK/fail
    copy_workflow "$FAILDIR"
fi
bad=Broken-e2e
printf '; MaxProcs: 8\n1 0 0 10 1 -1 -1 1 60 -1 1 1 1 -1 1 -1 -1 -1\n2 5 0 oops\n' >"$WORK/$bad.swf"
"$PYTHON" - "$FAILDIR/config/traces.yaml" "$bad" "$WORK/$bad.swf" <<'EOF'
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
(cd "$FAILDIR" && timeout -k 30 "$limit" "$SNAKEMAKE" "${SLURM_ARGS[@]}" "$target") \
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
[[ ! -e $FAILDIR/$target ]] || fail "the failed rule left $target behind"
fail_log=$(grep -rl "rule parse_trace (trace=$bad): error:" "$FAILDIR/.snakemake/slurm_logs" "$FAILDIR/logs" \
    2>/dev/null | head -n 1 || true)
[[ -n $fail_log ]] || fail "no log holds the one-line error 'rule parse_trace (trace=$bad): error: ...'"
say "the run failed (exit $rc) naming rule parse_trace: $(grep -h "rule parse_trace (trace=$bad): error:" "$fail_log" | head -n 1)"

STEP="done"
DETAILS="${#submitted[@]} SLURM jobs COMPLETED${JOBS_NOTE:-}, $n_files result files identical to the local run (wall-clock timings aside), failing rule parse_trace reported$NOTE"
