#!/usr/bin/env bash
# What garbage collection costs the gateway per request, for each collector, measured from the JVM's own
# accounting (jstat: collections and their total pause time) and the process's CPU (/proc/PID/stat) over
# the same run: one gateway per collector, one after the other, same backend (nginx) and configuration as
# bench/gateway-vs-haproxy.sh (N_s = 256, WRR 8:2). The GC configuration is to be chosen
# by measurement; this is the measurement. Needs nginx and wrk.
#
#   bench/gc-cost.sh [CONNECTIONS] [SECONDS] [ROUNDS]     → bench/results/gc-cost.md (unpinned: the JVM sees both cores,
#                                                           as a deployed gateway does; pinned to one core the JVM picks
#                                                           the serial collector by itself)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
conns="${1:-64}"
secs="${2:-20}"
rounds="${3:-2}"
work="$(mktemp -d)"
out="$home/bench/results/gc-cost.md"
COLLECTORS=(-XX:+UseG1GC -XX:+UseParallelGC -XX:+UseSerialGC)
for tool in nginx wrk java jstat; do command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }; done
[ -f "$home/launcher/target/slagate.jar" ] || (cd "$home" && mvn -B -q -DskipTests package)
BACKEND=9101 GATEWAY=9103 ADMIN=9104
source "$home/bench/common.sh"
require_free_ports $BACKEND $GATEWAY $ADMIN
trap stop_bench_processes EXIT
export GW_CAP=256 GW_WEIGHTS="premium: 8, basic: 2"
start_nginx "$work" "$BACKEND"
gateway_yaml bench "$GATEWAY" "$ADMIN" "$BACKEND" > "$work/slagate.yaml"

gc() { # pid → "young full pause_seconds" (jstat -gc, by column name)
  jstat -gc "$1" | awk 'NR==1 { for (i=1;i<=NF;i++) col[$i]=i } NR==2 { print $col["YGC"], $col["FGC"], $col["GCT"] }'
}
load() { wrk -t2 -c"$conns" -d"$1"s -s "$home/bench/post.lua" "http://127.0.0.1:$GATEWAY"; }
rows=""
for r in $(seq 1 "$rounds"); do
  order=("${COLLECTORS[@]}"); [ $((r % 2)) -eq 0 ] && order=($(printf '%s\n' "${COLLECTORS[@]}" | tac))
  for opt in "${order[@]}"; do
    java ${JAVA_OPTS:-} "$opt" -jar "$home/launcher/target/slagate.jar" gateway --config "$work/slagate.yaml" > "$work/gateway.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$ADMIN/ready" >/dev/null && break; sleep 0.1; done
    load 20 >/dev/null # warm-up
    read -r y1 f1 t1 < <(gc "$pid"); c1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    o=$(load "$secs")
    read -r y2 f2 t2 < <(gc "$pid"); c2=$(awk '{print $14 + $15}' "/proc/$pid/stat")
    kill "$pid"; wait "$pid" 2>/dev/null || true
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$o")
    row=$(awk -v r="$rps" -v s="$secs" -v y=$((y2 - y1)) -v f=$((f2 - f1)) -v t="$(awk -v a="$t1" -v b="$t2" 'BEGIN{print b-a}')" \
      -v c=$((c2 - c1)) -v hz="$(getconf CLK_TCK)" 'BEGIN { n = r * s;
        printf "%.0f | %d | %d | %.3f | %.3f | %.1f | %.2f%%", r, y, f, t * 1000 / (y + f > 0 ? y + f : 1), t * 1e6 / n, c / hz * 1e6 / n, 100 * t / (c / hz) }')
    echo "round $r $opt: $row" >&2
    rows="$rows| $r | \`$opt\` | $row |"$'\n'
  done
done
{
  echo "# GC cost per request — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/gc-cost.sh $conns $secs $rounds\` on $(nproc) cores ($(java -version 2>&1 | head -1)), unpinned;"
  echo "wrk -t2 -c$conns, ${secs}s measured after 20s of warm-up, one fresh gateway per collector and round (default heap)."
  echo "Pause time from jstat's GCT (stop-the-world time; G1's concurrent work is in the CPU column only), CPU from"
  echo "/proc/PID/stat, both per request completed."
  echo
  commit_measured
  echo
  echo "| round | collector | req/s | young GCs | full GCs | mean pause ms | pause µs per request | CPU µs per request | pauses / CPU |"
  echo "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  printf "%s" "$rows"
} > "$out"
cat "$out"
