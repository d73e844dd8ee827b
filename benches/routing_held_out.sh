#!/usr/bin/env bash
# The routing model on the labs olav is not developed against (docs/fidelity.md): every
# lab of batfish/lab-validation's snapshots/ that is not in fixtures/lab-validation (the labs olav is
# developed against), extracted with `|` in file names written `pipe` (`_|_` becomes `_pipe_`), then measured
# by the held-out test.
#
#   benches/routing_held_out.sh <lab-validation git dir or checkout> [work dir]
set -euo pipefail
LV=${1:?usage: benches/routing_held_out.sh <lab-validation repo> [work dir]}
WORK=${2:-/tmp/olav-held-out}
DEVELOPED=$(pwd)/fixtures/lab-validation
rm -rf "$WORK"; mkdir -p "$WORK"
git -C "$LV" archive HEAD snapshots | tar -x -C "$WORK"
# olav's import reads no file whose name holds `|`; the shared corpus spells `_|_` as `_pipe_`.
find "$WORK/snapshots" -depth -name '*|*' | while IFS= read -r f; do
    mv "$f" "$(dirname "$f")/$(basename "$f" | sed 's/|/pipe/g')"
done
# Cumulus' vtysh captures quote the command (`vtysh_-c_'show_ip_route_vrf_all_json'.txt`):
# the quotes are dropped, as in fixtures/lab-validation.
find "$WORK/snapshots" -depth -name "*'*" | while IFS= read -r f; do
    mv "$f" "$(dirname "$f")/$(basename "$f" | tr -d "'")"
done
# Held out: the labs olav is not developed against (fixtures/lab-validation holds those).
if [ -d "$DEVELOPED" ]; then
    for lab in "$DEVELOPED"/*/; do rm -rf "$WORK/snapshots/$(basename "$lab")"; done
fi
echo "$(ls "$WORK/snapshots" | wc -l) held-out labs in $WORK/snapshots" >&2
OLAV_ROUTING_LABS="$WORK/snapshots" cargo test --test it routes_on_held_out_labs -- --nocapture
