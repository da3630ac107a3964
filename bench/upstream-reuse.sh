#!/usr/bin/env bash
# What each gateway.upstreamReuse mode costs per request, beside `shared`, in one run: three gateways
# (shared, customer, client-connection) doing the gateway-vs-haproxy job (one nginx server with N_s = 256,
# two classes by SOAPAction, WRR 8:2), loaded in turn by wrk with 64 connections and two customers
# (HTTP Basic c0, c1), keep-alive and then Connection: close (every request on its own client
# connection: client-connection's worst case, a server connection opened per request). Needs nginx, wrk
# and a built jar (bin/slagate builds it).
#
#   bench/upstream-reuse.sh [SECONDS_PER_RUN] [ROUNDS]   wrk -t1 on core 0; nginx and the gateways on core 1
#                                                        → bench/results/upstream-reuse.md
#
# CPU per request is the gateway's own utime + stime (/proc/PID/stat, all threads) over the requests wrk
# completed. The order of the modes is reversed every other round (ABBA); every round is kept.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
secs="${1:-10}"
rounds="${2:-4}"
work="$(mktemp -d)"
out="$home/bench/results/upstream-reuse.md"
LOAD="taskset -c 0"; SERVE="taskset -c 1"
for tool in nginx wrk java taskset; do command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }; done
[ -f "$home/launcher/target/slagate.jar" ] || (cd "$home" && mvn -B -q -DskipTests package)

BACKEND=9121
declare -A PORT=([shared]=9122 [customer]=9124 [client-connection]=9126)
modes=(shared customer client-connection)
export GW_CAP=256 GW_WEIGHTS="premium: 8, basic: 2"
source "$home/bench/common.sh"
require_free_ports $BACKEND 9122 9123 9124 9125 9126 9127
trap stop_bench_processes EXIT
NGINX_PIN="$SERVE" start_nginx "$work" "$BACKEND"

declare -A PID
for m in "${modes[@]}"; do
  gateway_yaml "$m" "${PORT[$m]}" "$((PORT[$m] + 1))" "$BACKEND" "upstreamReuse: $m" > "$work/$m.yaml"
  $SERVE java ${JAVA_OPTS:-} -XX:+UseG1GC -jar "$home/launcher/target/slagate.jar" gateway --config "$work/$m.yaml" \
    > "$work/$m.log" 2>&1 &
  PID[$m]=$!
done
for m in "${modes[@]}"; do
  for _ in $(seq 1 150); do curl -sf "http://127.0.0.1:$((PORT[$m] + 1))/ready" >/dev/null && break; sleep 0.1; done
  curl -sf "http://127.0.0.1:$((PORT[$m] + 1))/ready" >/dev/null || { echo "gateway $m did not start:" >&2; cat "$work/$m.log" >&2; exit 1; }
done

run() { wrk_cpu_run "${PID[$1]}" "${PORT[$1]}" "$2" "$3"; } # mode close(0|1) secs → "rps p99ms cpu cpu_without_jit errors"

echo "warming up ..." >&2
for m in "${modes[@]}"; do run "$m" 0 10 >/dev/null; run "$m" 1 5 >/dev/null; done

declare -A RPS P99 CPU
rows=""
for r in $(seq 1 "$rounds"); do
  for close in 0 1; do
    order=("${modes[@]}"); [ $((r % 2)) -eq 0 ] && order=(client-connection customer shared)
    for m in "${order[@]}"; do
      read -r rps p99 cpu _ errs <<<"$(run "$m" "$close" "$secs")"
      echo "round $r close=$close $m: $rps req/s p99 ${p99}ms CPU ${cpu}us/req errors: $errs" >&2
      rows="$rows| $r | $([ "$close" = 1 ] && echo close || echo keep-alive) | $m | $rps | $cpu | $p99 | ${errs//_/ } |"$'\n'
      RPS[$m,$close]="${RPS[$m,$close]:-} $rps"; P99[$m,$close]="${P99[$m,$close]:-} $p99"; CPU[$m,$close]="${CPU[$m,$close]:-} $cpu"
    done
  done
done

opened() { curl -s "http://127.0.0.1:$(( PORT[$1] + 1 ))/metrics" | awk '/^slagate_upstream_connections_opened_total/ {print $2}'; }
reused() { curl -s "http://127.0.0.1:$(( PORT[$1] + 1 ))/metrics" | awk '/^slagate_upstream_connections_reused_total/ {print $2}'; }
{
  echo "# gateway.upstreamReuse: the cost of each mode beside shared — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/upstream-reuse.sh $secs $rounds\`"
  echo
  commit_measured
  echo
  echo "Machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), Linux $(uname -r);"
  echo "$(java -version 2>&1 | head -1); nginx $(nginx -v 2>&1 | awk -F/ '{print $2}'); $(wrk -v 2>&1 | head -1 | awk '{print $1, $2}')."
  echo "Pinned: wrk -t1 -c64 on core 0; nginx and the three gateways on core 1 (all run, one is loaded at a time)."
  echo "The job of bench/gateway-vs-haproxy.sh (one server, N_s = $GW_CAP, two classes by SOAPAction, WRR 8:2) with two"
  echo "customers (HTTP Basic c0, c1, alternating). keep-alive: 64 client connections for the whole run; close: every"
  echo "request on its own client connection (\`Connection: close\`). ${secs}s per run, $rounds rounds, the order of the"
  echo "modes reversed every other round. CPU per request: the gateway's own utime + stime over the requests wrk completed."
  echo
  echo "## Means [min..max] over the rounds"
  echo
  echo "| clients | mode | req/s | CPU µs/req | CPU / shared | p99 ms |"
  echo "| --- | --- | ---: | ---: | ---: | ---: |"
  for close in 0 1; do
    base=$(mean "${CPU[shared,$close]}")
    for m in "${modes[@]}"; do
      echo "| $([ "$close" = 1 ] && echo close || echo keep-alive) | $m | $(spread "${RPS[$m,$close]}") | $(spread "${CPU[$m,$close]}") | $(ratio "$(mean "${CPU[$m,$close]}")" "$base") | $(spreadf "${P99[$m,$close]}") |"
    done
  done
  echo
  echo "Server connections over the whole run (warm-up included), from each gateway's /metrics:"
  echo
  echo "| mode | opened | reused |"
  echo "| --- | ---: | ---: |"
  for m in "${modes[@]}"; do echo "| $m | $(opened "$m") | $(reused "$m") |"; done
  echo
  echo "## Every round"
  echo
  echo "| round | clients | mode | req/s | CPU µs/req | p99 ms | errors |"
  echo "| ---: | --- | --- | ---: | ---: | ---: | --- |"
  printf '%s' "$rows"
} > "$out"
echo "wrote $out" >&2
