#!/usr/bin/env bash
# Throughput and latency of the gateway against HAProxy doing the same job, and against the backend
# directly, interleaved in one run on this machine (issue 2's benchmark). Needs nginx, haproxy and wrk
# (Debian: apt-get install nginx-light haproxy wrk) and a built jar (bin/slagate builds it).
#
#   bench/gateway-vs-haproxy.sh [SECONDS_PER_RUN] [ROUNDS]       → bench/results/gateway-vs-haproxy.md
#   PROFILE=1 bench/gateway-vs-haproxy.sh                         also records a JFR profile at 64 connections
#   BASELINE=1 bench/gateway-vs-haproxy.sh                        also Jetty's own reverse proxy (builds benchmarks.jar)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
secs="${1:-10}"
rounds="${2:-2}"
work="$(mktemp -d)"
out="$home/bench/results/gateway-vs-haproxy.md"
raw="$home/bench/results/gateway-vs-haproxy.raw.txt"
for tool in nginx haproxy wrk java; do command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }; done
[ -f "$home/launcher/target/slagate.jar" ] || (cd "$home" && mvn -B -q -DskipTests package)

BACKEND=9101 HAPROXY=9102 GATEWAY=9103 ADMIN=9104 CAP=64
for p in $BACKEND $HAPROXY $GATEWAY $ADMIN; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "port $p is in use; stop what listens there first" >&2; exit 1; fi
done
cleanup() {
  kill $(jobs -p) 2>/dev/null || true
  for pidfile in "$work/nginx.pid" "$work/haproxy.pid"; do [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true; done
}
trap cleanup EXIT

source "$home/bench/common.sh"
start_nginx "$work" "$BACKEND"

# HAProxy doing the gateway's job: one backend server with a concurrency cap (maxconn = N_s) and a queue.
cat > "$work/haproxy.cfg" <<HAP
global
  maxconn 4000
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout queue 30s
  option http-keep-alive
frontend soap
  bind 127.0.0.1:$HAPROXY
  default_backend servers
backend servers
  http-reuse always
  server s1 127.0.0.1:$BACKEND maxconn $CAP
HAP
haproxy -f "$work/haproxy.cfg" -D -p "$work/haproxy.pid"

gateway_yaml bench "$GATEWAY" "$ADMIN" "$BACKEND" > "$work/slagate.yaml"
java ${JAVA_OPTS:-} -jar "$home/launcher/target/slagate.jar" gateway --config "$work/slagate.yaml" > "$work/gateway.log" 2>&1 &
gw_pid=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$ADMIN/ready" >/dev/null && break; sleep 0.1; done

# BASELINE=1: also Jetty's own reverse proxy (same HTTP stack as slagate, none of its logic)
if [ "${BASELINE:-0}" = 1 ]; then
  [ -f "$home/benchmarks/target/benchmarks.jar" ] || (cd "$home" && mvn -B -q -DskipTests -pl benchmarks -am package)
  JETTY=$((GATEWAY + 3))
  java ${JAVA_OPTS:-} -cp "$home/benchmarks/target/benchmarks.jar" io.slagate.bench.JettyProxyBaseline "$JETTY" \
    "http://127.0.0.1:$BACKEND" "$CAP" > "$work/jetty.log" 2>&1 &
  jetty_pid=$!
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$JETTY/" && break; sleep 0.1; done
fi

run() { # name port conns secs → "rps p50ms p99ms"
  local o
  o=$(wrk -t2 -c"$3" -d"$4"s --latency -s "$home/bench/post.lua" "http://127.0.0.1:$2" 2>&1)
  echo "== $1 c=$3" >> "$raw"; echo "$o" >> "$raw"
  local rps p50 p99 errs
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$o")
  p50=$(awk '$1=="50%" {print $2}' <<<"$o")
  p99=$(awk '$1=="99%" {print $2}' <<<"$o")
  errs=$(awk '/Non-2xx|Socket errors/ {print}' <<<"$o" | tr '\n' ' ')
  echo "$rps $(ms "$p50") $(ms "$p99") ${errs:-none}"
}
ms() { # wrk latency (e.g. 812.00us, 1.20ms, 1.01s) → milliseconds
  awk -v v="$1" 'BEGIN { n=v+0; if (v ~ /us$/) n/=1000; else if (v ~ /ms$/) n=n; else if (v ~ /s$/) n*=1000; printf "%.3f", n }'
}

: > "$raw"
echo "warming up the JVM ..." >&2
run warmup "$GATEWAY" 64 15 >/dev/null; run warmup "$GATEWAY" 256 15 >/dev/null
[ "${BASELINE:-0}" = 1 ] && { run warmup "$JETTY" 64 15 >/dev/null; run warmup "$JETTY" 256 15 >/dev/null; }

declare -A RPS P50 P99
for r in $(seq 1 "$rounds"); do
  for c in 16 64 256; do
    order=(direct haproxy gateway); [ $((r % 2)) -eq 0 ] && order=(gateway haproxy direct)
    [ "${BASELINE:-0}" = 1 ] && order+=(jetty)
    for t in "${order[@]}"; do
      case $t in direct) port=$BACKEND;; haproxy) port=$HAPROXY;; gateway) port=$GATEWAY;; jetty) port=$JETTY;; esac
      read -r rps p50 p99 errs <<<"$(run "$t" "$port" "$c" "$secs")"
      echo "round $r c=$c $t: $rps req/s p50 ${p50}ms p99 ${p99}ms errors: $errs" >&2
      RPS[$t,$c]="${RPS[$t,$c]:-} $rps"; P50[$t,$c]="${P50[$t,$c]:-} $p50"; P99[$t,$c]="${P99[$t,$c]:-} $p99"
    done
  done
