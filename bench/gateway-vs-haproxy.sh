#!/usr/bin/env bash
# The gateway against HAProxy doing the same job, and against the backend directly, interleaved in one
# run on this machine. The job: one server with N_s = 256, two classes by header (SOAPAction) with
# WRR 8:2, a trivial SOAP backend on nginx. Needs nginx, haproxy, wrk and perf (Debian: apt-get install
# nginx-light haproxy wrk linux-perf) and a built jar (bin/slagate builds it).
#
#   bench/gateway-vs-haproxy.sh [SECONDS_PER_RUN] [ROUNDS]   pinned (the default): wrk -t1 on core 0, each proxy
#                                                           and nginx on core 1 → bench/results/gateway-vs-haproxy.md
#   PIN=0 bench/gateway-vs-haproxy.sh ...                    unpinned, wrk -t2 → bench/results/gateway-vs-haproxy-unpinned.md
#   BASELINE=1 ...                                          also the floors: Jetty's own reverse proxy, Jetty's server alone
#                                                           answering the reply itself on its selector thread (the floor of
#                                                           any proxy on Jetty), and a same-loop proxy spike on Netty doing
#                                                           the gateway's job (the library decision), and a byte relay on
#                                                           plain NIO doing the same job, parsing only the heads and framing
#                                                           (the floor of a JVM proxy) (builds benchmarks.jar)
#   PROFILE=1 ...                                           then CPU and allocation flame graphs of the gateway at 64 (PROFILE_CONNS)
#                                                           connections with async-profiler → bench/results/flame-*.html
#   BEFORE_JAR=old/slagate.jar ...                          also an earlier build of the gateway, as target "before", in the
#                                                           same rounds (a change's before and after in one run)
#   BEFORE_JAVA_OPTS='-XX:+UseParallelGC' ...               the "before" gateway's JVM options (default: the gateway's), so that
#                                                           BEFORE_JAR=launcher/target/slagate.jar compares JVM settings in one run
#   BEFORE_KEYS='listener: jetty' ...                       gateway settings of the "before" gateway only (a listener or other
#                                                           choice compared in one run; BEFORE_JAR may be this build's jar)
#   GATEWAY_JAVA_OPTS='-XX:+UseSerialGC' ...                 JVM options of the gateway and the Jetty baselines (JAVA_OPTS: all JVMs);
#                                                           by default bin/slagate's collector, G1
#
# CPU per request is each proxy's own accounting (utime + stime of /proc/PID/stat, all its threads) over the
# requests wrk completed in the run; context switches and system calls per request are perf stat's counts
# for the proxy's threads over the same run. Every round is reported, then the means and the goals.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
secs="${1:-10}"
rounds="${2:-3}"
conns_list="${CONNS:-16 64 256 1024 4096}" # client connections per run; every target at each, in each round
max_conns=$(tr ' ' '\n' <<<"$conns_list" | sort -n | tail -1)
[ "$(ulimit -n)" -gt $((3 * max_conns + 3000)) ] || ulimit -n $((3 * max_conns + 3000)) 2>/dev/null \
  || { echo "the open-files limit $(ulimit -n) is too low for $max_conns connections and cannot be raised here" >&2; exit 1; }
pin="${PIN:-1}"
work="$(mktemp -d)"
if [ "$pin" = 1 ]; then
  out="$home/bench/results/gateway-vs-haproxy.md"; raw="$home/bench/results/gateway-vs-haproxy.raw.txt"
  LOAD="taskset -c 0"; SERVE="taskset -c 1"; WRK_THREADS=1; TPUT_BAR=0.8
else
  out="$home/bench/results/gateway-vs-haproxy-unpinned.md"; raw="$home/bench/results/gateway-vs-haproxy-unpinned.raw.txt"
  LOAD=""; SERVE=""; WRK_THREADS=2; TPUT_BAR=0.9
fi
for tool in nginx haproxy wrk java taskset perf; do command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }; done
[ -f "$home/launcher/target/slagate.jar" ] || (cd "$home" && mvn -B -q -DskipTests package)

GW_JAVA="${GATEWAY_JAVA_OPTS:--XX:+UseG1GC}" # the gateway's and the Jetty baselines' JVM options (bin/slagate's collector)
BACKEND=9101 HAPROXY=9102 GATEWAY=9103 ADMIN=9104 JETTY=9106 JETTY_SERVER=9107 NETTY=9108 BEFORE=9109 BEFORE_ADMIN=9110 RELAY=9111
export GW_CAP=256 GW_WEIGHTS="premium: 8, basic: 2"
source "$home/bench/common.sh"
require_free_ports $BACKEND $HAPROXY $GATEWAY $ADMIN $JETTY $JETTY_SERVER $NETTY $BEFORE $BEFORE_ADMIN $RELAY
trap stop_bench_processes EXIT
NGINX_PIN="$SERVE" start_nginx "$work" "$BACKEND"

