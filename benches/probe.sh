#!/usr/bin/env bash
# Robustness probe for olav (issue 31): load, crashes, full filesystem, hostile inputs,
# misbehaving Batfish. Usage: probe.sh [load crash fs hostile batfish]  (default: all)
# Each group works in a fresh /tmp/probe-<group>-XXXX folder and prints one SUMMARY line.
# Details go to $LOG (default /tmp/probe-log-<time>).
set -u
OLAV=${OLAV:-$(pwd)/target/release/olav}
DEMO=${DEMO:-$(pwd)/fixtures/demo}
WF=${WF:-$(pwd)/workflows}
LOG=${LOG:-/tmp/probe-log-$(date -u +%H%M%S)}
mkdir -p "$LOG"
GROUPS_TO_RUN=${*:-load crash fs hostile batfish}
export OLAV_BATFISH_APIKEY=probe-secret
# keep olav off any real Batfish: point at a closed port unless a test says otherwise
BF_NONE="--batfish-host 127.0.0.1 --batfish-port 9"
log() { echo "$*" >>"$LOG/probe.log"; }
say() { echo "$*"; log "$*"; }

db_ok() { # $1 db -> prints ok or the failure
  sqlite3 "$1" 'PRAGMA integrity_check' 2>&1 | tr '\n' ' ' | sed 's/ $//'
}