done

if [ "${PROFILE:-0}" = 1 ]; then
  jcmd "$gw_pid" JFR.start name=bench settings=profile filename="$home/bench/results/gateway-64c.jfr" >/dev/null
  run profile "$GATEWAY" 64 20 >/dev/null
  jcmd "$gw_pid" JFR.stop name=bench >/dev/null
  echo "profile: bench/results/gateway-64c.jfr (summarize with bench/jfr-top.sh)" >&2
fi
curl -s "http://127.0.0.1:$ADMIN/stats" > "$work/stats.json"

{
  echo "# Gateway vs HAProxy vs direct — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/gateway-vs-haproxy.sh $secs $rounds\` on $(nproc) cores ($(java -version 2>&1 | head -1)); wrk -t2, ${secs}s per run,"
  echo "$rounds interleaved rounds (means shown). Backend: nginx, 1 worker, fixed SOAP reply. HAProxy $(haproxy -v | head -1 | awk '{print $3}'):"
  echo "one server with \`maxconn $CAP\` and its queue. slagate: one server with N_s = $CAP, two classes, classification by"
  echo "SOAPAction, WRR queueing, Micrometer timers on. All processes share the same $(nproc) cores."
  echo
  echo "| conns | direct req/s | HAProxy req/s | slagate req/s | slagate/HAProxy | direct p50 / p99 ms | HAProxy p50 / p99 ms | slagate p50 / p99 ms | p99 slagate/HAProxy |"
  echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for c in 16 64 256; do
    d=$(mean "${RPS[direct,$c]}"); h=$(mean "${RPS[haproxy,$c]}"); g=$(mean "${RPS[gateway,$c]}")
    hp99=$(meanf "${P99[haproxy,$c]}"); gp99=$(meanf "${P99[gateway,$c]}")
    echo "| $c | $d | $h | $g | $(awk -v a="$g" -v b="$h" 'BEGIN{printf "%.2f", a/b}') | $(meanf "${P50[direct,$c]}") / $(meanf "${P99[direct,$c]}") | $(meanf "${P50[haproxy,$c]}") / $hp99 | $(meanf "${P50[gateway,$c]}") / $gp99 | $(awk -v a="$gp99" -v b="$hp99" 'BEGIN{printf "%.2f", a/b}') |"
  done
  if [ "${BASELINE:-0}" = 1 ]; then
    echo
    echo "Baseline (\`BASELINE=1\`): Jetty 12's own reverse proxy (\`io.slagate.bench.JettyProxyBaseline\`: same thread"
    echo "pool and upstream connection cap, none of slagate's logic), interleaved in the same rounds."
    echo
    echo "| conns | Jetty proxy req/s | Jetty/HAProxy | slagate/Jetty | Jetty p50 / p99 ms | p99 Jetty/HAProxy |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: |"
    for c in 16 64 256; do
      h=$(mean "${RPS[haproxy,$c]}"); g=$(mean "${RPS[gateway,$c]}"); j=$(mean "${RPS[jetty,$c]}")
      hp99=$(meanf "${P99[haproxy,$c]}"); jp99=$(meanf "${P99[jetty,$c]}")
      echo "| $c | $j | $(awk -v a="$j" -v b="$h" 'BEGIN{printf "%.2f", a/b}') | $(awk -v a="$g" -v b="$j" 'BEGIN{printf "%.2f", a/b}') | $(meanf "${P50[jetty,$c]}") / $jp99 | $(awk -v a="$jp99" -v b="$hp99" 'BEGIN{printf "%.2f", a/b}') |"
    done
  fi
  echo
  echo "Raw wrk output: \`bench/results/gateway-vs-haproxy.raw.txt\`."
} > "$out"
cat "$out"
