#!/usr/bin/env bash
# Two builds of the gateway doing the same job in the same rounds, on each client listener: CPU per request (utime +
# stime from /proc over the requests wrk completed), throughput, and bytes allocated per request (async-profiler's
# allocation samples over one run per target). nginx and the four gateways pinned on core 1, wrk on core 0, 64
# connections, the targets' order reversed every other round (ABBA). Written to bench/results/build-ab.md.
#   bench/build-ab.sh BEFORE_JAR [AFTER_JAR] [ROUNDS] [SECS]   (AFTER_JAR: launcher/target/slagate.jar)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
before="${1:?usage: bench/build-ab.sh BEFORE_JAR [AFTER_JAR] [ROUNDS] [SECS]}"
after="${2:-$home/launcher/target/slagate.jar}"
rounds="${3:-6}" secs="${4:-10}"
for tool in nginx wrk java taskset jcmd; do command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }; done
[ -f "$after" ] || (cd "$home" && mvn -B -q -DskipTests package)
work="$(mktemp -d)"
out="$home/bench/results/build-ab.md"
BACKEND=9401
source "$home/bench/common.sh"
export GW_CAP=256 GW_WEIGHTS="premium: 8, basic: 2"
targets=(before-jetty after-jetty before-relay after-relay)
declare -A PORT=([before-jetty]=9402 [after-jetty]=9404 [before-relay]=9406 [after-relay]=9408) PID JAR=([before]="$before" [after]="$after")
require_free_ports $BACKEND 9402 9403 9404 9405 9406 9407 9408 9409
trap stop_bench_processes EXIT
NGINX_PIN="taskset -c 1" start_nginx "$work" "$BACKEND"
declare -A KEYS JARS
for t in "${targets[@]}"; do
  KEYS[$t]="listener: ${t#*-}" # named either way: the two builds may default differently
  JARS[$t]="${JAR[${t%%-*}]}"
done
modes=("${targets[@]}")
SERVE="taskset -c 1" start_gateways
hz=$(getconf CLK_TCK)
load() { taskset -c 0 wrk -t1 -c64 -d"$2"s -s "$home/bench/post.lua" "http://127.0.0.1:${PORT[$1]}" 2>&1; }
echo "warming up each gateway for 20 s ..." >&2
for t in "${targets[@]}"; do load "$t" 20 >/dev/null; done

# bytes allocated per request: async-profiler's allocation samples (total bytes) over one run per target
agent=$(async_profiler)
declare -A ALLOC
for t in "${targets[@]}"; do
  jcmd "${PID[$t]}" JVMTI.agent_load "$agent" '"start,event=alloc,interval=64k"' >/dev/null
  o=$(load "$t" 8)
  jcmd "${PID[$t]}" JVMTI.agent_load "$agent" "\"stop,file=$work/$t.alloc,collapsed,total\"" >/dev/null
  ALLOC[$t]=$(awk -v r="$(awk '/requests in/ {print $1}' <<<"$o")" '{b += $NF} END {printf "%.0f", b / r}' "$work/$t.alloc")
done

declare -A CPU RPS
rows=""
for r in $(seq 1 "$rounds"); do
  order=("${targets[@]}"); [ $((r % 2)) -eq 0 ] && order=($(printf '%s\n' "${targets[@]}" | tac))
  for t in "${order[@]}"; do
    c1=$(awk '{print $14 + $15}' "/proc/${PID[$t]}/stat")
    o=$(load "$t" "$secs")
    c2=$(awk '{print $14 + $15}' "/proc/${PID[$t]}/stat")
    n=$(awk '/requests in/ {print $1}' <<<"$o"); rps=$(awk '/Requests\/sec/ {print $2}' <<<"$o")
    errs=$(awk '/Non-2xx|Socket errors/ {print}' <<<"$o" | tr '\n' ' ')
    cpu=$(awk -v t=$((c2 - c1)) -v hz="$hz" -v n="$n" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }')
    echo "round $r $t: $rps req/s, $cpu µs/req ${errs:+($errs)}" >&2
    rows="$rows| $r | $t | $rps | $cpu | ${errs:-none} |"$'\n'
    CPU[$t]="${CPU[$t]:-} $cpu"; RPS[$t]="${RPS[$t]:-} $rps"
  done
done
# per round, after / before on each listener (the pair ran back to back)
pairs() { awk -v a="$1" -v b="$2" -v n="$rounds" -F'|' '{gsub(/ /, "", $2); gsub(/ /, "", $3); if ($3 == a) x[$2] = $5; if ($3 == b) y[$2] = $5}
  END {for (r = 1; r <= n; r++) printf "%.2f ", y[r] / x[r]}' <<<"$rows"; }
{
  echo "# One build against another, same rounds — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/build-ab.sh $(basename "$before") $(basename "$after") $rounds $secs\`; before \`$before\`, after \`$after\`."
  echo
  commit_measured
  echo
  echo "nginx and the four gateways on core 1, wrk -t1 -c64 on core 0, $secs s per run, $rounds rounds, the order reversed every"
  echo "other round; CPU per request from /proc (utime + stime) over the requests wrk completed; allocation from"
  echo "async-profiler's allocation samples over one 8 s run per target after a 20 s warm-up."
  echo
  echo "| target | req/s | CPU µs/req | bytes allocated per request |"
  echo "| --- | ---: | ---: | ---: |"
  for t in "${targets[@]}"; do echo "| $t | $(spread "${RPS[$t]}") | $(spread "${CPU[$t]}") | ${ALLOC[$t]} |"; done
  echo
  for l in jetty relay; do
    p=$(pairs "before-$l" "after-$l")
    echo "- $l listener, after / before CPU per request, per round: $p(mean $(meanf "$p"))"
  done
  echo
  echo "## Every run"
  echo
  echo "| round | target | req/s | CPU µs/req | errors |"
  echo "| ---: | --- | ---: | ---: | --- |"
  printf "%s" "$rows"
} > "$out"
cat "$out"