# HAProxy doing the gateway's job: one server with a concurrency cap (maxconn = N_s) and its queue, two
# classes by the same header with the same 8:2 split of the queue (HAProxy's set-priority-class: it serves
# the lower class first, which is stricter than WRR, and costs what classifying costs).
cat > "$work/haproxy.cfg" <<HAP
global
  maxconn $((max_conns + 1000))
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
  http-request set-priority-class int(1) if { req.hdr(SOAPAction) -m sub urn:premium }
  http-request set-priority-class int(2) unless { req.hdr(SOAPAction) -m sub urn:premium }
  server s1 127.0.0.1:$BACKEND maxconn $GW_CAP
HAP
$SERVE haproxy -f "$work/haproxy.cfg" -D -p "$work/haproxy.pid"

gateway_yaml bench "$GATEWAY" "$ADMIN" "$BACKEND" > "$work/slagate.yaml"
$SERVE java ${JAVA_OPTS:-} $GW_JAVA -jar "$home/launcher/target/slagate.jar" gateway --config "$work/slagate.yaml" \
  > "$work/gateway.log" 2>&1 &
declare -A PID=([gateway]=$! [haproxy]="$(cat "$work/haproxy.pid")" [direct]="$(cat "$work/nginx.pid")")
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$ADMIN/ready" >/dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$ADMIN/ready" >/dev/null || { echo "gateway did not start:" >&2; cat "$work/gateway.log" >&2; exit 1; }

# BEFORE_JAR: an earlier build doing the same job, measured as target "before"
if [ -n "${BEFORE_JAR:-}" ]; then
  gateway_yaml before "$BEFORE" "$BEFORE_ADMIN" "$BACKEND" "${BEFORE_KEYS:-}" > "$work/before.yaml"
  $SERVE java ${JAVA_OPTS:-} ${BEFORE_JAVA_OPTS:-$GW_JAVA} -jar "$BEFORE_JAR" gateway --config "$work/before.yaml" > "$work/before.log" 2>&1 &
  PID[before]=$!
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$BEFORE_ADMIN/ready" >/dev/null && break; sleep 0.1; done
fi

# BASELINE=1: also Jetty's own reverse proxy (same HTTP stack as slagate, none of its logic)
if [ "${BASELINE:-0}" = 1 ]; then
  [ -f "$home/benchmarks/target/benchmarks.jar" ] || (cd "$home" && mvn -B -q -DskipTests -pl benchmarks -am package)
  $SERVE java ${JAVA_OPTS:-} $GW_JAVA -cp "$home/benchmarks/target/benchmarks.jar" io.slagate.bench.JettyProxyBaseline "$JETTY" \
    "http://127.0.0.1:$BACKEND" "$GW_CAP" > "$work/jetty.log" 2>&1 &
  PID[jetty]=$!
  $SERVE java ${JAVA_OPTS:-} $GW_JAVA -cp "$home/benchmarks/target/benchmarks.jar" \
    io.slagate.bench.JettyServerBaseline "$JETTY_SERVER" > "$work/jetty-server.log" 2>&1 &
  PID[jetty-server]=$!
  $SERVE java ${JAVA_OPTS:-} $GW_JAVA -cp "$home/benchmarks/target/benchmarks.jar" io.slagate.bench.NettyLoopProxy "$NETTY" \
    "http://127.0.0.1:$BACKEND" "$GW_CAP" > "$work/netty.log" 2>&1 &
  PID[netty]=$!
  $SERVE java ${JAVA_OPTS:-} $GW_JAVA -cp "$home/benchmarks/target/benchmarks.jar" io.slagate.bench.ByteRelayProxy "$RELAY" \
    "http://127.0.0.1:$BACKEND" "$GW_CAP" > "$work/relay.log" 2>&1 &
  PID[relay]=$!
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$JETTY/" && curl -s -o /dev/null "http://127.0.0.1:$JETTY_SERVER/" \
    && curl -s -o /dev/null "http://127.0.0.1:$NETTY/" && curl -s -o /dev/null "http://127.0.0.1:$RELAY/" && break; sleep 0.1; done
fi

