#!/usr/bin/env bash
# Heap per waiting request. The embedded system (its own JVM, heap capped by XMX) in front of a backend that
# accepts and never answers, N_s = 1: the first request takes the only slot and every later one waits in the gateway's
# queue, its connection open, its small body already read (bodies up to bufferedRequestBytes are read before queueing).
# The heap after a full GC (jcmd GC.run, then GC.heap_info) with no client, then with N requests waiting; per waiting
# request = the difference / N. Also: full GCs (jstat) while the requests arrived, and the queue length the gateway
# reports (/stats), so the figure is known to be about N waiting requests. The clients and the backend are other JVMs
# (benchmarks.jar io.slagate.bench.WaitingClients), so the gateway's heap holds nothing of theirs. First, in the same
# run and the same way, the floor: bare Jetty 12 holding each request with its body read (JettyHoldBaseline); the
# difference is what slagate itself keeps per waiting request.
#
#   bench/waiting-heap.sh [N] [XMX]        → bench/results/waiting-heap.md (default 100000 and 512m)
#   BEFORE_JAR=old/slagate.jar bench/waiting-heap.sh ...   also measures an earlier build the same way, in the same run
#   SMALL_BUFFER=4KiB bench/waiting-heap.sh ...             the smaller gateway.requestBufferBytes also measured (2KiB)
#
# Needs an open-files limit above N + 1000 for the gateway's process and the clients' (root can raise it, where the
# sandbox allows) and the loopback addresses 127.0.0.2-9 (Linux has them).
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-100000}"
xmx="${2:-512m}"
out="$home/bench/results/waiting-heap.md"
jar="$home/launcher/target/slagate.jar"
bjar="$home/benchmarks/target/benchmarks.jar"
for tool in java jcmd jstat curl; do command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }; done
[ -f "$jar" ] && [ -f "$bjar" ] || (cd "$home" && mvn -B -q -DskipTests package)
# the gateway holds one descriptor per waiting client (and the clients' process as many)
if [ "$(ulimit -n)" -lt $((n + 1000)) ]; then
  ulimit -n $((n + 1000)) 2>/dev/null || { echo "the open-files limit is $(ulimit -n) and cannot be raised to $((n + 1000)) here:" \
    "run as root with CAP_SYS_RESOURCE, or pass N up to $(( $(ulimit -n) - 1000 ))" >&2; exit 1; }
fi
BACKEND=9111; PORT=9113; ADMIN=9114
source "$home/bench/common.sh"
require_free_ports $BACKEND $PORT $ADMIN 9115
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

java -Xmx64m -cp "$bjar" io.slagate.bench.WaitingClients hold "$BACKEND" > "$work/hold.log" 2>&1 &
pids+=($!)

heap_used_kb() { # of process $1, after a full GC
  jcmd "$1" GC.run >/dev/null
  jcmd "$1" GC.heap_info | awk '/garbage-first heap|total .* used/ { for (i = 1; i <= NF; i++) if ($i == "used") { gsub(/K,?/, "", $(i+1)); print $(i+1); exit } }'
}
# off-heap memory the JDK counts under "Other" (direct ByteBuffers among it), committed KiB; needs NMT, set below
other_kb() { jcmd "$1" VM.native_memory summary | awk '/^-[ \t]*Other \(/ { for (i = 1; i <= NF; i++) if ($i ~ /^committed=/) { gsub(/committed=|KB\)?/, "", $i); print $i; exit } }'; }
full_gcs() { jstat -gcutil "$1" | awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "FGC") c = i } NR == 2 { print $c }'; }

