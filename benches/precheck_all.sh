#!/usr/bin/env bash
# `precheck --all` over N open plans on the demo network (docs/schedule.md, "Growth"):
# one custom plan (a static route) is drafted, copied N times onto 8 devices with its own
# prefix and plan id, each copy registered by a pre-check; then the cycle is timed.
#
#   cargo build --release
#   benches/precheck_all.sh 250 1000 2500        # work in $WORK (/tmp/olav-precheck-all)
set -euo pipefail
OLAV=${OLAV:-$(pwd)/target/release/olav}
WORK=${WORK:-/tmp/olav-precheck-all}
DEVS=(alpha-acc-1 alpha-acc-2 alpha-border-1 alpha-dist-1 alpha-dist-2 beta-acc-2 alpha-br-3560 alpha-br-2960-1)
for n in "$@"; do
    dir=$WORK/p$n
    rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
    printf 'ip route 10.250.1.0 255.255.255.0 Null0\n' > route.txt
    "$OLAV" plan --device alpha-acc-1 --config route.txt >/dev/null 2>&1 || true
    first=$(ls exports/change_plans/*.md | head -1)
    for i in $(seq 1 "$n"); do
        d=${DEVS[$(( i % 8 ))]}
        sed -e "s/^plan_id: .*/plan_id: q-$i/" \
            -e "s/10\.250\.1\.0/10.$(( i / 250 + 100 )).$(( i % 250 )).0/g" \
            -e "s/alpha-acc-1/$d/g" "$first" > "exports/change_plans/q-$i.md"
        "$OLAV" precheck "exports/change_plans/q-$i.md" >/dev/null 2>&1 || true
    done
    /usr/bin/time -f "$n plans: %e s wall, %U+%S s CPU, %M KB" "$OLAV" precheck --all >/dev/null || true
    cd - >/dev/null
done