voluntary_switches() { # a process and its children's threads: how often they blocked (a hand-off, an idle wait), not preemptions
  local p
  for p in $1 $(pgrep -P "$1" || true); do cat /proc/"$p"/task/*/status 2>/dev/null; done | awk '/^voluntary_ctxt_switches/ { s += $2 } END { print s + 0 }'
}
cpu_ticks() { # a process and its children's threads (nginx's worker does nginx's work)
  local total=0 p
  for p in $1 $(pgrep -P "$1" || true); do total=$((total + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done
  echo "$total"
}
ticks_per_s=$(getconf CLK_TCK)
run() { # name port conns secs → "rps p50ms p99ms cpu_us_per_request cs_per_request syscalls_per_request voluntary_cs_per_request
       #   jit_percent_of_cpu rss_kib errors" (the JVM's C1/C2 compiler threads' share of its CPU over the run; - for HAProxy and nginx)
  local o pid="${PID[$1]}" c1 c2 rps p50 p99 errs perfpid cs sc v1 v2 j1 j2 jit
  perf stat -e context-switches,raw_syscalls:sys_enter -x, -o "$work/perf.txt" \
    -p "$(echo "$pid" $(pgrep -P "$pid" || true) | tr ' ' ',')" >/dev/null 2>&1 &
  perfpid=$!
  sleep 0.2 # perf attaches to the threads before the load starts
  c1=$(cpu_ticks "$pid"); v1=$(voluntary_switches "$pid"); j1=$(jit_ticks "$pid")
  o=$($LOAD wrk -t"$WRK_THREADS" -c"$3" -d"$4"s --latency -s "$home/bench/post.lua" "http://127.0.0.1:$2" 2>&1)
  c2=$(cpu_ticks "$pid"); v2=$(voluntary_switches "$pid"); j2=$(jit_ticks "$pid")
  kill -INT "$perfpid" 2>/dev/null || true; wait "$perfpid" 2>/dev/null || true
  cs=$(awk -F, '$3=="context-switches" {print $1}' "$work/perf.txt"); sc=$(awk -F, '$3=="raw_syscalls:sys_enter" {print $1}' "$work/perf.txt")
  echo "== $1 c=$3" >> "$raw"; echo "$o" >> "$raw"
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$o")
  p50=$(awk '$1=="50%" {print $2}' <<<"$o")
  p99=$(awk '$1=="99%" {print $2}' <<<"$o")
  errs=$(awk '/Non-2xx|Socket errors/ {print}' <<<"$o" | tr ' \n' '_ ')
  jit=-
  if [ "$1" != direct ] && [ "$1" != haproxy ]; then
    jit=$(awk -v j=$((j2 - j1)) -v t=$((c2 - c1)) 'BEGIN { printf "%.1f", (t > 0) ? 100 * j / t : 0 }')
  fi
  echo "$rps $(ms "$p50") $(ms "$p99") $(awk -v t=$((c2 - c1)) -v hz="$ticks_per_s" -v r="$rps" -v s="$4" \
    'BEGIN { printf "%.1f", t / hz * 1e6 / (r * s) }') $(awk -v n="${cs:-0}" -v r="$rps" -v s="$4" 'BEGIN { printf "%.3f", n / (r * s) }') \
    $(awk -v n="${sc:-0}" -v r="$rps" -v s="$4" 'BEGIN { printf "%.2f", n / (r * s) }') \
    $(awk -v n=$((v2 - v1)) -v r="$rps" -v s="$4" 'BEGIN { printf "%.3f", n / (r * s) }') \
    $jit $(rss_kib "$pid") ${errs:-none}"
}
rss_kib() { # a process and its children's resident memory after a run, KiB (nginx's and HAProxy's workers included)
  local p s=0
  for p in $1 $(pgrep -P "$1" || true); do s=$((s + $(awk '/^VmRSS/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0))); done
  echo "$s"
}

: > "$raw"
targets=(direct haproxy gateway); [ -n "${BEFORE_JAR:-}" ] && targets+=(before)
[ "${BASELINE:-0}" = 1 ] && targets+=(jetty jetty-server netty relay)
declare -A PORT=([direct]=$BACKEND [haproxy]=$HAPROXY [gateway]=$GATEWAY [jetty]=$JETTY [jetty-server]=$JETTY_SERVER [netty]=$NETTY
  [before]=$BEFORE [relay]=$RELAY)
# a warm-up run per target and connection count, discarded: JIT, heap growth and the first connections fall in it
echo "warming up ..." >&2
for t in direct haproxy gateway before jetty jetty-server netty relay; do
  if [ -n "${PID[$t]:-}" ]; then for c in $conns_list; do run "$t" "${PORT[$t]}" "$c" "${WARM_SECS:-10}" >/dev/null; done; fi
done

declare -A RPS P50 P99 CPU CS SC VCS RSS TCPU TP99 PAIR_P99 PAIR_CPU
rows=""
for r in $(seq 1 "$rounds"); do
  for c in $conns_list; do
    order=("${targets[@]}"); [ $((r % 2)) -eq 0 ] && order=($(printf '%s\n' "${targets[@]}" | tac))
    for t in "${order[@]}"; do
      read -r rps p50 p99 cpu cs sc vcs jit rss errs <<<"$(run "$t" "${PORT[$t]}" "$c" "$secs")"
      echo "round $r c=$c $t: $rps req/s p50 ${p50}ms p99 ${p99}ms CPU ${cpu}us/req cs/req $cs (voluntary $vcs) syscalls/req $sc JIT ${jit}% RSS ${rss} KiB errors: $errs" >&2
      rows="$rows| $r | $c | $t | $rps | $cpu | $p50 | $p99 | $cs | $vcs | $sc | $jit | $rss | ${errs//_/ } |"$'\n'
      RSS[$t,$c]="${RSS[$t,$c]:-} $rss"
      [ "$jit" = - ] || JIT_RUNS="${JIT_RUNS:-}$jit $t $r $c"$'\n'
      RPS[$t,$c]="${RPS[$t,$c]:-} $rps"; P50[$t,$c]="${P50[$t,$c]:-} $p50"; P99[$t,$c]="${P99[$t,$c]:-} $p99"
      CPU[$t,$c]="${CPU[$t,$c]:-} $cpu"; CS[$t,$c]="${CS[$t,$c]:-} $cs"; SC[$t,$c]="${SC[$t,$c]:-} $sc"; VCS[$t,$c]="${VCS[$t,$c]:-} $vcs"
      TCPU[$t]=$cpu; TP99[$t]=$p99
    done
    # the round's own ratios, for intervals over rounds that leave the host's drift between rounds out
    PAIR_P99[gateway,$c]="${PAIR_P99[gateway,$c]:-} $(ratio "${TP99[gateway]}" "${TP99[haproxy]}" 4)"
    if [ -n "${TCPU[netty]:-}" ]; then
      for t in gateway relay ${BEFORE_JAR:+before}; do PAIR_CPU[$t,$c]="${PAIR_CPU[$t,$c]:-} $(ratio "${TCPU[$t]}" "${TCPU[netty]}" 4)"; done
    fi
  done
done

# Disturbed rounds (keep_rounds, common.sh) stay in "Every run" and are left out of every target's means and medians.
only_kept() { # values, keep flags → the values whose flag is 1
  awk -v k="$2" 'BEGIN { split(k, f, " ") } { for (i = 1; i <= NF; i++) if (f[i]) printf " %s", $i }' <<<"$1"
}
declare -A LEFT_OUT
for c in $conns_list; do
  keep=$(keep_rounds "${RPS[haproxy,$c]}")
  kept=$(awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i; print s }' <<<"$keep")
  { [ "$kept" -ge 2 ] && [ "$kept" -lt "$rounds" ]; } || continue
  LEFT_OUT[$c]=$(awk '{ for (i = 1; i <= NF; i++) if (!$i) printf "%s%d", (n++ ? ", " : ""), i }' <<<"$keep")
  for t in "${targets[@]}"; do
    RPS[$t,$c]=$(only_kept "${RPS[$t,$c]}" "$keep"); P50[$t,$c]=$(only_kept "${P50[$t,$c]}" "$keep")
    P99[$t,$c]=$(only_kept "${P99[$t,$c]}" "$keep"); CPU[$t,$c]=$(only_kept "${CPU[$t,$c]}" "$keep")
    CS[$t,$c]=$(only_kept "${CS[$t,$c]}" "$keep"); SC[$t,$c]=$(only_kept "${SC[$t,$c]}" "$keep")
    VCS[$t,$c]=$(only_kept "${VCS[$t,$c]}" "$keep")
  done
done

if [ "${PROFILE:-0}" = 1 ]; then
  # async-profiler from Maven Central (its jar ships the native library), attached to the running gateway
  lib=$(async_profiler)
  profiler() { # one async-profiler command to the gateway; jcmd would split an unquoted option list at its '='
    local o; o=$(jcmd "${PID[gateway]}" JVMTI.agent_load "$lib" "\"$1\"")
    grep -q "return code: 0" <<<"$o" || { echo "async-profiler: $1: $o" >&2; exit 1; }
  }
  for ev in cpu alloc; do
    profiler "start,event=$ev,interval=$([ $ev = cpu ] && echo 1ms || echo 512k)"
    run gateway "$GATEWAY" "${PROFILE_CONNS:-64}" 20 >/dev/null
    profiler "dump,file=$work/flat-$ev.txt,flat=25,traces=0"
    profiler "stop,file=$home/bench/results/flame-$ev.html,title=slagate_gateway_${ev}_${PROFILE_CONNS:-64}_connections"
    echo "flame graph: bench/results/flame-$ev.html" >&2
  done
fi

verdict() { awk -v v="$1" -v bar="$2" -v op="$3" 'BEGIN { ok = (op == "le") ? v <= bar : v >= bar; print ok ? "met" : "not met" }'; }
{
  echo "# Gateway vs HAProxy vs direct — $(date -u +%Y-%m-%dT%H:%MZ), $([ "$pin" = 1 ] && echo pinned || echo unpinned)"
  echo
  echo "Command: \`$([ "$pin" = 1 ] || echo "PIN=0 ")${CONNS:+CONNS="$CONNS" }${BASELINE:+BASELINE=$BASELINE }${BEFORE_JAR:+BEFORE_JAR=$BEFORE_JAR }${BEFORE_JAVA_OPTS:+BEFORE_JAVA_OPTS='$BEFORE_JAVA_OPTS' }${BEFORE_KEYS:+BEFORE_KEYS='$BEFORE_KEYS' }${GATEWAY_JAVA_OPTS:+GATEWAY_JAVA_OPTS='$GATEWAY_JAVA_OPTS' }bench/gateway-vs-haproxy.sh $secs $rounds\`"
  echo
  commit_measured
  echo
  echo "Machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), Linux $(uname -r);"
  echo "$(java -version 2>&1 | head -1); HAProxy $(haproxy -v | head -1 | awk '{print $3}'); nginx $(nginx -v 2>&1 | awk -F/ '{print $2}'); $(wrk -v 2>&1 | head -1 | awk '{print $1, $2}')."
  if [ "$pin" = 1 ]; then
    echo "Pinned: wrk -t1 on core 0; nginx and the proxy under test on core 1 (the proxies all run, only one is loaded)."
  else
    echo "Unpinned: wrk -t2 and every process share both cores."
  fi
  echo "The job: one server (nginx, 1 worker, fixed SOAP reply) with N_s = $GW_CAP; two classes by SOAPAction, WRR 8:2 in"
  echo "slagate, priority classes in HAProxy (\`set-priority-class\`); slagate's Micrometer timers on, JVM options \`$GW_JAVA\`. ${secs}s per run,"
  echo "$rounds rounds, the order of the targets reversed every other round. CPU per request: the proxy's own"
  echo "utime + stime from /proc/PID/stat over the requests wrk completed (for \`direct\`, nginx's)."
  echo
  echo "## Means [min..max] over the rounds"
  echo
  left="none"
  for c in $conns_list; do [ -n "${LEFT_OUT[$c]:-}" ] && left="$([ "$left" = none ] || echo "$left; ")$c connections: round ${LEFT_OUT[$c]}"; done
  echo "Rounds left out of every target's means and medians, HAProxy having answered under 0.7× its median rate in them"
  echo "(a disturbed host; still listed under Every run): $left."
  echo
  echo "| conns | direct req/s | HAProxy req/s | slagate req/s | slagate/HAProxy | CPU µs/req HAProxy | CPU µs/req slagate | slagate/HAProxy CPU | HAProxy p50 / p99 ms | slagate p50 / p99 ms | p99 slagate/HAProxy (medians of the rounds) |"
  echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for c in $conns_list; do
    h=$(mean "${RPS[haproxy,$c]}"); g=$(mean "${RPS[gateway,$c]}")
    hp99=$(medianf "${P99[haproxy,$c]}"); gp99=$(medianf "${P99[gateway,$c]}")
    echo "| $c | $(mean "${RPS[direct,$c]}") | $(spread "${RPS[haproxy,$c]}") | $(spread "${RPS[gateway,$c]}") | $(ratio "$g" "$h") | $(spread "${CPU[haproxy,$c]}") | $(spread "${CPU[gateway,$c]}") | $(ratio "$(mean "${CPU[gateway,$c]}")" "$(mean "${CPU[haproxy,$c]}")") | $(meanf "${P50[haproxy,$c]}") / $(spreadf "${P99[haproxy,$c]}") | $(meanf "${P50[gateway,$c]}") / $(spreadf "${P99[gateway,$c]}") | $(ratio "$gp99" "$hp99") |"
  done
  echo
  metrics=$(curl -s "http://127.0.0.1:$ADMIN/metrics")
  handoffs=$(awk '/^slagate_loops_handoffs_total/ { s += $2 } END { print s + 0 }' <<<"$metrics")
  answered=$(awk '/^slagate_requests_completed_total/ { s += $2 } END { print s + 0 }' <<<"$metrics")
  echo "slagate's event loops: $(grep -o '[0-9]* event loops' "$work/gateway.log" | head -1) (\`gateway.loops: 0\`, one per core the JVM may use);"
  echo "tasks handed to a loop from another thread (an admission made by another loop's request, a timer): $handoffs over"
  echo "$answered requests answered, $(awk -v h="$handoffs" -v a="$answered" 'BEGIN { printf "%.3f", (a > 0 ? h / a : 0) }') per request, warm-up included."
  echo
  echo "Context switches and system calls per request (perf stat over each run, the proxy's threads; means). A context"
  echo "switch is counted whether the thread blocked (voluntary: a hand-off to another thread, or waiting for events) or"
  echo "was preempted; with the backend on the proxy's core, nginx preempts the proxy. The voluntary ones, from"
  echo "/proc/PID/task/*/status, are in parentheses."
  echo
  echo "| conns | HAProxy cs/req | slagate cs/req | HAProxy syscalls/req | slagate syscalls/req |$([ "${BASELINE:-0}" = 1 ] && echo " Netty spike cs/req | Netty spike syscalls/req | Jetty server alone cs/req | Jetty server alone syscalls/req |")"
  echo "| ---: | ---: | ---: | ---: | ---: |$([ "${BASELINE:-0}" = 1 ] && echo " ---: | ---: | ---: | ---: |")"
  for c in $conns_list; do
    extra=""
    [ "${BASELINE:-0}" = 1 ] && extra=" $(meanf "${CS[netty,$c]}") ($(meanf "${VCS[netty,$c]}")) | $(mean "${SC[netty,$c]}") | $(meanf "${CS[jetty-server,$c]}") ($(meanf "${VCS[jetty-server,$c]}")) | $(mean "${SC[jetty-server,$c]}") |"
    echo "| $c | $(meanf "${CS[haproxy,$c]}") ($(meanf "${VCS[haproxy,$c]}")) | $(meanf "${CS[gateway,$c]}") ($(meanf "${VCS[gateway,$c]}")) | $(mean "${SC[haproxy,$c]}") | $(mean "${SC[gateway,$c]}") |$extra"
  done
  if [ -n "${BEFORE_JAR:-}" ]; then
    echo
    echo "The build \`$(basename "$BEFORE_JAR")\` with JVM options \`${BEFORE_JAVA_OPTS:-$GW_JAVA}\`${BEFORE_KEYS:+ and gateway settings \`$BEFORE_KEYS\`} doing the same job in the same rounds (target \`before\`):"
    echo
    echo "| conns | before req/s | before/HAProxy | slagate/before req/s | CPU µs/req before | slagate/before CPU | before p99 ms | p99 before/HAProxy (medians of the rounds) | before cs/req (voluntary) | before syscalls/req |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for c in $conns_list; do
      b=$(mean "${RPS[before,$c]}")
      echo "| $c | $(spread "${RPS[before,$c]}") | $(ratio "$b" "$(mean "${RPS[haproxy,$c]}")") | $(ratio "$(mean "${RPS[gateway,$c]}")" "$b") | $(spread "${CPU[before,$c]}") | $(ratio "$(mean "${CPU[gateway,$c]}")" "$(mean "${CPU[before,$c]}")") | $(spreadf "${P99[before,$c]}") | $(ratio "$(medianf "${P99[before,$c]}")" "$(medianf "${P99[haproxy,$c]}")") | $(meanf "${CS[before,$c]}") ($(meanf "${VCS[before,$c]}")) | $(mean "${SC[before,$c]}") |"
    done
  fi
  if [ "${BASELINE:-0}" = 1 ]; then
    echo
    echo "Floors in the same rounds, same JVM options: Jetty 12's own reverse proxy (\`io.slagate.bench.JettyProxyBaseline\`:"
    echo "same upstream connection cap, none of slagate's logic); Jetty 12's server alone answering the backend's reply"
    echo "itself after reading the body, its handler non-blocking so the selector thread runs it (\`io.slagate.bench.JettyServerBaseline\`,"
    echo "nothing forwarded): what any proxy on Jetty's server side pays before its upstream leg; and a same-loop proxy on"
    echo "Netty 4.2 doing the gateway's job without its statistics, faults and checks (\`io.slagate.bench.NettyLoopProxy\`: one"
    echo "event loop per core owning its clients' server connections, WRR 8:2 under the cap)."
    echo
    echo "| conns | Jetty proxy req/s | CPU µs/req Jetty proxy | Jetty proxy p99 ms | Jetty server alone req/s | CPU µs/req Jetty server alone | its p99 ms | Netty spike req/s | CPU µs/req Netty spike | Netty spike p99 ms | Netty/slagate CPU |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for c in $conns_list; do
      echo "| $c | $(spread "${RPS[jetty,$c]}") | $(spread "${CPU[jetty,$c]}") | $(meanf "${P99[jetty,$c]}") | $(spread "${RPS[jetty-server,$c]}") | $(spread "${CPU[jetty-server,$c]}") | $(meanf "${P99[jetty-server,$c]}") | $(spread "${RPS[netty,$c]}") | $(spread "${CPU[netty,$c]}") | $(meanf "${P99[netty,$c]}") | $(ratio "$(mean "${CPU[netty,$c]}")" "$(mean "${CPU[gateway,$c]}")") |"
    done
    echo
    echo "The byte relay (\`io.slagate.bench.ByteRelayProxy\`): the same job on plain NIO, one selector loop per core, parsing"
    echo "strictly only the request line, the header fields and the framing of both legs and relaying the bytes as they came"
    echo "(no HTTP object model, nothing encoded again): the floor of a JVM proxy, against HAProxy and the Netty spike."
    echo
    echo "| conns | byte relay req/s | CPU µs/req byte relay | its p99 ms (median) | relay/HAProxy req/s | relay/HAProxy CPU | relay/Netty spike CPU | slagate/Netty spike CPU |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    for c in $conns_list; do
      echo "| $c | $(spread "${RPS[relay,$c]}") | $(spread "${CPU[relay,$c]}") | $(medianf "${P99[relay,$c]}") | $(ratio "$(mean "${RPS[relay,$c]}")" "$(mean "${RPS[haproxy,$c]}")") | $(ratio "$(mean "${CPU[relay,$c]}")" "$(mean "${CPU[haproxy,$c]}")") | $(ratio "$(mean "${CPU[relay,$c]}")" "$(mean "${CPU[netty,$c]}")") | $(ratio "$(mean "${CPU[gateway,$c]}")" "$(mean "${CPU[netty,$c]}")") |"
    done
    echo
    echo "Can a JVM proxy get there: the byte relay at ≥ 0.75× HAProxy's throughput and ≤ 1.5× its CPU per request?"
    for c in 64 256; do
      [[ " $conns_list " == *" $c "* ]] || continue
      tr=$(ratio "$(mean "${RPS[relay,$c]}")" "$(mean "${RPS[haproxy,$c]}")"); cr=$(ratio "$(mean "${CPU[relay,$c]}")" "$(mean "${CPU[haproxy,$c]}")")
      echo "- $c connections: throughput $tr×, CPU $cr×: $(awk -v t="$tr" -v r="$cr" 'BEGIN { print (t >= 0.75 && r <= 1.5) ? "yes" : "no" }')"
    done
    echo
    echo "Library rule: move the client listener and upstream leg to Netty only if the spike's CPU per request is below"
    echo "0.75× the gateway's in the same run:"
    for c in 64 256; do
      [[ " $conns_list " == *" $c "* ]] || continue
      nr=$(ratio "$(mean "${CPU[netty,$c]}")" "$(mean "${CPU[gateway,$c]}")")
      echo "- $c connections: Netty spike / slagate CPU per request $nr: $(awk -v v="$nr" 'BEGIN { print (v < 0.75) ? "below 0.75, Netty wins by the rule" : "not below 0.75, stay on Jetty" }')"
    done
  fi
  echo
  echo "## Goals, on these means"
  echo
  echo "p99: the median of the rounds' p99s (one round's warm-up or a neighbour's burst does not decide it)."
  echo
  echo "| conns | throughput ≥ 0.75× HAProxy | CPU per request ≤ 1.5× HAProxy's | p99 ≤ 1.5× HAProxy's (2× at 256) | cs/req ≤ 0.3 | syscalls/req ≤ 6 |"
  echo "| ---: | --- | --- | --- | --- | --- |"
  for c in $conns_list; do
    tr=$(ratio "$(mean "${RPS[gateway,$c]}")" "$(mean "${RPS[haproxy,$c]}")")
    cr=$(ratio "$(mean "${CPU[gateway,$c]}")" "$(mean "${CPU[haproxy,$c]}")")
    pr=$(ratio "$(medianf "${P99[gateway,$c]}")" "$(medianf "${P99[haproxy,$c]}")")
    pbar=1.5; [ "$c" = 256 ] && pbar=2
    cs=$(meanf "${CS[gateway,$c]}"); sc=$(mean "${SC[gateway,$c]}")
    echo "| $c | $tr: $(verdict "$tr" 0.75 ge) | $cr: $(verdict "$cr" 1.5 le) | $pr: $(verdict "$pr" "$pbar" le) | $cs: $(verdict "$cs" 0.3 le) | $sc: $(verdict "$sc" 6 le) |"
  done
  if [ "${BASELINE:-0}" = 1 ]; then
    echo
    echo "## At the same-loop floor"
    echo
    echo "CPU per request against the Netty spike's (≤ 1.05×) and p99 against HAProxy's (≤ 1.3× at 256 connections),"
    echo "for slagate${BEFORE_JAR:+ and the \`before\` target}: first the ratio of the rounds' means (CPU) and medians (p99), then"
    echo "the ratio taken round by round (both sides of a round measured minutes apart at most), its mean and 95% interval"
    echo "over every round, disturbed ones included. A goal is met when the round-by-round interval lies under its bar,"
    echo "not met when it lies above, and undecided when it straddles the bar."
    echo
    hdr="| conns | slagate/Netty spike CPU | round by round | p99 slagate/HAProxy | round by round |"; sep="| ---: | --- | --- | --- | --- |"
    [ -n "${BEFORE_JAR:-}" ] && { hdr="$hdr before/Netty spike CPU | round by round | p99 before/HAProxy |"; sep="$sep --- | --- | --- |"; }
    echo "$hdr"; echo "$sep"
    for c in $conns_list; do
      line="| $c"
      for t in gateway ${BEFORE_JAR:+before}; do
        nr=$(ratio "$(mean "${CPU[$t,$c]}")" "$(mean "${CPU[netty,$c]}")")
        pr=$(ratio "$(medianf "${P99[$t,$c]}")" "$(medianf "${P99[haproxy,$c]}")")
        line="$line | $nr | $(paired "${PAIR_CPU[$t,$c]:-}")$(decided "${PAIR_CPU[$t,$c]:-}" 1.05) | $pr"
        [ "$t" = gateway ] && line="$line | $(paired "${PAIR_P99[gateway,$c]:-}")$([ "$c" != 256 ] || decided "${PAIR_P99[gateway,$c]:-}" 1.3)"
      done
      echo "$line |"
    done
    echo
    echo "The byte relay against the Netty spike, round by round (CPU per request):"
    echo
    for c in $conns_list; do echo "- $c connections: $(paired "${PAIR_CPU[relay,$c]:-}")"; done
  fi
  echo
  echo "## Memory after each run"
  echo
  echo "Resident memory (MiB, mean over the rounds) of each target after its run at each connection count, its workers"
  echo "included, and the growth per connection from the fewest to the most connections (KiB): what a busy connection costs."
  echo
  first=$(awk '{print $1}' <<<"$conns_list")
  echo "| target |$(for c in $conns_list; do printf ' %s conns |' "$c"; done) KiB per connection, $first → $max_conns |"
  echo "| --- |$(for c in $conns_list; do printf ' ---: |'; done) ---: |"
  for t in "${targets[@]}"; do
    line="| $t |"
    for c in $conns_list; do line="$line $(awk -v k="$(mean "${RSS[$t,$c]}")" 'BEGIN { printf "%.1f", k / 1024 }') |"; done
    echo "$line $(awk -v a="$(mean "${RSS[$t,$first]}")" -v b="$(mean "${RSS[$t,$max_conns]}")" -v n=$((max_conns - first)) \
      'BEGIN { printf "%.1f", (n > 0 ? (b - a) / n : 0) }') |"
  done
  echo
  echo "## Every run"
  echo
  echo "JIT: the JVM's compiler threads (C1, C2) as a share of the target's CPU over the run; the warm-up runs before the"
  echo "rounds are there to leave them idle. $(awk 'NF { n++; s += $1; if ($1 >= m) { m = $1; w = $2 " round " $3 " at " $4 " connections" } }
    END { if (n) printf "Over the JVM targets'"'"' %d runs: mean %.1f%%, at most %.1f%% (%s).", n, s / n, m, w }' <<<"${JIT_RUNS:-}")"
  echo
  echo "| round | conns | target | req/s | CPU µs/req | p50 ms | p99 ms | cs/req | voluntary cs/req | syscalls/req | JIT % of CPU | RSS KiB after | wrk errors |"
  echo "| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
  printf "%s" "$rows"
  if [ "${PROFILE:-0}" = 1 ]; then
    for ev in cpu alloc; do
      echo
      echo "## async-profiler, $ev, 20 s at ${PROFILE_CONNS:-64} connections (\`bench/results/flame-$ev.html\`): the top frames"
      echo
      echo '```'
      sed -n '/^ *ns \|^ *total\|^ *bytes\|^ *samples/,$p' "$work/flat-$ev.txt" | head -30
      echo '```'
    done
  fi
  echo
  echo "Raw wrk output: \`${raw#$home/}\`."
} > "$out"
cat "$out"
