#!/usr/bin/env bash
# What one request costs the gateway, measured rather than inferred from throughput (which is noisy on
# a small shared machine): CPU (user and kernel), system calls by kind, context switches and new
# upstream connections per request, at a fixed number of connections, with perf stat on the gateway's
# process. Two gateways, measured in alternating rounds so both see the same machine: slagate's own
# upstream leg (the default) and Jetty's HttpClient (-Dslagate.upstream=httpclient). Same backend
# (nginx) and gateway configuration as bench/gateway-vs-haproxy.sh. Needs nginx, wrk and perf
# (Debian: apt-get install nginx-light wrk linux-perf) and root (or perf_event_paranoid<=1).
#
#   bench/gateway-cpu.sh [CONNECTIONS] [ROUNDS]          → bench/results/gateway-cpu.md (WARMUP=40 seconds first)
#   BEFORE_JAR=old.jar bench/gateway-cpu.sh [CONNECTIONS] [ROUNDS]
#                                                       → bench/results/gateway-cpu-before-after.md: the same measurement,
#                                                         an older build (e.g. the commit before a change) against this one
#   COMPARE='requestBufferBytes: 2KiB' bench/gateway-cpu.sh ...
#                                                       → bench/results/gateway-cpu-compare.md: this build with its defaults
#                                                         against the same build with those gateway keys added
#   COMPARE_JAVA='-XX:+UseSerialGC' bench/gateway-cpu.sh ...
#                                                       → bench/results/gateway-cpu-compare-java.md: this build against itself with
#                                                         those JVM options added
#   UNPINNED=1 (with any of the above): no taskset, every process on both cores (results in ...-unpinned.md)
#   BODY_BYTES=N (with any of the above): requests with an N-byte SOAP body (default 223), results in ...-bodyN.md
#
# The system-call tracepoints slow the gateway by a few percent: compare runs of this script with each
# other, and take throughput figures from bench/gateway-vs-haproxy.sh.
# Processes are pinned (taskset): the gateways and nginx on core 1, wrk on core 0. Unpinned, the same
# jar measured 35 and 52 µs per request in one run (where the scheduler put it); pinned, the legs compare.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
conns="${1:-64}"
rounds="${2:-2}"
secs=8
work="$(mktemp -d)"
out="$home/bench/results/gateway-cpu.md"
A=direct; B=httpclient
declare -A JAR=([direct]="$home/launcher/target/slagate.jar" [httpclient]="$home/launcher/target/slagate.jar")
declare -A EXTRA=()
if [ -n "${BEFORE_JAR:-}" ]; then
  A=after; B=before; out="$home/bench/results/gateway-cpu-before-after.md"
  JAR=([after]="$home/launcher/target/slagate.jar" [before]="$BEFORE_JAR")
elif [ -n "${COMPARE:-}" ]; then
  A=default; B=compare; out="$home/bench/results/gateway-cpu-compare.md"
  JAR=([default]="$home/launcher/target/slagate.jar" [compare]="$home/launcher/target/slagate.jar")
  EXTRA[compare]="$COMPARE"
elif [ -n "${COMPARE_JAVA:-}" ]; then
  A=default; B=compare; out="$home/bench/results/gateway-cpu-compare-java.md"
  JAR=([default]="$home/launcher/target/slagate.jar" [compare]="$home/launcher/target/slagate.jar")
fi
LOAD="taskset -c 0"; SERVE="taskset -c 1"
if [ "${UNPINNED:-0}" = 1 ]; then LOAD=""; SERVE=""; out="${out%.md}-unpinned.md"; fi
export BODY_BYTES="${BODY_BYTES:-0}"
[ "$BODY_BYTES" != 0 ] && out="${out%.md}-body$BODY_BYTES.md"
for tool in nginx wrk perf java; do command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }; done
[ -f "$home/launcher/target/slagate.jar" ] || (cd "$home" && mvn -B -q -DskipTests package)

BACKEND=9101
declare -A PORT=([$A]=9103 [$B]=9105) ADMIN=([$A]=9104 [$B]=9106) OPTS=([$A]="" [$B]="") PID=()
[ "$B" = httpclient ] && OPTS[httpclient]="-Dslagate.upstream=httpclient"
[ -n "${COMPARE_JAVA:-}" ] && OPTS[compare]="$COMPARE_JAVA"
source "$home/bench/common.sh"
require_free_ports $BACKEND 9103 9104 9105 9106
trap stop_bench_processes EXIT
# the job of bench/gateway-vs-haproxy.sh: N_s = 256, WRR 8:2 (results before 2026-11-26 had N_s = 64, 40:24)
export GW_CAP="${GW_CAP:-256}" GW_WEIGHTS="${GW_WEIGHTS:-premium: 8, basic: 2}"
NGINX_PIN="$SERVE" start_nginx "$work" "$BACKEND"
for leg in $A $B; do
gateway_yaml "$leg" "${PORT[$leg]}" "${ADMIN[$leg]}" "$BACKEND" "${EXTRA[$leg]:-}" > "$work/$leg.yaml"
$SERVE java ${JAVA_OPTS:-} ${OPTS[$leg]} -jar "${JAR[$leg]}" gateway --config "$work/$leg.yaml" > "$work/$leg.log" 2>&1 &
PID[$leg]=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:${ADMIN[$leg]}/ready" >/dev/null && break; sleep 0.1; done
done
echo "warming up both JVMs ..." >&2
for leg in $A $B; do
  $LOAD wrk -t2 -c"$conns" -d"${WARMUP:-40}s" -s "$home/bench/post.lua" "http://127.0.0.1:${PORT[$leg]}" >/dev/null
