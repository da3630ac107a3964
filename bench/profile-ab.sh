#!/usr/bin/env bash
# Two builds of the gateway profiled in the same rounds: the share of CPU samples (async-profiler, cpu, 200 µs) under
# chosen stacks, for a change too small for CPU per request to resolve on a shared machine (bench/build-ab.sh) but
# visible in where the samples fall. nginx and both gateways pinned on core 1, wrk -t1 -c64 on core 0, the order
# reversed every other round (ABBA). Written to bench/results/$OUT.md (OUT=profile-ab by default); the collapsed stacks
# stay in a temp dir.
#   bench/profile-ab.sh BEFORE_JAR AFTER_JAR LISTENER ROUNDS SECS SPEC...
# LISTENER: jetty or relay. SPEC: label=A+B-C counts the samples whose stack holds frames matching A and B (substrings)
# and none matching C; e.g. 'head=RequestHead.read' 'readCopy=RelayConnection.fill+IOUtil.read-readIntoNativeBuffer'.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage="usage: bench/profile-ab.sh BEFORE_JAR AFTER_JAR jetty|relay ROUNDS SECS SPEC..."
before="${1:?$usage}" after="${2:?$usage}" listener="${3:?$usage}" rounds="${4:?$usage}" secs="${5:?$usage}"
shift 5
[ $# -gt 0 ] || { echo "$usage" >&2; exit 1; }
specs=("$@")
for tool in nginx wrk java taskset jcmd; do command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }; done
work="$(mktemp -d)"
out="$home/bench/results/${OUT:-profile-ab}.md"
BACKEND=9411
source "$home/bench/common.sh"
export GW_CAP=256 GW_WEIGHTS="premium: 8, basic: 2"
modes=(before after)
declare -A PORT=([before]=9412 [after]=9414) PID JARS=([before]="$before" [after]="$after") KEYS
for m in "${modes[@]}"; do KEYS[$m]="listener: $listener"; done # named either way: the two builds may default differently
require_free_ports $BACKEND 9412 9413 9414 9415
trap stop_bench_processes EXIT
agent=$(async_profiler)
NGINX_PIN="taskset -c 1" start_nginx "$work" "$BACKEND"
SERVE="taskset -c 1" start_gateways
load() { taskset -c 0 wrk -t1 -c64 -d"$2"s -s "$home/bench/post.lua" "http://127.0.0.1:${PORT[$1]}" 2>&1; }
echo "warming up each gateway for 20 s ..." >&2
for m in "${modes[@]}"; do load "$m" 20 >/dev/null; done

# share FILE: the user share, then each spec's share of the samples, in percent
share() {
  awk -v specs="${specs[*]}" '
    BEGIN { n = split(specs, s, " "); for (i = 1; i <= n; i++) { split(s[i], kv, "="); label[i] = kv[1]; spec[i] = kv[2] } }
    { w = $NF; total += w; k = split($1, f, ";"); if (f[k] !~ /_\[k\]$/) user += w
      for (i = 1; i <= n; i++) {
        m = split(spec[i], parts, /[+-]/); rest = spec[i]; ok = 1
        for (j = 1; j <= m; j++) {
          op = (j == 1) ? "+" : substr(rest, 1, 1); if (j > 1) rest = substr(rest, 2)
          rest = substr(rest, length(parts[j]) + 1)
          has = index($1, parts[j]) > 0
          if ((op == "+" && !has) || (op == "-" && has)) { ok = 0; break }
        }
        if (ok) hit[i] += w
      } }
    END { printf "%.2f", 100 * user / total; for (i = 1; i <= n; i++) printf " %.2f", 100 * hit[i] / total }' "$1"
}

declare -A VALUES RPS
rows=""
for r in $(seq 1 "$rounds"); do
  order=("${modes[@]}"); [ $((r % 2)) -eq 0 ] && order=(after before)
  for m in "${order[@]}"; do
    jcmd "${PID[$m]}" JVMTI.agent_load "$agent" '"start,event=cpu,interval=200us"' >/dev/null
    o=$(load "$m" "$secs")
    jcmd "${PID[$m]}" JVMTI.agent_load "$agent" "\"stop,file=$work/$m-$r.cpu,collapsed\"" >/dev/null
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$o")
    v=$(share "$work/$m-$r.cpu")
    echo "round $r $m: $rps req/s, user and specs: $v" >&2
    rows="$rows| $r | $m | $rps | $(sed 's/ / | /g' <<<"$v") |"$'\n'
    RPS[$m]="${RPS[$m]:-} $rps"
    i=0
    for x in $v; do VALUES[$m,$i]="${VALUES[$m,$i]:-} $x"; i=$((i + 1)); done
  done
done
labels="user"; for s in "${specs[@]}"; do labels="$labels ${s%%=*}"; done
{
  echo "# Where the samples fall, one build against another — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`${OUT:+OUT=$OUT }bench/profile-ab.sh $(basename "$before") $(basename "$after") $listener $rounds $secs$(printf " '%s'" "${specs[@]}")\`;"
  echo "before \`$before\`, after \`$after\`, \`gateway.listener: $listener\`."
  echo
  commit_measured
  echo
  echo "nginx and both gateways on core 1, wrk -t1 -c64 on core 0, $secs s per profiled run after a 20 s warm-up each,"
  echo "$rounds rounds, the order reversed every other round; async-profiler cpu samples every 200 µs. Each column is the share"
  echo "of all samples (kernel included) whose stack matches the spec; \`user\` is the share whose top frame is not the kernel's."
  echo
  echo "| spec | before | after |"
  echo "| --- | ---: | ---: |"
  i=0
  for l in $labels; do
    echo "| $l | $(spreadf "${VALUES[before,$i]}") | $(spreadf "${VALUES[after,$i]}") |"
    i=$((i + 1))
  done
  echo "| req/s | $(spread "${RPS[before]}") | $(spread "${RPS[after]}") |"
  echo
  echo "Specs:$(printf " \`%s\`" "${specs[@]}")"
  echo
  echo "## Every run"
  echo
  echo "| round | build | req/s | $(tr ' ' '|' <<<"$labels" | sed 's/|/ | /g') |"
  echo "| ---: | --- | ---: |$(for _ in $labels; do printf ' ---: |'; done)"
  printf "%s" "$rows"
} > "$out"
cat "$out"