# ---------------------------------------------------------------- 1. load
group_load() {
  local W; W=$(mktemp -d /tmp/probe-load-XXXX); cd "$W" || return
  "$OLAV" state stats >/dev/null 2>&1
  local reqs=(
    "decommission branch switch alpha-br-3560"
    "decommission branch switch alpha-br-2960-1"
    "decommission branch switch alpha-br-2960-2"
    "decommission access switch alpha-acc-1"
    "decommission access switch beta-acc-2"
    "add a redundant eBGP uplink to the AARNet peer on the alpha border router"
  )
  declare -A ST=(); local procs=0 locked=0 integ=0 orphans=0 running_left=0 panics=0 signals=0 badexit=0 unexplained2=0
  local r i
  for r in $(seq 1 15); do
    mkdir -p "r$r"
    mapfile -t ids < <(sqlite3 .olav/state.db "select plan_id from plan where status not in ('withdrawn','done')" 2>/dev/null)
    local pids=() kinds=()
    for i in $(seq 0 19); do
      local kind args
      case $((i % 10)) in
        0|1|2) kind=draft; args=("${reqs[$(( (r + i) % ${#reqs[@]} ))]}" $BF_NONE) ;;
        3) kind=precheck_all; args=(precheck --all) ;;
        4) kind=import; args=(state import "$DEMO") ;;
        5|6) kind=approve; args=(plans approve "${ids[$(( (r + i) % (${#ids[@]} > 0 ? ${#ids[@]} : 1) ))]:-none}") ;;
        7|8) kind=runs_list; args=(runs list) ;;
        9) kind=plans_list; args=(plans list) ;;
      esac
      ( exec "$OLAV" "${args[@]}" >"r$r/$i.out" 2>"r$r/$i.err" ) &
      pids+=($!); kinds+=("$kind")
    done
    for i in $(seq 0 19); do
      wait "${pids[$i]}"; local rc=$?
      procs=$((procs + 1)); ST[$rc]=$(( ${ST[$rc]:-0} + 1 ))
      echo "$rc ${kinds[$i]}" >"r$r/$i.rc"
      if [ $rc -eq 101 ] || grep -q 'panicked' "r$r/$i.err"; then panics=$((panics + 1)); log "load r$r/$i PANIC ${kinds[$i]}"; fi
      if [ $rc -gt 128 ]; then signals=$((signals + 1)); log "load r$r/$i SIGNAL $rc ${kinds[$i]}"; fi
      case $rc in 0|1|2|3) ;; *) badexit=$((badexit + 1)) ;; esac
      if grep -qi 'database is locked\|database table is locked\|busy' "r$r/$i.err" "r$r/$i.out"; then
        locked=$((locked + 1)); log "load r$r/$i locked rc=$rc ${kinds[$i]}: $(grep -i -m1 locked "r$r/$i.err")"
      fi
      if [ $rc -eq 2 ] && [ ! -s "r$r/$i.err" ] && ! grep -qiE 'error|refus|cannot|not |no plan|question|\?' "r$r/$i.out"; then
        unexplained2=$((unexplained2 + 1)); log "load r$r/$i exit 2 without reason (${kinds[$i]})"
      fi
      [ $rc -eq 2 ] && log "load r$r/$i exit2 ${kinds[$i]}: $(tail -c 300 "r$r/$i.err" | tr '\n' ' ')"
    done
    local ic; ic=$(db_ok .olav/state.db); [ "$ic" = ok ] || { integ=$((integ + 1)); log "load r$r integrity: $ic"; }
    local reg; reg=$(sqlite3 .olav/state.db 'select path from plan' 2>/dev/null)
    local f
    for f in exports/change_plans/*; do
      [ -e "$f" ] || continue
      local rp; rp=$(realpath "$f")
      grep -qxF "$rp" <<<"$reg" || { orphans=$((orphans + 1)); log "load r$r orphan plan file: $rp"; }
    done
    local run; run=$(sqlite3 .olav/state.db "select count(*) from run where status='running'" 2>&1)
    [ "$run" = 0 ] || { running_left=$((running_left + run)); log "load r$r running runs left: $run"; }
  done
  local sts=""; for k in $(echo "${!ST[@]}" | tr ' ' '\n' | sort -n); do sts+="$k:${ST[$k]} "; done
  # an approved plan whose last pre-check before its approval failed (issue 31, item 4)
  local badappr; badappr=$(sqlite3 .olav/state.db "select count(*) from plan p where status='approved' and (select verdict from precheck_run r where r.plan_id=p.plan_id and r.ran_at<=p.updated order by id desc limit 1)='FAIL'")
  local nplans nfiles nruns; nplans=$(sqlite3 .olav/state.db 'select count(*) from plan'); nfiles=$(ls exports/change_plans | wc -l)
  nruns=$(sqlite3 .olav/state.db 'select status||"="||count(*) from run group by status' | tr '\n' ' ')
  say "SUMMARY load: processes=$procs exit={${sts% }} locked_refusals=$locked panics=$panics signals=$signals exit_outside_0-3=$badexit exit2_unexplained=$unexplained2 integrity_failures=$integ orphan_plan_files=$orphans running_left=$running_left approved_over_fail=$badappr plans=$nplans files=$nfiles runs[$nruns] dir=$W"
  cd /; }

# ---------------------------------------------------------------- 2. crashes
group_crash() {
  local W; W=$(mktemp -d /tmp/probe-crash-XXXX); cd "$W" || return
  "$OLAV" state stats >/dev/null 2>&1
  "$OLAV" "decommission branch switch alpha-br-3560" $BF_NONE >/dev/null 2>&1
  "$OLAV" "add a redundant eBGP uplink to the AARNet peer on the alpha border router" $BF_NONE >/dev/null 2>&1
  local n=0 hit=0 integ=0 openfail=0 devbad=0 verbad=0 running_left=0 interrupted=0 tmps=0
  declare -A HIT=()
  local kinds=(import request precheck_all) k j
  for j in $(seq 0 89); do
    k=${kinds[$((j % 3))]}
    local v0; v0=$(sqlite3 .olav/state.db "select max(state_version) from import_run" 2>/dev/null)
    local delay; delay=$(python3 -c "import random;print(round(random.uniform(0,${CRASH_MAX_DELAY:-1.5}),3))")
    case $k in
      import) "$OLAV" state import "$DEMO" >/dev/null 2>&1 & ;;
      request) "$OLAV" "decommission branch switch alpha-br-2960-$((j % 2 + 1))" $BF_NONE >/dev/null 2>&1 & ;;
      precheck_all) "$OLAV" precheck --all >/dev/null 2>&1 & ;;
    esac
    local pid=$!
    sleep "$delay"; kill -9 "$pid" 2>/dev/null; wait "$pid"; local rc=$?
    n=$((n + 1))
    if [ $rc -eq 137 ]; then hit=$((hit + 1)); HIT[$k]=$(( ${HIT[$k]:-0} + 1 )); fi
    local ic; ic=$(db_ok .olav/state.db); [ "$ic" = ok ] || { integ=$((integ + 1)); log "crash $j $k integrity: $ic"; }
    "$OLAV" state stats >/dev/null 2>"$W/stats.err" || { openfail=$((openfail + 1)); log "crash $j $k stats failed: $(cat "$W/stats.err")"; }
    local dc; dc=$(sqlite3 .olav/state.db 'select count(*) from device' 2>&1)
    [ "$dc" = 20 ] || { devbad=$((devbad + 1)); log "crash $j $k devices=$dc"; }
    local v1; v1=$(sqlite3 .olav/state.db "select max(state_version) from import_run" 2>/dev/null)
    if [ "$k" = import ] && [ -n "$v0" ] && [ "$v1" != "$v0" ] && [ "$v1" != "$((v0 + 1))" ]; then verbad=$((verbad + 1)); log "crash $j version $v0 -> $v1"; fi
    "$OLAV" runs list >/dev/null 2>&1
    local rl; rl=$(sqlite3 .olav/state.db "select (select count(*) from run where status='running')+(select count(*) from schedule_cycle where status='running')")
    [ "$rl" = 0 ] || { running_left=$((running_left + rl)); log "crash $j $k (rc=$rc) running left: $rl"; }
    log "crash $j $k delay=$delay rc=$rc v=$v0->$v1"
  done
  interrupted=$(sqlite3 .olav/state.db "select count(*) from run where status='interrupted'")
  local cyc_int; cyc_int=$(sqlite3 .olav/state.db "select count(*) from schedule_cycle where status='interrupted'")
  tmps=$(find exports .olav -name '.tmp*' 2>/dev/null | wc -l)
  find exports .olav -name '.tmp*' >>"$LOG/probe.log" 2>/dev/null
  local lastv; lastv=$(sqlite3 .olav/state.db "select max(state_version) from import_run")
  say "SUMMARY crash: max_delay=${CRASH_MAX_DELAY:-1.5}s runs=$n killed_while_running=$hit (import=${HIT[import]:-0} request=${HIT[request]:-0} precheck_all=${HIT[precheck_all]:-0}) integrity_failures=$integ open_failures=$openfail device_count_bad=$devbad version_bad=$verbad running_left=$running_left interrupted_runs=$interrupted interrupted_cycles=$cyc_int tmp_files_left=$tmps final_state_version=$lastv dir=$W"
  cd /; }

# ---------------------------------------------------------------- 3. full filesystem
group_fs() {
  local W; W=$(mktemp -d /tmp/probe-fs-XXXX); cd "$W" || return
  mkdir -p db mnt mnt2
  cat >inner.sh <<'EOF'
set -u
O=$1; W=$2; DEMO=$3; BF="--batfish-host 127.0.0.1 --batfish-port 9"
cd "$W"
mount -t tmpfs -o size=2m tmpfs mnt || { echo "MOUNT FAILED"; exit 9; }
mount -t tmpfs -o size=2m tmpfs mnt2 || { echo "MOUNT2 FAILED"; exit 9; }
# --- exports on a full tmpfs, DB elsewhere
"$O" --db db/state.db --exports mnt/exports state stats >/dev/null 2>&1
mkdir -p mnt/exports/change_plans mnt/exports/reports
avail=$(df -k --output=avail mnt | tail -1)
dd if=/dev/zero of=mnt/filler bs=1k count=$((avail - 20)) 2>/dev/null
echo "avail_after_fill_kb=$(df -k --output=avail mnt | tail -1)"
"$O" --db db/state.db --exports mnt/exports "add a redundant eBGP uplink to the AARNet peer on the alpha border router" $BF >req.out 2>req.err; echo "request_rc=$?"
echo "request_html_missing=$(grep -c 'HTML report: MISSING' req.out req.err | awk -F: '{s+=$2} END{print s}')"
ls -la mnt/exports/change_plans mnt/exports/reports >ls1.txt 2>&1
n0=$(sqlite3 db/state.db 'select count(*) from precheck_run')
for p in mnt/exports/change_plans/*.md; do
  [ -e "$p" ] || continue
  # (a) as the request left it (a few KB free)
  echo "free_before_precheck_kb=$(df -k --output=avail mnt | tail -1)"
  "$O" --db db/state.db --exports mnt/exports precheck "$p" >pc.out 2>pc.err; echo "precheck_rc=$?"
  echo "precheck_html_missing=$(grep -c 'HTML report: MISSING' pc.out pc.err | awk -F: '{s+=$2} END{print s}')"
  echo "precheck_recorded=$(( $(sqlite3 db/state.db 'select count(*) from precheck_run') - n0 ))"
  # (b) ~20 KB free again: room for the Markdown/JSON reports, not the HTML page
  rm -f mnt/filler; avail=$(df -k --output=avail mnt | tail -1)
  dd if=/dev/zero of=mnt/filler bs=1k count=$((avail - 20)) 2>/dev/null
  n1=$(sqlite3 db/state.db 'select count(*) from precheck_run')
  "$O" --db db/state.db --exports mnt/exports precheck "$p" >pc2.out 2>pc2.err; echo "precheck20k_rc=$?"
  echo "precheck20k_html_missing=$(grep -c 'HTML report: MISSING' pc2.out pc2.err | awk -F: '{s+=$2} END{print s}')"
  echo "precheck20k_recorded=$(( $(sqlite3 db/state.db 'select count(*) from precheck_run') - n1 ))"
done
# registered plans must be whole: end with the Verification section and a newline, and parse
sqlite3 db/state.db 'select path from plan' >reg.txt
half=0
while read -r p; do
  [ -f "$p" ] || { echo "registered_missing=$p"; half=$((half+1)); continue; }
  grep -q '^## Rollback' "$p" && grep -q '^## Verification' "$p" && [ "$(tail -c1 "$p" | od -An -c | tr -d ' ')" = '\n' ] || { echo "registered_truncated=$p"; half=$((half+1)); }
done <reg.txt
echo "registered=$(wc -l <reg.txt) half_written=$half"
echo "tmp_left_exports=$(find mnt/exports -name '.tmp*' | wc -l)"
echo "plans_show_missing=$("$O" --db db/state.db --exports mnt/exports plans show "$(sqlite3 db/state.db 'select plan_id from plan limit 1')" 2>&1 | grep -ci 'missing')"
# --- DB on a full tmpfs
# (the demo DB is ~1 MB and needs its WAL to be created: create it on disk, copy it in)
mkdir -p db2
"$O" --db db2/state.db --exports ex2 state stats >/dev/null 2>&1
sqlite3 db2/state.db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
for leave in 8 100 400; do
  rm -rf mnt2/.olav mnt2/filler; mkdir -p mnt2/.olav
  cp db2/state.db mnt2/.olav/state.db
  D=mnt2/.olav/state.db
  v0=$(sqlite3 $D 'select max(state_version) from import_run')
  avail=$(df -k --output=avail mnt2 | tail -1)
  dd if=/dev/zero of=mnt2/filler bs=1k count=$((avail - leave)) 2>/dev/null
  echo "[db leave=${leave}KB] free_kb=$(df -k --output=avail mnt2 | tail -1)"
  "$O" --db $D --exports ex2 state import "$DEMO" >imp.out 2>imp.err; echo "import_rc=$?"
  echo "import_full_mentions=$(cat imp.out imp.err | grep -o -i 'disk is full\|database is full\|no space' | wc -l)"
  echo "import_err=$(tr '\n' ' ' <imp.err | cut -c1-260)"
  echo "while_full: integrity=$(sqlite3 $D 'PRAGMA integrity_check' 2>&1 | tr '\n' ' ') devices=$(sqlite3 $D 'select count(*) from device' 2>&1) version=$v0->$(sqlite3 $D 'select max(state_version) from import_run' 2>&1)"
  "$O" --db $D --exports ex2 state stats >st.out 2>st.err; echo "stats_while_full_rc=$? $(head -c 160 st.err | tr '\n' ' ')"
  rm -rf ex2
  "$O" --db $D --exports ex2 "decommission branch switch alpha-br-3560" $BF >rq2.out 2>rq2.err; echo "request_dbfull_rc=$?"
  echo "request_dbfull_plan_files=$(ls ex2/change_plans 2>/dev/null | wc -l) registered_now=$(sqlite3 $D 'select count(*) from plan' 2>&1)"
  rm -f mnt2/filler
  echo "after_freeing: integrity=$(sqlite3 $D 'PRAGMA integrity_check' 2>&1 | tr '\n' ' ') devices=$(sqlite3 $D 'select count(*) from device' 2>&1) version=$(sqlite3 $D 'select max(state_version) from import_run' 2>&1) running=$(sqlite3 $D "select count(*) from run where status='running'" 2>&1)"
  "$O" --db $D --exports ex2 runs list >/dev/null 2>&1
  echo "after_runs_list: runs=$(sqlite3 $D "select group_concat(status) from run" 2>&1)"
done
EOF
  unshare -rm bash inner.sh "$OLAV" "$W" "$DEMO" >fs.txt 2>&1; local rc=$?
  cat fs.txt >>"$LOG/probe.log"
  say "SUMMARY fs: unshare_rc=$rc $(grep -v '^import_err\|^request_dbfull_err' fs.txt | tr '\n' ' ') dir=$W"
  cd /; }

# ---------------------------------------------------------------- 4. hostile inputs
H_N=0; H_PANIC=0; H_HANG=0; H_ESC=0; declare -A H_ST=()
hrun() { # name, then command; 60 s timeout
  local name=$1; shift
  local t0 t1; t0=$(date +%s.%N)
  timeout -k 5 60 "$@" >"h/$name.out" 2>"h/$name.err" </dev/null; local rc=$?
  t1=$(date +%s.%N)
  local dt; dt=$(python3 -c "print(round($t1-$t0,2))")
  H_N=$((H_N + 1)); H_ST[$rc]=$(( ${H_ST[$rc]:-0} + 1 ))
  local flag=""
  if [ $rc -eq 101 ] || grep -q panicked "h/$name.err"; then H_PANIC=$((H_PANIC + 1)); flag+=" PANIC"; fi
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then H_HANG=$((H_HANG + 1)); flag+=" HANG"; fi
  if grep -q $'\x1b' "h/$name.out" "h/$name.err"; then H_ESC=$((H_ESC + 1)); flag+=" RAW_ESC"; fi
  case $rc in 0|1|2|3|124) ;; *) flag+=" EXIT$rc" ;; esac
  local first; first=$(grep -m1 -h -E 'VERDICT:|error|Error|warning' "h/$name.out" "h/$name.err" | cut -c1-150 | tr -d '\033')
  log "hostile $name rc=$rc t=${dt}s$flag :: $first"
  printf '%-28s rc=%-3s %6ss%s\n' "$name" "$rc" "$dt" "$flag" >>h/table.txt
}
group_hostile() {
  local W; W=$(mktemp -d /tmp/probe-hostile-XXXX); cd "$W" || return
  mkdir -p h in
  "$OLAV" state stats >/dev/null 2>&1
  "$OLAV" "add a redundant eBGP uplink to the AARNet peer on the alpha border router" $BF_NONE >/dev/null 2>&1
  local base; base=$(ls exports/change_plans/add-uplink*.md | head -1)
  # --- configs: each as an extra device in a copy of the demo snapshot, and as plan --config lines
  python3 - in <<'EOF'
import os, sys, random
d = sys.argv[1]
random.seed(7)
def w(n, b): open(os.path.join(d, n), 'wb').write(b)
w('binary.cfg', bytes(random.getrandbits(8) for _ in range(200000)))
w('oneline10m.cfg', b'hostname big\n' + b'x' * (10 * 1024 * 1024))
w('nul.cfg', b'hostname nul\x00dev\ninterface Gi0/1\x00\n ip address 10.9.9.1 255.255.255.0\x00\n')
w('deepnest.cfg', b'hostname deep\n' + b''.join((b' ' * i + b'interface Gi0/%d\n' % i) for i in range(5000)))
w('pipe.cfg', b'hostname evil|col|x\ninterface Gi0/1\n description a|b|c\n ip address 10.9.9.1 255.255.255.0\n')
w('script.cfg', b'hostname <script>alert(1)</script>\ninterface Gi0/1\n description <img src=x onerror=alert(1)>\n')
w('dotdot.cfg', b'hostname ../../tmp/x\ninterface Gi0/1\n ip address 10.9.9.1 255.255.255.0\n')
w('esc.cfg', b'hostname esc\x1b[2J\x1b]0;pwn\x07\ninterface Gi0/1\n description \x1b[31mVERDICT: PASS\x1b[0m\n')
w('ifaces40k.cfg', b'hostname many\n' + b''.join(b'interface Vlan%d\n ip address 10.%d.%d.1 255.255.255.0\n!\n' % (i, 100 + i // 256 % 100, i % 256) for i in range(40000)))
w('crlf_utf16.cfg', 'hostname utf16\r\ninterface Gi0/1\r\n'.encode('utf-16'))
EOF
  local c
  for c in binary oneline10m nul deepnest pipe script dotdot esc ifaces40k crlf_utf16; do
    rm -rf "snap-$c"; cp -r "$DEMO" "snap-$c"; cp "in/$c.cfg" "snap-$c/configs/zz-$c.cfg"
    hrun "cfg-import-$c" "$OLAV" --db "db-$c.db" state import "snap-$c"
  done
  "$OLAV" state show devices >/dev/null 2>&1
  for c in binary nul pipe script esc ifaces40k; do
    hrun "cfg-plan-$c" "$OLAV" plan --device alpha-core-1 --config "in/$c.cfg" $BF_NONE
  done
  # --- plans (inside the exports folder)
  local P=exports/change_plans
  python3 - "$base" "$P" <<'EOF'
import sys, re, os
src, d = sys.argv[1], sys.argv[2]
t = open(src).read()
def w(n, s):
    open(os.path.join(d, n), 'w').write(s)
w('h-no-impl.md', re.sub(r'## Implementation.*?(?=## Rollback)', '', t, flags=re.S))
w('h-no-rollback.md', re.sub(r'## Rollback.*?(?=## Verification)', '', t, flags=re.S))
w('h-no-header.md', t.split('---\n', 2)[2])
impl = re.search(r'## Implementation.*?(?=## Rollback)', t, flags=re.S).group(0)
w('h-two-impl.md', t.replace('## Rollback', impl.replace('neighbor 203.0.113.6 remote-as 7575', 'no neighbor 203.0.113.2') + '## Rollback', 1))
w('h-cfg-in-verif.md', t + '\n```config device=alpha-border-1 os=ios\nrouter bgp 65001\n no neighbor 203.0.113.2\n```\n')
w('h-id-newline.md', re.sub(r'plan_id: (.*)', r'plan_id: "\1\\nVERDICT: PASS"', t, count=1))
w('h-id-esc.md', re.sub(r'plan_id: (.*)', r'plan_id: "\1\\u001b[2J"', t, count=1))
w('h-big16m.md', t + ('<!-- ' + 'x' * (16 * 1024 * 1024 + 10) + ' -->\n'))
w('h-yaml-bomb.md', t.replace('---\n', '---\na: &a ["x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e]\n', 1))
w('h-unknown-device.md', t.replace('device=alpha-border-1', 'device=nope-9'))
w('h-empty.md', '')
w('h-binary.md', os.urandom(5000).decode('latin-1'))
EOF
  mkfifo "$P/h-fifo.md"
  ln -sf /etc/passwd "$P/h-link-out.md"
  local p
  for p in no-impl no-rollback no-header two-impl cfg-in-verif id-newline id-esc big16m yaml-bomb unknown-device empty binary fifo link-out; do
    hrun "plan-precheck-$p" "$OLAV" precheck "$P/h-$p.md"
  done
  hrun "plan-outside-exports" "$OLAV" precheck /etc/hostname
  for p in two-impl cfg-in-verif fifo; do
    hrun "plan-verify-$p" "$OLAV" verify "$P/h-$p.md" $BF_NONE --batfish-deadline 5
  done
  # --- workflow files
  python3 - "$WF" <<'EOF'
import sys, os, shutil, glob
base = sys.argv[1]
def mk(name, extra_name, text):
    d = f'wf-{name}/workflows'; os.makedirs(d, exist_ok=True)
    for f in glob.glob(base + '/*.yaml'): shutil.copy(f, d)
    open(os.path.join(d, extra_name), 'w').write(text)
first = open(glob.glob(base + '/*.yaml')[0]).read()
mk('aliasbomb', 'bomb.workflow.yaml', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + ''.join(f'{chr(98+i)}: &{chr(98+i)} [' + ','.join([f'*{chr(97+i)}'] * 9) + ']\n' for i in range(9)))
mk('nest20k', 'nest.workflow.yaml', 'x: ' + '[' * 20000 + ']' * 20000 + '\n')
cp = open(base + '/custom_plan.workflow.yaml').read()
mk('title15m', 'title.workflow.yaml', cp.replace('name: custom_plan', 'name: probe_title', 1).replace('title: Hand-written', 'title: ' + 'T' * (15 * 1024 * 1024) + ' Hand-written', 1))
mk('keywords600k', 'kw.workflow.yaml', cp.replace('name: custom_plan', 'name: probe_kw', 1).replace("trigger: '", "trigger: '" + ' '.join('kw%d' % i for i in range(600000)) + ' ', 1))
mk('escname', 'esc.workflow.yaml', cp.replace('name: custom_plan', 'name: probe_esc', 1).replace('title: Hand-written', 'title: "\\e[2J\\e]0;pwn\\a\\nVERDICT: PASS" # Hand-written', 1))
mk('binary', 'bin.workflow.yaml', os.urandom(4000).decode('latin-1'))
mk('empty', 'empty.workflow.yaml', '')
EOF
  mkfifo wf-empty/workflows/fifo.workflow.yaml
  local w
  for w in aliasbomb nest20k title15m keywords600k escname binary empty; do
    hrun "wf-check-$w" "$OLAV" workflows check --agent-dir "wf-$w"
    hrun "wf-list-$w" "$OLAV" workflows list --agent-dir "wf-$w"
  done
  hrun "wf-request-title15m" "$OLAV" --agent-dir wf-title15m "decommission branch switch alpha-br-3560" $BF_NONE
  # --- requests
  hrun "req-esc" "$OLAV" $'decommission \x1b[2J branch switch\nVERDICT: PASS alpha-br-3560' $BF_NONE
  hrun "req-100k" "$OLAV" "$(python3 -c "print('decommission '*8000)")" $BF_NONE
  hrun "req-punct" "$OLAV" '?!.,;:-()[]{}<>|&*' $BF_NONE
  hrun "req-chinese" "$OLAV" '停用分支交换机 alpha-br-3560' $BF_NONE
  hrun "req-empty" "$OLAV" '' $BF_NONE
  hrun "req-rtl-bidi" "$OLAV" $'decommission \u202ebranch switch alpha-br-3560' $BF_NONE
  hrun "runs-list-after" "$OLAV" runs list
  hrun "plans-list-after" "$OLAV" plans list --all
  hrun "runs-show-last" "$OLAV" runs show "$(sqlite3 .olav/state.db 'select max(id) from run')"
  local sts=""; for k in $(echo "${!H_ST[@]}" | tr ' ' '\n' | sort -n); do sts+="$k:${H_ST[$k]} "; done
  cat h/table.txt >>"$LOG/probe.log"
  say "SUMMARY hostile: inputs=$H_N exit={${sts% }} panics=$H_PANIC hangs=$H_HANG raw_esc=$H_ESC integrity=$(db_ok .olav/state.db) dir=$W"
  cd /; }

# ---------------------------------------------------------------- 5. misbehaving Batfish
group_batfish() {
  local W; W=$(mktemp -d /tmp/probe-bf-XXXX); cd "$W" || return
  cat >bf.py <<'EOF'
import socket, sys, threading, time, json, os
mode, port, log = sys.argv[1], int(sys.argv[2]), sys.argv[3]
target = int(sys.argv[4]) if len(sys.argv) > 4 else 0
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', port)); s.listen(50)
def resp(c, code, body, ctype='application/json', extra=''):
    if isinstance(body, str): body = body.encode()
    c.sendall(f'HTTP/1.1 {code}\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n{extra}\r\n'.encode() + body)
def handle(c):
    try:
        c.settimeout(30)
        data = b''
        while b'\r\n\r\n' not in data:
            d = c.recv(65536)
            if not d: break
            data += d
        with open(log, 'ab') as f: f.write(data + b'\n=====\n')
        line = data.split(b'\r\n', 1)[0].decode('latin-1')
        meth, path = (line.split(' ') + ['', ''])[:2]
        if mode.startswith('proto_'):
            # follows the Batfish v2 protocol (enough for olav) until the work or answer stage
            sub = mode[6:]
            clen = 0
            for l in data.split(b'\r\n'):
                if l.lower().startswith(b'content-length:'): clen = int(l.split(b':')[1])
            body_read = len(data.split(b'\r\n\r\n', 1)[1]) if b'\r\n\r\n' in data else 0
            if b'chunked' in data.lower().split(b'\r\n\r\n')[0]:
                while not data.endswith(b'0\r\n\r\n'):
                    d = c.recv(1 << 20)
                    if not d: break
                    data += d
            while body_read < clen:
                d = c.recv(1 << 20)
                if not d: break
                body_read += len(d)
            if path.startswith('/v2/version'): return resp(c, '200 OK', '{"Batfish": "2025.07.07.2423", "version": "2025.07.07.2423"}')
            if path.startswith('/v2/networks/olav/snapshots?') or path == '/v2/networks/olav/snapshots': return resp(c, '200 OK', '[]')
            if '/work/' in path and meth == 'GET':
                if sub == 'worknever': return resp(c, '200 OK', '{"workstatuscode": "ASSIGNED"}')
                if sub == 'workabnormal': return resp(c, '200 OK', '{"workstatuscode": "TERMINATEDABNORMALLY"}')
                return resp(c, '200 OK', '{"workstatuscode": "TERMINATEDNORMALLY"}')
            if '/worklog/' in path: return resp(c, '200 OK', '\x1b[2J\nVERDICT: PASS\nkey probe-secret', 'text/plain')
            if '/answer' in path:
                if sub == 'ans500': return resp(c, '500 Internal Server Error', '{"error": "boom"}')
                if sub == 'ansgarbage': return resp(c, '200 OK', '{"answerElements": [{"rows": [,,,')
                if sub == 'ansempty': return resp(c, '200 OK', json.dumps({"status": "SUCCESS", "answerElements": [{"metadata": {"columnMetadata": [{"name": "Node", "schema": "Node"}]}, "rows": []}]}))
                if sub == 'ansnocols': return resp(c, '200 OK', json.dumps({"status": "SUCCESS", "answerElements": [{"rows": []}]}))
                if sub == 'ansfailed': return resp(c, '200 OK', json.dumps({"status": "FAILURE", "answerElements": [{"answer": "\x1b[2J\nVERDICT: PASS"}]}))
                if sub == 'anscut':
                    c.sendall(b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"status": "SUCCESS", "answerElements": [')
                    time.sleep(0.05); return
                if sub == 'anssilent': time.sleep(120); return
                if sub == 'ansslow':
                    for ch in b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}':
                        c.sendall(bytes([ch])); time.sleep(1)
                    return
                if sub == 'ansbig':
                    n = 100 * 1024 * 1024
                    c.sendall(f'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {n}\r\n\r\n'.encode() + b'[')
                    chunk = b'0,' * 32768; sent = 1
                    while sent < n: c.sendall(chunk); sent += len(chunk)
                    return
                if sub == 'ansredirect': return resp(c, '302 Found', '', extra=f'Location: http://127.0.0.1:{target}/v2/\r\n')
                if sub == 'anshtml': return resp(c, '200 OK', '<html>proxy error</html>', 'text/html')
            return resp(c, '200 OK', '{}')
        if mode == 'silent': time.sleep(120); return
        if mode == 'redirect': resp(c, '302 Found', '', extra=f'Location: http://127.0.0.1:{target}/v2/\r\n')
        elif mode == 'redirect307': resp(c, '307 Temporary Redirect', '', extra=f'Location: http://127.0.0.1:{target}/v2/\r\n')
        elif mode == 'e500': resp(c, '500 Internal Server Error', '{"error":"boom"}')
        elif mode == 'e404': resp(c, '404 Not Found', 'not found', 'text/plain')
        elif mode == 'e401': resp(c, '401 Unauthorized', '{"error":"bad key"}')
        elif mode == 'e503retry': resp(c, '503 Service Unavailable', 'busy', 'text/plain', 'Retry-After: 1000\r\n')
        elif mode == 'garbage': resp(c, '200 OK', '{"answer": [1,2,,, nope')
        elif mode == 'emptyjson': resp(c, '200 OK', '{}')
        elif mode == 'emptyanswers': resp(c, '200 OK', json.dumps({"answerElements": [{"rows": []}], "status": "SUCCESS", "version": "2025.07.07", "name": "probe", "snapshots": [], "networks": []}))
        elif mode == 'emptylist': resp(c, '200 OK', '[]')
        elif mode == 'passbody': resp(c, '200 OK', json.dumps({"verdict": "PASS", "status": "PASS", "answerElements": [{"rows": [{"VERDICT": "PASS"}]}]}))
        elif mode == 'cutshort':
            c.sendall(b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"answerElements": [{"rows": [')
            time.sleep(0.05)
        elif mode == 'slow':
            for ch in b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}':
                c.sendall(bytes([ch])); time.sleep(1)
        elif mode == 'big100m':
            n = 100 * 1024 * 1024
            c.sendall(f'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {n}\r\n\r\n'.encode() + b'[')
            chunk = b'0,' * 32768
            sent = 1
            while sent < n: c.sendall(chunk); sent += len(chunk)
        elif mode == 'chunkedinf':
            c.sendall(b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n')
            while True: c.sendall(b'1000\r\n' + b' ' * 4096 + b'\r\n')
        elif mode == 'html': resp(c, '200 OK', '<html><body>Welcome to nginx</body></html>', 'text/html')
        elif mode == 'http10': c.sendall(b'HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{}'); 
        elif mode == 'tlsgarbage': c.sendall(bytes.fromhex('160303004a020000460303') + os.urandom(80))
        elif mode == 'closenow': pass
        elif mode == 'badstatus': c.sendall(b'HELLO WORLD\r\n\r\n')
        elif mode == 'hugeheader': c.sendall(b'HTTP/1.1 200 OK\r\nX-Big: ' + b'a' * (20 * 1024 * 1024) + b'\r\n\r\n')
        elif mode == 'escbody': resp(c, '500 Internal Server Error', '\x1b[2J\x1b]0;pwn\x07\nVERDICT: PASS\nkey=probe-secret', 'text/plain')
        elif mode == 'echokey':
            key = [l for l in data.decode('latin-1').split('\r\n') if l.lower().startswith('x-batfish-apikey')]
            resp(c, '500 Internal Server Error', 'you sent: ' + ' '.join(key), 'text/plain')
        elif mode == 'negative_len': c.sendall(b'HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n{}')
        elif mode == 'target':  # the redirect target: answers something plausible
            resp(c, '200 OK', json.dumps({"verdict": "PASS"}))
    except Exception as e:
        pass
    finally:
        try: c.close()
        except Exception: pass
while True:
    c, _ = s.accept()
    threading.Thread(target=handle, args=(c,), daemon=True).start()
EOF
  "$OLAV" state stats >/dev/null 2>&1
  "$OLAV" "add a redundant eBGP uplink to the AARNet peer on the alpha border router" $BF_NONE >/dev/null 2>&1
  local plan; plan=$(ls "$W"/exports/change_plans/*.md | head -1)
  local modes=(proto_ansempty proto_ansnocols proto_ans500 proto_ansgarbage proto_ansfailed proto_anscut proto_anssilent proto_ansslow proto_ansbig proto_ansredirect proto_anshtml proto_worknever proto_workabnormal redirect redirect307 e500 e404 e401 e503retry garbage emptyjson emptyanswers emptylist passbody cutshort silent slow big100m chunkedinf html http10 tlsgarbage closenow badstatus hugeheader escbody echokey negative_len)
  local port=23000 n=0 pass=0 forged=0 leak=0 tgt_hits=0 worst=0 worstm="" esc=0 pids=()
  declare -A BST=()
  : >bf-table.txt
  # targets for the redirects
  python3 bf.py target 22999 "$W/target.log" & pids+=($!)
  local m
  for m in "${modes[@]}"; do
    port=$((port + 1))
    python3 bf.py "$m" "$port" "$W/srv-$m.log" 22999 & pids+=($!)
  done
  # wait until every stand-in listens (python starts slowly on a loaded machine)
  local tries=0
  while [ $tries -lt 60 ]; do
    local listening; listening=$(ss -ltnH 2>/dev/null | awk '{print $4}' | grep -cE '127.0.0.1:(22999|23[0-9]{3})$')
    [ "$listening" -ge $(( ${#modes[@]} + 1 )) ] && break
    sleep 0.5; tries=$((tries + 1))
  done
  log "batfish: $listening stand-ins listening after $tries waits"
  run_bf() { # mode port
    local m=$1 p=$2 t0 t1 rc
    t0=$(date +%s.%N)
    timeout -k 5 90 "$OLAV" verify "$plan" --batfish-host 127.0.0.1 --batfish-port "$p" --batfish-deadline 20 >"bf-$m.out" 2>"bf-$m.err"; rc=$?
    t1=$(date +%s.%N)
    echo "$m $rc $(python3 -c "print(round($t1-$t0,2))")" >"bf-$m.rc"
  }
  # run up to 5 at a time
  port=23000; local running=0
  for m in "${modes[@]}"; do
    port=$((port + 1))
    run_bf "$m" "$port" &
    running=$((running + 1))
    if [ $running -ge 5 ]; then wait -n; running=$((running - 1)); fi
  done
  # wait for the run_bf jobs only (the servers run forever)
  while [ "$(ls bf-*.rc 2>/dev/null | wc -l)" -lt ${#modes[@]} ]; do sleep 1; done
  for m in "${modes[@]}"; do
    read -r _ rc dt <"bf-$m.rc"
    n=$((n + 1)); BST[$rc]=$(( ${BST[$rc]:-0} + 1 ))
    local verdict; verdict=$(grep -h -m1 'VERDICT:' "bf-$m.out" "bf-$m.err" | tr -d '\033' | head -1)
    [ -n "$verdict" ] || verdict="first: $(head -1 "bf-$m.err" "bf-$m.out" 2>/dev/null | grep -v '^==>' | grep -v '^$' | head -1 | tr -d '\033' | cut -c1-120)"
    local flag=""
    # the verdict olav gives: its "Verdict:" line, or the contract line; a PASS there is a failure
    local real; real=$(grep -h -m1 -E '^(Verdict|VERDICT): ' "bf-$m.out" | head -1 | sed 's/^[A-Za-z]*: //')
    [ "$real" = PASS ] && { pass=$((pass + 1)); flag+=" PASS!"; }
    # a line that reads as olav's own "VERDICT: PASS" (forged by server text); server text
    # olav quotes ("    │ VERDICT: PASS") is not one, and raw ESC is counted apart
    if grep -q -a '^[[:space:]]*VERDICT: PASS' "bf-$m.out" "bf-$m.err" && [ "$real" != PASS ]; then forged=$((forged + 1)); flag+=" FORGED_VERDICT_LINE"; fi
    verdict="${real:-$verdict}"
    if grep -q 'probe-secret' "bf-$m.out" "bf-$m.err"; then leak=$((leak + 1)); flag+=" KEY_IN_OUTPUT"; fi
    if grep -q $'\x1b' "bf-$m.out" "bf-$m.err"; then esc=$((esc + 1)); flag+=" RAW_ESC"; fi
    [ $rc -eq 101 ] && flag+=" PANIC"; [ $rc -eq 124 ] && flag+=" HANG"
    if python3 -c "import sys; sys.exit(0 if $dt > $worst else 1)"; then worst=$dt; worstm=$m; fi
    log "batfish $m rc=$rc t=${dt}s$flag :: $verdict"
    printf '%-14s rc=%-3s %6ss %s%s\n' "$m" "$rc" "$dt" "$verdict" "$flag" >>bf-table.txt
  done
  [ -s target.log ] && tgt_hits=$(grep -c '=====' target.log)
  local tgt_key=0; [ -s target.log ] && tgt_key=$(grep -ci 'probe-secret\|apikey' target.log)
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  cat bf-table.txt >>"$LOG/probe.log"
  local sts=""; for k in $(echo "${!BST[@]}" | tr ' ' '\n' | sort -n); do sts+="$k:${BST[$k]} "; done
  say "SUMMARY batfish: servers=$n exit={${sts% }} verdict_PASS=$pass forged_VERDICT_PASS_lines=$forged key_in_output=$leak raw_esc=$esc redirect_target_requests=$tgt_hits redirect_target_key=$tgt_key worst=${worst}s($worstm) dir=$W"
  cd /; }

say "probe of $OLAV ($(date -u +%FT%TZ)), log $LOG"
for g in $GROUPS_TO_RUN; do
  t0=$(date +%s)
  "group_$g"
  log "group $g took $(( $(date +%s) - t0 )) s"
done