done

events=task-clock,context-switches,raw_syscalls:sys_enter
for s in read write writev epoll_wait epoll_ctl futex connect; do events="$events,syscalls:sys_enter_$s"; done
ticks=$(getconf CLK_TCK)
rows=""
declare -A CPU
for r in $(seq 1 "$rounds"); do
  order=($A $B); [ $((r % 2)) -eq 0 ] && order=($B $A)
  for leg in "${order[@]}"; do
    gw=${PID[$leg]}
    perf stat -e "$events" -p "$gw" -o "$work/perf.txt" -- sleep "$secs" >/dev/null 2>&1 &
    perf_pid=$!
    read -r ut1 st1 < <(awk '{print $14, $15}' "/proc/$gw/stat")
    o=$($LOAD wrk -t2 -c"$conns" -d"${secs}s" --latency -s "$home/bench/post.lua" "http://127.0.0.1:${PORT[$leg]}")
    wait "$perf_pid"
    read -r ut2 st2 < <(awk '{print $14, $15}' "/proc/$gw/stat")
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$o")
    n=$(awk -v r="$rps" -v s="$secs" 'BEGIN { print r * s }')
    per() { awk -v v="$1" -v n="$n" -v k="${2:-1}" 'BEGIN { printf "%.2f", v * k / n }'; }
    ev() { awk -v e="$1" '$2 == e || $3 == e { gsub(",", "", $1); print $1 }' "$work/perf.txt"; }
    cpu=$(per "$(ev task-clock)" 1000)
    user=$(per $((ut2 - ut1)) $((1000000 / ticks)))
    sys=$(per $((st2 - st1)) $((1000000 / ticks)))
    row="| $r | $leg | $rps | $cpu | $user | $sys | $(per "$(ev raw_syscalls:sys_enter)") | $(per "$(ev syscalls:sys_enter_read)") | $(per "$(ev syscalls:sys_enter_writev)")"
    row="$row | $(per "$(ev syscalls:sys_enter_epoll_ctl)") | $(per "$(ev syscalls:sys_enter_futex)") | $(per "$(ev context-switches)") | $(per "$(ev syscalls:sys_enter_connect)") |"
    echo "round $r $leg: $rps req/s, $cpu us CPU per request (user $user, kernel $sys)" >&2
    rows="$rows$row"$'\n'
    CPU[$leg]="${CPU[$leg]:-} $cpu"
  done
done

{
  echo "# Gateway cost per request — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`${BEFORE_JAR:+BEFORE_JAR=$BEFORE_JAR }${COMPARE:+COMPARE='$COMPARE' }${COMPARE_JAVA:+COMPARE_JAVA='$COMPARE_JAVA' }$([ "${UNPINNED:-0}" = 1 ] && echo "UNPINNED=1 ")$([ "$BODY_BYTES" != 0 ] && echo "BODY_BYTES=$BODY_BYTES ")bench/gateway-cpu.sh $conns $rounds\` on $(nproc) cores ($(java -version 2>&1 | head -1)); two gateways ($A, $B),"
  echo "warmed ${WARMUP:-40}s each, measured in alternating rounds; one server with N_s = $GW_CAP, WRR $GW_WEIGHTS;"
  echo "$([ "${UNPINNED:-0}" = 1 ] && echo "unpinned (every process on both cores)" || echo "gateways and nginx pinned to core 1, wrk to core 0"); wrk -t2 -c$conns, ${secs}s per round, perf stat on the gateway process (tracepoints on, so a few percent slower"
  echo "than \`bench/gateway-vs-haproxy.sh\`). Per request: CPU in µs (user and kernel from /proc), system calls, context"
  echo "switches, new upstream connections (\`connect\`)."
  echo
  commit_measured
  echo
  echo "| round | leg | req/s | CPU µs | user µs | kernel µs | syscalls | read | writev | epoll_ctl | futex | ctx switches | connect |"
  echo "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  printf "%s" "$rows"
  echo
  echo "Mean CPU per request: $A $(mean "${CPU[$A]}") µs, $B $(mean "${CPU[$B]}") µs."
} > "$out"
echo "wrote $out" >&2
