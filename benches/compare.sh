#!/usr/bin/env bash
# Two olav builds on the same generated network, in one run: every command alternates
# between A and B, RUNS runs each; prints the median wall time and the largest max RSS of
# each. For "does this change regress" (docs/performance.md), beside benches/whole.sh.
#
#   A=/path/to/olav-before B=target/release/olav RUNS=7 benches/compare.sh 10000
set -u
N=${1:?usage: A=olav-before B=olav-after benches/compare.sh DEVICES}
A=${A:?the olav before}; B=${B:?the olav after}
RUNS=${RUNS:-5}; W=${WORK:-/tmp/olav-compare}/n$N; DEV=${DEV:-s001-dist-01a}
mkdir -p "$W"
[ -d "$W/syn" ] || "$A" synth --devices "$N" --seed 1 "$W/syn" >/dev/null
declare -A T M
# one LABEL CMD…: one timed run, appended to LABEL's times.
one() {
    local l=$1; shift
    /usr/bin/time -f "%e %M" -o "$W/t" "$@" >/dev/null 2>&1
    read -r t m < <(tail -1 "$W/t")
    T[$l]+="$t "
    (( m > ${M[$l]:-0} )) && M[$l]=$m
}
for who in a b; do
    bin=$A; [ $who = b ] && bin=$B
    rm -f "$W/$who.db"; "$bin" state import "$W/syn" --db "$W/$who.db" -q >/dev/null
done
for _ in $(seq "$RUNS"); do
    for who in a b; do
        bin=$A; [ $who = b ] && bin=$B; db=$W/$who.db
        mkdir -p "$W/run$who"; cd "$W/run$who" || exit 1
        one "$who import" bash -c "rm -f '$W/imp$who.db' && '$bin' state import '$W/syn' --db '$W/imp$who.db' -q"
        # The first request after an import builds the network model: its parts go first.
        one "$who first request" bash -c "python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"DELETE FROM network_model\"); c.commit()' '$db' && rm -rf exports && '$bin' --db '$db' --agent netops 'Decommission $DEV'"
        plan=$(ls exports/change_plans/*.md | head -1)
        one "$who blast-radius" "$bin" --db "$db" blast-radius --device "$DEV"
        one "$who precheck" "$bin" --db "$db" precheck "$plan"
        one "$who request" bash -c "rm -rf exports && '$bin' --db '$db' --agent netops 'Decommission $DEV'"
        one "$who check" "$bin" --db "$db" check
    done
done
for l in import "first request" blast-radius precheck request check; do
    for who in a b; do
        k="$who $l"
        med=$(tr ' ' '\n' <<<"${T[$k]}" | grep . | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")
        printf '%-2s %-14s %6s s %5s MB   (%s)\n' "$([ $who = a ] && echo A || echo B)" "$l" "$med" "$(( ${M[$k]} / 1024 ))" "${T[$k]% }"
    done
done
