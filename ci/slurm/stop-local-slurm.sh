#!/usr/bin/env bash
# Stop the daemons that start-local-slurm.sh started, by the PIDs it recorded, and nothing else.
#
# Cancels the jobs still queued or running on the cluster first (only when slurmctld was started
# here, so the cluster is ours), then stops slurmd, slurmctld and munged: SIGTERM, up to 15 s, then
# SIGKILL. A PID is signalled only if it still runs the program it was recorded for (no recycled
# PIDs). Safe to call twice, or when start failed half-way. Every cluster command runs under timeout.
#
# Environment: SCHEDLAB_SLURM_STATE (default /tmp/schedlab-slurm), as for start-local-slurm.sh.
set -uo pipefail

STATE=${SCHEDLAB_SLURM_STATE:-/tmp/schedlab-slurm}
PIDS=$STATE/pids

say() { printf 'stop-local-slurm: %s\n' "$*" >&2; }

# alive NAME PID: PID exists and runs the program NAME.
alive() {
    [[ -r /proc/$2/comm ]] && [[ $(cat "/proc/$2/comm" 2>/dev/null) == "$1" ]]
}

stop_daemon() {
    local name=$1 file=$PIDS/$1.pid pid
    [[ -f $file ]] || return 0
    pid=$(cat "$file")
    if ! alive "$name" "$pid"; then
        say "$name (pid $pid) already gone"
        rm -f "$file"
        return 0
    fi
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 75); do
        alive "$name" "$pid" || break
        sleep 0.2
    done
    if alive "$name" "$pid"; then
        say "$name (pid $pid) ignored SIGTERM for 15 s; sending SIGKILL"
        kill -KILL "$pid" 2>/dev/null || true
        sleep 0.5
    fi
    if alive "$name" "$pid"; then
        say "ERROR: $name (pid $pid) is still running"
        return 1
    fi
    say "$name (pid $pid) stopped"
    rm -f "$file"
}

[[ -d $PIDS ]] || { say "no state in $STATE: nothing to stop"; exit 0; }

if [[ -f $PIDS/slurmctld.pid ]] && alive slurmctld "$(cat "$PIDS/slurmctld.pid")"; then
    jobs=$(timeout 10 squeue -h -t PENDING,RUNNING,SUSPENDED,COMPLETING -o %i 2>/dev/null | tr '\n' ' ')
    if [[ -n ${jobs// /} ]]; then
        say "cancelling jobs still on the cluster: $jobs"
        # shellcheck disable=SC2086
        timeout 10 scancel $jobs || true
        for _ in $(seq 1 30); do
            [[ -z $(timeout 5 squeue -h -t PENDING,RUNNING,SUSPENDED,COMPLETING -o %i 2>/dev/null) ]] && break
            sleep 0.5
        done
    fi
fi

status=0
# munged goes last: slurmd and slurmctld talk through it while shutting down.
for daemon in slurmd slurmctld munged; do
    stop_daemon "$daemon" || status=1
done
exit $status
