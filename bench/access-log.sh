#!/usr/bin/env bash
# What the access log costs per request, in one run: three gateways doing the gateway-vs-haproxy job (one
# nginx server with N_s = 256, two classes by SOAPAction, WRR 8:2, two customers by HTTP Basic) — the log
# off, JSON lines to a file, and JSON lines to a file with a trace context started for every request —
# loaded in turn by wrk with 64 keep-alive connections. Needs nginx, wrk and a built jar.
#
#   [WARM=60] bench/access-log.sh [SECONDS_PER_RUN] [ROUNDS]   wrk -t1 on core 0; nginx and the gateways on core 1
#                                                    → bench/results/access-log.md
#
# Each gateway is warmed up for WARM seconds (default 60); the order of the modes is reversed every other round
# (ABBA); every round is kept. CPU is reported with and without the JIT compiler threads.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
secs="${1:-10}"
rounds="${2:-4}"
work="$(mktemp -d)"
out="$home/bench/results/access-log.md"
LOAD="taskset -c 0"; SERVE="taskset -c 1"
for tool in nginx wrk java taskset; do command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }; done
[ -f "$home/launcher/target/slagate.jar" ] || (cd "$home" && mvn -B -q -DskipTests package)

BACKEND=9131
declare -A PORT=([off]=9132 [json]=9134 [json+trace]=9136)
declare -A KEYS=([off]="" [json]="accessLog: { to: \"$work/json.log\" }" [json+trace]="accessLog: { to: \"$work/trace.log\", startTrace: true }")
modes=(off json json+trace)
export GW_CAP=256 GW_WEIGHTS="premium: 8, basic: 2"
source "$home/bench/common.sh"
require_free_ports $BACKEND 9132 9133 9134 9135 9136 9137
trap stop_bench_processes EXIT
NGINX_PIN="$SERVE" start_nginx "$work" "$BACKEND"

declare -A PID
start_gateways
run() { wrk_cpu_run "${PID[$1]}" "${PORT[$1]}" 0 "$2"; }

declare -A RPS P99 CPU CPUNJ
run_modes_abba "$secs" "$rounds"

dropped() { curl -s "http://127.0.0.1:$(( PORT[$1] + 1 ))/metrics" | awk '/^slagate_access_log_dropped_total/ {print $2}'; }
{
  echo "# The access log's cost per request, beside the log off — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/access-log.sh $secs $rounds\`"
  echo
  commit_measured
  echo
  echo "Machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), Linux $(uname -r);"
  echo "$(java -version 2>&1 | head -1); nginx $(nginx -v 2>&1 | awk -F/ '{print $2}'); $(wrk -v 2>&1 | head -1 | awk '{print $1, $2}')."
  echo "Pinned: wrk -t1 -c64 on core 0; nginx and the three gateways on core 1 (all run, one is loaded at a time)."
  echo "The job of bench/gateway-vs-haproxy.sh (one server, N_s = $GW_CAP, two classes by SOAPAction, WRR 8:2), two customers"
  echo "(HTTP Basic), 64 keep-alive connections. Each gateway warmed up for ${WARM:-60} s, then ${secs}s per run, $rounds rounds,"
  echo "the order reversed every other round."
  echo "CPU per request: the gateway's own utime + stime (every thread, the log's writer among them) over the requests wrk completed;"
  echo "\"without the JIT\" leaves out the C1/C2 compiler threads: with a 15 s warm-up they still took up to a fifth of the"
  echo "core in a mode's runs (a cost of the JVM's start, not of a request); after ${WARM:-60} s the two figures should agree."
  echo
  echo "## Means [min..max] over the rounds"
  echo
  modes_means_table "access log"
  echo
  echo "Lines written: json $(wc -l < "$work/json.log" 2>/dev/null || echo 0), json+trace $(wc -l < "$work/trace.log" 2>/dev/null || echo 0); dropped (writer behind): json $(dropped json), json+trace $(dropped json+trace)."
  echo
  echo "## Every round"
  echo
  echo "| round | access log | req/s | CPU µs/req | without the JIT | p99 ms | errors |"
  echo "| ---: | --- | ---: | ---: | ---: | ---: | --- |"
  printf '%s' "$rows"
} > "$out"
echo "wrote $out" >&2
