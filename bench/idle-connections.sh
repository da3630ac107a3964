#!/usr/bin/env bash
# What idle keep-alive clients cost a loaded gateway, in one run: the gateway (its default listener) in front of one
# nginx server, loaded by wrk with 64 keep-alive connections, in phases without and with IDLE (10,000) more clients
# that each made one request and then send nothing, held open. Each round: a phase without, the idle clients opened,
# two phases with, the idle clients closed, a phase without (ABBA); the with/without pairs of a round are compared.
# The gateway's RSS and heap are read before the idle clients open, once they are open, and after they close.
# Needs nginx, wrk and a built jar.
#
#   [WARM=30] [IDLE=10000] bench/idle-connections.sh [SECONDS_PER_PHASE] [ROUNDS]   → bench/results/idle-connections.md
#
# Load and the idle clients on core 0, nginx and the gateway on core 1.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
secs="${1:-15}"
rounds="${2:-3}"
idle="${IDLE:-10000}"
work="$(mktemp -d)"
out="$home/bench/results/idle-connections.md"
LOAD="taskset -c 0"; SERVE="taskset -c 1"
for tool in nginx wrk java taskset jstat; do command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }; done
[ "$(ulimit -n)" -gt $((idle + 1000)) ] || ulimit -n $((idle + 1000))
[ -f "$home/launcher/target/slagate.jar" ] || (cd "$home" && mvn -B -q -DskipTests package)
[ -f "$home/benchmarks/target/benchmarks.jar" ] || (cd "$home" && mvn -B -q -DskipTests -pl benchmarks -am package)

BACKEND=9151
declare -A PORT=([gw]=9152)
declare -A KEYS=([gw]="maxConnections: $((idle + 2000))")
modes=(gw)
export GW_CAP=256 GW_WEIGHTS="premium: 8, basic: 2"
source "$home/bench/common.sh"
require_free_ports $BACKEND 9152 9153
trap stop_bench_processes EXIT
NGINX_PIN="$SERVE" start_nginx "$work" "$BACKEND"
declare -A PID
start_gateways
gw=${PID[gw]}
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$gw/status"; }
heap_kb() { jstat -gc "$gw" | awk 'NR == 2 { printf "%.0f", $3 + $4 + $6 + $8 }'; } # S0U S1U EU OU

echo "warming up for ${WARM:-30} s ..." >&2
run() { wrk_cpu_run "$gw" "${PORT[gw]}" 0 "$1"; }
run "${WARM:-30}" >/dev/null
rows=""; pairs=""; growth=""
phase() { # phase NAME ROUND → a row; the p99 in P
  local rps p99 cpu cpunj errs
  read -r rps p99 cpu cpunj errs <<<"$(run "$secs")"
  echo "round $2 $1: $rps req/s p99 ${p99}ms CPU ${cpu}us/req" >&2
  rows="$rows| $2 | $1 | $rps | $p99 | $cpu | ${errs//_/ } |"$'\n'
  P=$p99
}
for r in $(seq 1 "$rounds"); do
  phase without "$r"; a1=$P
  rss0=$(rss_kb); heap0=$(heap_kb)
  mkfifo "$work/idle-in-$r"
  $LOAD java -cp "$home/benchmarks/target/benchmarks.jar" io.slagate.bench.IdleConnections "${PORT[gw]}" "$idle" \
    < "$work/idle-in-$r" > "$work/idle-$r.out" 2>&1 &
  holder=$!
  exec 7>"$work/idle-in-$r" # keeps the tool's input open until closed below
  for _ in $(seq 1 600); do grep -q '^ready' "$work/idle-$r.out" && break; sleep 0.1; done
  opened=$(awk '/^ready/ {print $2, "open,", $4, "failed"}' "$work/idle-$r.out")
  rss1=$(rss_kb); heap1=$(heap_kb)
  phase "with $idle idle" "$r"; b1=$P
  phase "with $idle idle" "$r"; b2=$P
  exec 7>&-
  wait "$holder" || true
  phase without "$r"; a2=$P
  rss2=$(rss_kb)
  pairs="$pairs $(awk -v b="$b1" -v a="$a1" 'BEGIN { printf "%.4f", b / a }') $(awk -v b="$b2" -v a="$a2" 'BEGIN { printf "%.4f", b / a }')"
  growth="$growth| $r | $opened | $rss0 | $rss1 | $rss2 | $(awk -v a="$rss0" -v b="$rss1" -v n="$idle" 'BEGIN { printf "%.2f", (b - a) / n }') | $heap0 | $heap1 |"$'\n'
done

{
  echo "# Idle keep-alive clients beside a loaded gateway — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/idle-connections.sh $secs $rounds\` (WARM=${WARM:-30}, IDLE=$idle)"
  echo
  commit_measured
  echo
  echo "Machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), Linux $(uname -r); $(java -version 2>&1 | head -1)."
  echo "The gateway on its default client listener (\`$(grep -o '([a-z]* listener' "$work/gw.out" | head -1 | tr -d '(')\`), one nginx server"
  echo "(N_s = $GW_CAP), wrk -t1 -c64 on core 0, the gateway and nginx on core 1. Each round: ${secs} s without, $idle idle clients"
  echo "opened (each made one request, read its answer, then sends nothing), two phases of ${secs} s with them, the idle"
  echo "clients closed, ${secs} s without; the pairs (without, with) and (with, without) of a round compared."
  echo
  echo "The loaded clients' p99 with the idle clients over without, pair by pair: $(paired "$pairs")."
  echo
  echo "| round | phase | req/s | p99 ms | CPU µs/req | errors |"
  echo "| ---: | --- | ---: | ---: | ---: | --- |"
  printf '%s' "$rows"
  echo
  echo "Memory: the gateway's RSS (KiB) before the idle clients opened, once open, after they closed; RSS growth per idle"
  echo "client (KiB); heap used (KiB, jstat: survivors, eden, old) before and once open."
  echo
  echo "| round | idle clients | RSS before | RSS open | RSS after | KiB per idle client | heap before | heap open |"
  echo "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
  printf '%s' "$growth"
} > "$out"
echo "wrote $out" >&2