# measure NAME PID PORT COUNT_CMD WANT: N clients each send one request to PORT and keep their connection open; the
# heap of PID after a full GC before they came (200 warm-up requests came and left first) and once COUNT_CMD prints
# at least WANT. Sets before, after, per, fgc, fill_s, waiting; the class histogram goes to $work/NAME-histogram.txt.
measure() {
  local name=$1 pid=$2 port=$3 count_cmd=$4 want=$5
  mkfifo "$work/$name-warm"
  java -Xmx128m -cp "$bjar" io.slagate.bench.WaitingClients clients 127.0.0.1 "$port" 200 < "$work/$name-warm" > "$work/$name-warm.log" 2>&1 &
  local warm=$!
  exec 7>"$work/$name-warm"
  for _ in $(seq 1 100); do grep -q '^sent' "$work/$name-warm.log" 2>/dev/null && break; sleep 0.2; done
  exec 7>&-
  wait "$warm" 2>/dev/null || true
  sleep 2 # the server sees the 200 clients leave and drops them
  before=$(heap_used_kb "$pid")
  local other_before; other_before=$(other_kb "$pid")
  local fgc_before; fgc_before=$(full_gcs "$pid")
  mkfifo "$work/$name-hold"
  local start_ns; start_ns=$(date +%s%N)
  java -Xmx1g -cp "$bjar" io.slagate.bench.WaitingClients clients 127.0.0.1 "$port" "$n" < "$work/$name-hold" > "$work/$name-clients.log" 2>&1 &
  local clients=$!
  pids+=($clients)
  exec 8>"$work/$name-hold"
  for _ in $(seq 1 600); do grep -q '^sent' "$work/$name-clients.log" 2>/dev/null && break; sleep 0.5; done
  grep -q '^sent' "$work/$name-clients.log" || { echo "$name: the clients did not finish sending:" >&2; cat "$work/$name-clients.log" >&2; exit 1; }
  fill_s=$(( ($(date +%s%N) - start_ns) / 1000000000 ))
  waiting=0
  for _ in $(seq 1 120); do
    waiting=$(eval "$count_cmd")
    [ "$waiting" -ge "$want" ] && break
    sleep 0.5
  done
  local fgc_after; fgc_after=$(full_gcs "$pid") # before the measurement's own full GC
  after=$(heap_used_kb "$pid")
  local other_after; other_after=$(other_kb "$pid")
  offheap=$(awk -v a="$other_after" -v b="$other_before" -v n="$n" 'BEGIN { printf "%.0f", (a - b) * 1024 / n }')
  jcmd "$pid" GC.class_histogram | sed -n '1,23p' > "$work/$name-histogram.txt" # what the waiting requests hold, largest first
  exec 8>&-
  wait "$clients" 2>/dev/null || true
  fgc=$((fgc_after - fgc_before))
  per=$(awk -v a="$after" -v b="$before" -v n="$n" 'BEGIN { printf "%.0f", (a - b) * 1024 / n }')
}

# The floor first: bare Jetty 12 with the gateway's HTTP configuration, holding each request with its body read.
JETTY=9115
java -Xmx"$xmx" -Xms"$xmx" -XX:NativeMemoryTracking=summary ${JAVA_OPTS:-} -cp "$bjar" io.slagate.bench.JettyHoldBaseline "$JETTY" > "$work/jetty.log" 2>&1 &
jetty=$!
pids+=($jetty)
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$JETTY/held" >/dev/null 2>&1 && break; sleep 0.2; done
curl -fs "http://127.0.0.1:$JETTY/held" >/dev/null || { echo "bare Jetty did not start:" >&2; tail -20 "$work/jetty.log" >&2; exit 1; }
measure jetty "$jetty" "$JETTY" "curl -fs http://127.0.0.1:$JETTY/held | awk '{ print \$2 + 0 }'" "$n"
j_before=$before j_after=$after j_per=$per j_off=$offheap j_fgc=$fgc j_fill=$fill_s j_waiting=$waiting
kill "$jetty" 2>/dev/null || true
wait "$jetty" 2>/dev/null || true

cat > "$work/template.yaml" <<YAML
gateway: { id: heap, listen: "127.0.0.1:$PORT", admin: "127.0.0.1:$ADMIN", maxConnections: $((n + 1000)), serverTimeout: 10m,
           headerTimeout: 10m, requestBodyTimeout: 10m, requestBufferBytes: REQUEST_BUFFER }
servers: [ { id: s1, url: "http://127.0.0.1:$BACKEND", concurrency: 1 } ]
classes:
  - { name: premium, target: 1s, queueBound: $((n + 10)), queueTimeout: 10m }
  - { name: basic, target: 2s, queueBound: $((n + 10)), queueTimeout: 10m }
classification: { rules: [ { operation: "urn:premium", class: premium } ], defaultClass: basic }
bus: { url: "vm://waiting-heap", listen: "" }
console: { listen: "127.0.0.1:0" }
YAML
# run_gateway JAR NAME [REQUEST_BUFFER]: the embedded system from JAR, measured as NAME
run_gateway() {
  if [ -n "${3:-}" ]; then sed "s/REQUEST_BUFFER/$3/" "$work/template.yaml" > "$work/$2.yaml"
  else sed "s/, requestBufferBytes: REQUEST_BUFFER//" "$work/template.yaml" > "$work/$2.yaml"; fi
  java -Xmx"$xmx" -Xms"$xmx" -XX:NativeMemoryTracking=summary ${JAVA_OPTS:-} -Dslagate.home="$home" -jar "$1" start --config "$work/$2.yaml" > "$work/$2-gateway.log" 2>&1 &
  gw=$!
  pids+=($gw)
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$ADMIN/ready" >/dev/null 2>&1 && break; sleep 0.2; done
  curl -fs "http://127.0.0.1:$ADMIN/ready" >/dev/null || { echo "the gateway ($1) did not start:" >&2; tail -20 "$work/$2-gateway.log" >&2; exit 1; }
  # the gateway has them all once its queue holds N - 1 (one executes on the held slot)
  measure "$2" "$gw" "$PORT" "curl -fs http://127.0.0.1:$ADMIN/stats | tr ',' '\\n' | awk -F: '/\"queueLength\"/ { s += \$2 } END { print s + 0 }'" $((n - 1))
}
# BEFORE_JAR (optional): an earlier build, measured the same way in the same run (a change's before and after)
if [ -n "${BEFORE_JAR:-}" ]; then
  run_gateway "$BEFORE_JAR" before
  b_before=$before b_after=$after b_per=$per b_off=$offheap b_fgc=$fgc b_fill=$fill_s b_waiting=$waiting
  kill "$gw" 2>/dev/null || true
  wait "$gw" 2>/dev/null || true
  for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null || break; sleep 0.2; done
