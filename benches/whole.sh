#!/usr/bin/env bash
# Whole-process figures for docs/performance.md (issue #16): on `olav synth --devices N
# --seed 1` networks: the import, the first request after it (the network model is built), then
# blast-radius (beside benches/networkx_blast.py on the same DB), pre-check, a whole
# request without Batfish and `olav check`, then `olav routes --device` first after an import
# (the routing model built: its stored part deleted before each run) and later (issue #32),
# each the median of RUNS runs, with max RSS in MiB (GNU time reports KiB).
#
#   cargo build --release && pip install networkx
#   benches/whole.sh 1000 10000 50000        # RUNS=5 by default; work in $WORK (/tmp/olav-bench)
set -euo pipefail
OLAV=${OLAV:-$(pwd)/target/release/olav}
NX=${NX:-$(pwd)/benches/networkx_blast.py}
WORK=${WORK:-/tmp/olav-bench}
RUNS=${RUNS:-5}
DEV=${DEV:-s001-dist-01a}
ROUTED=${ROUTED:-s001-acc-0005}
mkdir -p "$WORK"

# time_it LABEL CMD…: RUNS runs; prints the median wall time and the largest max RSS.
time_it() {
    local label=$1; shift
    local times=() rss=0
    for _ in $(seq "$RUNS"); do
        rm -rf "$WORK/run/exports"
        /usr/bin/time -f "%e %M" -o "$WORK/t" "$@" >/dev/null 2>&1 || true
        read -r t m < <(tail -1 "$WORK/t")
        times+=("$t"); (( m > rss )) && rss=$m
    done
    local med
    med=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")
    printf '%-28s %8s s %8s MiB\n' "$label" "$med" "$(( rss / 1024 ))"
}

for n in "$@"; do
    snap=$WORK/syn$n db=$WORK/s$n.db
    [ -d "$snap" ] || "$OLAV" synth --devices "$n" --seed 1 "$snap" >/dev/null
    echo "== $n devices"
    time_it "import" bash -c "rm -f '$db' && '$OLAV' state import '$snap' --db '$db' -q"
    mkdir -p "$WORK/run" && cd "$WORK/run" && rm -rf exports
    # The first request after an import builds the state version's network model: the
    # model's parts are deleted before each run.
    time_it "first request (model built)" bash -c "python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"DELETE FROM network_model\"); c.commit()' '$db' && '$OLAV' --db '$db' --agent netops 'Decommission $DEV'"
    plan=$(basename "$(ls "$WORK"/run/exports/change_plans/*.md | head -1)")
    cp "exports/change_plans/$plan" "$WORK/$plan"
    time_it "blast-radius" "$OLAV" --db "$db" blast-radius --device "$DEV"
    time_it "blast-radius (networkx)" python3 "$NX" "$db" "$DEV"
    # The plan is put back where it was drafted (a copy elsewhere is refused by design).
    time_it "precheck" bash -c "mkdir -p exports/change_plans && cp '$WORK/$plan' exports/change_plans/ && '$OLAV' --db '$db' precheck 'exports/change_plans/$plan'"
    time_it "request, no Batfish" "$OLAV" --db "$db" --agent netops "Decommission $DEV"
    time_it "check" "$OLAV" --db "$db" check
    time_it "routes, model built" bash -c "python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"DELETE FROM network_model WHERE part = \x27routing\x27\"); c.commit()' '$db' && '$OLAV' --db '$db' routes --device '$ROUTED'"
    time_it "routes, later" "$OLAV" --db "$db" routes --device "$ROUTED"
    cd - >/dev/null
done
