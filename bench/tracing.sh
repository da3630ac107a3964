#!/usr/bin/env bash
# What spans cost per request, in one run: three gateways doing the gateway-vs-haproxy job (one nginx server with
# N_s = 256, two classes by SOAPAction, WRR 8:2, two customers by HTTP Basic) — tracing off, 10% of the requests
# traced, every request traced — loaded in turn by wrk with 64 keep-alive connections. The spans go over OTLP/HTTP to
# the same nginx (it answers any POST 200, as a collector would). Needs nginx, wrk and a built jar.
#
#   [WARM=60] bench/tracing.sh [SECONDS_PER_RUN] [ROUNDS]   wrk -t1 on core 0; nginx and the gateways on core 1
#                                                → bench/results/tracing.md
#
# Each gateway is warmed up for WARM seconds; the modes' order is reversed every other round (ABBA); every round is kept.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
secs="${1:-10}"
rounds="${2:-4}"
work="$(mktemp -d)"
out="$home/bench/results/tracing.md"
LOAD="taskset -c 0"; SERVE="taskset -c 1"
for tool in nginx wrk java taskset; do command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }; done
[ -f "$home/launcher/target/slagate.jar" ] || (cd "$home" && mvn -B -q -DskipTests package)

BACKEND=9141
declare -A PORT=([off]=9142 [ratio-0.1]=9144 [ratio-1]=9146)
collector="endpoint: \"http://127.0.0.1:$BACKEND/v1/traces\""
declare -A KEYS=([off]="" [ratio-0.1]="tracing: { $collector, sampling: 0.1 }" [ratio-1]="tracing: { $collector, sampling: 1 }")
modes=(off ratio-0.1 ratio-1)
export GW_CAP=256 GW_WEIGHTS="premium: 8, basic: 2" CUSTOMERS=2
source "$home/bench/common.sh"
require_free_ports $BACKEND 9142 9143 9144 9145 9146 9147
trap stop_bench_processes EXIT
NGINX_PIN="$SERVE" start_nginx "$work" "$BACKEND"

declare -A PID
start_gateways
run() { wrk_cpu_run "${PID[$1]}" "${PORT[$1]}" 0 "$2"; }
declare -A RPS P99 CPU CPUNJ
run_modes_abba "$secs" "$rounds"

thread_us() { # CPU µs of the threads named $2 of process $1, all so far
  local t s=0; for t in /proc/"$1"/task/*; do [ "$(cat "$t/comm" 2>/dev/null)" = "$2" ] && s=$((s + $(awk '{print $14 + $15}' "$t/stat"))); done
  awk -v s="$s" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.0f", s * 1e6 / hz }'
}
answered() { curl -s "http://127.0.0.1:$(( PORT[$1] + 1 ))/metrics" | awk '/^slagate_requests_completed_total/ { s += $2 } END { print s + 0 }'; }
spans() { curl -s "http://127.0.0.1:$(( PORT[$1] + 1 ))/metrics" | awk -v o="$2" '$1 ~ "^slagate_tracing_spans_total" && $1 ~ "outcome=\"" o "\"" {print $2}'; }
{
  echo "# What spans cost per request, beside tracing off — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/tracing.sh $secs $rounds\`"
  echo
  commit_measured
  echo
  echo "Machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), Linux $(uname -r);"
  echo "$(java -version 2>&1 | head -1); nginx $(nginx -v 2>&1 | awk -F/ '{print $2}'); $(wrk -v 2>&1 | head -1 | awk '{print $1, $2}')."
  echo "Pinned: wrk -t1 -c64 on core 0; nginx (the server and the collector stand-in) and the three gateways on core 1 (all run,"
  echo "one is loaded at a time). The job of bench/gateway-vs-haproxy.sh (one server, N_s = $GW_CAP, two classes by SOAPAction,"
  echo "WRR 8:2), two customers (HTTP Basic), 64 keep-alive connections, no client trace context: the gateway samples by ratio."
  echo "Each gateway warmed up for ${WARM:-60} s, then ${secs}s per run, $rounds rounds, the order reversed every other round."
  echo "CPU per request: the gateway's own utime + stime (every thread, the exporter's among them) over the requests wrk"
  echo "completed; \"without the JIT\" leaves out the C1/C2 compiler threads."
  echo
  echo "## Means [min..max] over the rounds"
  echo
  modes_means_table "tracing"
  echo
  for m in ratio-0.1 ratio-1; do
    echo "Spans $m: exported $(spans "$m" exported), dropped with the queue full $(spans "$m" dropped-queue-full), dropped by a failed export $(spans "$m" dropped-export-failed);"
    echo "the exporter's thread (encoding and sending) took $(awk -v u="$(thread_us "${PID[$m]}" slagate-spans)" -v n="$(answered "$m")" 'BEGIN { printf "%.2f", u / n }') µs per request answered, warm-up included."
  done
  echo
  echo "## Every round"
  echo
  echo "| round | tracing | req/s | CPU µs/req | without the JIT | p99 ms | errors |"
  echo "| ---: | --- | ---: | ---: | ---: | ---: | --- |"
  printf '%s' "$rows"
} > "$out"
echo "wrote $out" >&2
