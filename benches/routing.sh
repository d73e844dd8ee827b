#!/usr/bin/env bash
# Whole-process figures for the routing model (docs/performance.md, "Routing model"): on
# `olav synth --devices N --seed 1` networks, the routing model built (the first
# `olav routes --device X` after the import: every configuration parsed, the network's
# OSPF computed and stored), then `olav routes --device X` on the stored model for an
# access switch and for a border router (whose table holds every site's prefixes),
# beside benches/networkx_routes.py on the same DB; each the median of RUNS runs (wall
# time, and user + sys CPU time: the machine is shared, and CPU time is what the run
# itself cost), with the largest max RSS, and the load average when the runs ended.
#
#   cargo build --release && pip install networkx
#   benches/routing.sh 10000 50000        # RUNS=5 by default; work in $WORK (/tmp/olav-bench)
set -euo pipefail
OLAV=${OLAV:-$(pwd)/target/release/olav}
NX=${NX:-$(pwd)/benches/networkx_routes.py}
WORK=${WORK:-/tmp/olav-bench}
RUNS=${RUNS:-5}
ACCESS=${ACCESS:-s001-acc-0005}
BORDER=${BORDER:-s001-border-1}
mkdir -p "$WORK"

# time_it LABEL CMD…: RUNS runs; prints the median wall time, the median user + sys CPU
# time and the largest max RSS.
# olav routes exits 3 on a partly computed table (the borders run BGP): not a failure.
time_it() {
    local label=$1; shift
    local times=() cpus=() rss=0
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f "%e %M %U %S" -o "$WORK/t" "$@" >/dev/null 2>&1 || true
        read -r t m u s < <(tail -1 "$WORK/t")
        times+=("$t"); cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')"); (( m > rss )) && rss=$m
    done
    local mid=$(( (RUNS + 1) / 2 )) med cpu
    med=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "${mid}p")
    cpu=$(printf '%s\n' "${cpus[@]}" | sort -n | sed -n "${mid}p")
    # The load average beside each figure: the wall times mean little on a busy machine.
    printf '%-44s %8s s wall %8s s cpu %6s MB   (load %s)\n' "$label" "$med" "$cpu" \
        "$(( rss / 1024 ))" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

# Deletes the stored routing part of a DB (the next `olav routes` builds it).
cat > "$WORK/drop_routing.py" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("DELETE FROM network_model WHERE part = 'routing'")
c.commit()
PY

for n in "$@"; do
    snap=$WORK/syn$n db=$WORK/s$n.db
    [ -d "$snap" ] || "$OLAV" synth --devices "$n" --seed 1 "$snap" >/dev/null
    [ -f "$db" ] || "$OLAV" state import "$snap" --db "$db" -q >/dev/null
    echo "== $n devices"
    # The stored routing part is deleted before each run: the run builds it.
    time_it "model built (+ routes --device access)" bash -c "python3 '$WORK/drop_routing.py' '$db' && '$OLAV' --db '$db' routes --device '$ACCESS'"
    time_it "routes --device $ACCESS" "$OLAV" --db "$db" routes --device "$ACCESS"
    time_it "routes --device $ACCESS --format json" "$OLAV" --db "$db" routes --device "$ACCESS" --format json
    time_it "routes --device $BORDER" "$OLAV" --db "$db" routes --device "$BORDER"
    time_it "routes --device $BORDER --format json" "$OLAV" --db "$db" routes --device "$BORDER" --format json
    # NO_NX=1 leaves networkx out (a minute of runs at 50,000 devices).
    [ -n "${NO_NX:-}" ] && continue
    time_it "networkx, $ACCESS" python3 "$NX" "$db" "$ACCESS"
    time_it "networkx, $BORDER" python3 "$NX" "$db" "$BORDER"
done