fi

stop_gateway() {
  kill "$gw" 2>/dev/null || true
  wait "$gw" 2>/dev/null || true
  for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null || break; sleep 0.2; done
}
# SMALL_BUFFER (default 2KiB): also this build with gateway.requestBufferBytes at that size (the default is 8 KiB)
small="${SMALL_BUFFER:-2KiB}"
run_gateway "$jar" small "$small"
s_before=$before s_after=$after s_per=$per s_off=$offheap s_fgc=$fgc s_fill=$fill_s s_waiting=$waiting
stop_gateway
run_gateway "$jar" slagate

own=$((per - j_per))
line="waiting-heap requests $n waiting $waiting heap-before ${before}K heap-after ${after}K per-request ${per}B jetty-floor ${j_per}B slagate-own ${own}B off-heap ${offheap}B off-heap-at-$small ${s_off}B full-gcs-while-filling $fgc xmx $xmx"
echo "$line"
{
  echo "# Heap per waiting request — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/waiting-heap.sh $n $xmx\` on $(nproc) cores ($(java -version 2>&1 | head -1)). Each server runs with"
  echo "\`-Xmx$xmx -Xms$xmx\` and its default collector; N clients each send one small SOAP request and keep the connection open."
  echo "Heap used after a full GC (\`jcmd GC.run\`, \`GC.heap_info\`) before the clients connected (after 200 warm-up"
  echo "requests came and left) and with all of them waiting; per waiting request = the difference / N. Off-heap: the"
  echo "memory Native Memory Tracking counts under \"Other\" (where JDK 17 puts direct ByteBuffers), committed, the same way."
  echo
  commit_measured
  echo
  echo "- **slagate**: the embedded system (gateway, resource manager, console, in-VM broker), one server of N_s = 1 that"
  echo "  accepts and never answers, so every request but the first waits in the gateway's queue, its body read."
  echo "- **bare Jetty** (the floor, \`io.slagate.bench.JettyHoldBaseline\`): Jetty 12 with the gateway's thread pool and"
  echo "  HTTP configuration, whose handler reads each body and holds the request unanswered: what any gateway on Jetty's"
  echo "  server side pays per waiting request before it keeps anything of its own. Measured first, in the same run."
  echo
  echo "| server | requests sent | waiting | heap before (KiB) | heap after (KiB) | per waiting request (bytes) | off-heap per waiting request (bytes) | full GCs while they arrived | seconds to connect and send |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
  echo "| bare Jetty | $n | $j_waiting | $j_before | $j_after | $j_per | $j_off | $j_fgc | $j_fill |"
  [ -n "${BEFORE_JAR:-}" ] && echo "| slagate before (\`$(basename "$BEFORE_JAR")\`) | $n | $b_waiting | $b_before | $b_after | $b_per | $b_off | $b_fgc | $b_fill |"
  echo "| slagate (default \`requestBufferBytes\` 8KiB) | $n | $waiting | $before | $after | $per | $offheap | $fgc | $fill_s |"
  echo "| slagate, \`requestBufferBytes: $small\` | $n | $s_waiting | $s_before | $s_after | $s_per | $s_off | $s_fgc | $s_fill |"
  echo
  echo "slagate's own share per waiting request: $per − $j_per = **$own bytes**."
  echo
  echo '```'
  echo "$line"
  echo '```'
  for name in slagate jetty $([ -n "${BEFORE_JAR:-}" ] && echo before); do
    echo
    echo "The largest classes in $name's heap with the requests waiting (\`jcmd GC.class_histogram\`, the first 20; bytes per"
    echo "waiting request = bytes / $n):"
    echo
    echo '```'
    cat "$work/$name-histogram.txt"
    echo '```'
  done
} > "$out"
echo "results in $out"
