#!/usr/bin/env bash
# The pre-check's candidate, two olav builds on the same generated network: `olav
# precheck` of a plan that changes routing (a decommission: the whole synth network is
# one OSPF domain and one iBGP hierarchy, so it is recomputed) and of one that changes
# nothing the routing reads (a description), alternating between A and B, RUNS runs each;
# the median wall time and the largest max RSS (docs/performance.md, "Candidates").
#
#   A=/path/to/olav-before B=target/release/olav RUNS=3 benches/candidate.sh 2000
set -u
N=${1:?usage: A=olav-before B=olav-after benches/candidate.sh DEVICES}
A=${A:?the olav before}; B=${B:?the olav after}
RUNS=${RUNS:-3}; W=${WORK:-/tmp/olav-candidate}/n$N; DEV=${DEV:-s001-dist-01a}
mkdir -p "$W"
[ -d "$W/syn" ] || "$A" synth --devices "$N" --seed 1 "$W/syn" >/dev/null
declare -A T M
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
    rm -rf "$W/run$who"; mkdir -p "$W/run$who"; cd "$W/run$who" || exit 1
    "$bin" --db "$W/$who.db" --agent netops "Decommission $DEV" >/dev/null 2>&1
    "$bin" --db "$W/$who.db" --agent netops "set the description of $DEV $(
        "$bin" --db "$W/$who.db" state show interfaces --device "$DEV" --format json |
            python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["ifname"])'
    ) to \"reserved\"" >/dev/null 2>&1
done
for _ in $(seq "$RUNS"); do
    for who in a b; do
        bin=$A; [ $who = b ] && bin=$B; cd "$W/run$who" || exit 1
        for kind in decommission description; do
            pat=decommission; [ $kind = description ] && pat=modify
            plan=$(ls exports/change_plans/*.md | grep -i "$pat" | head -1)
            one "$who $kind" "$bin" --db "$W/$who.db" precheck "$plan"
        done
    done
done
uptime
for l in decommission description; do
    for who in a b; do
        k="$who $l"
        med=$(tr ' ' '\n' <<<"${T[$k]:-}" | grep . | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")
        printf '%-2s precheck %-13s %6s s %5s MB   (%s)\n' "$([ $who = a ] && echo A || echo B)" "$l" "$med" "$(( ${M[$k]:-0} / 1024 ))" "${T[$k]% }"
    done
done
