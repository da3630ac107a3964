#!/usr/bin/env bash
# Issue 22: heap per waiting request. The embedded system (its own JVM, heap capped by XMX) in front of a backend that
# accepts and never answers, N_s = 1: the first request takes the only slot and every later one waits in the gateway's
# queue, its connection open, its small body already read (bodies up to bufferedRequestBytes are read before queueing).
# The heap after a full GC (jcmd GC.run, then GC.heap_info) with no client, then with N requests waiting; per waiting
# request = the difference / N. Also: full GCs (jstat) while the requests arrived, and the queue length the gateway
# reports (/stats), so the figure is known to be about N waiting requests. The clients and the backend are other JVMs
# (benchmarks.jar io.slagate.bench.WaitingClients), so the gateway's heap holds nothing of theirs.
#
#   bench/waiting-heap.sh [N] [XMX]        → bench/results/waiting-heap.md (default 100000 and 512m)
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
for p in $BACKEND $PORT $ADMIN; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "port $p is in use; stop what listens there first" >&2; exit 1; fi
done
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

java -Xmx64m -cp "$bjar" io.slagate.bench.WaitingClients hold "$BACKEND" > "$work/hold.log" 2>&1 &
pids+=($!)
cat > "$work/slagate.yaml" <<YAML
gateway: { id: heap, listen: "127.0.0.1:$PORT", admin: "127.0.0.1:$ADMIN", maxConnections: $((n + 1000)), serverTimeout: 10m,
           headerTimeout: 10m, requestBodyTimeout: 10m }
servers: [ { id: s1, url: "http://127.0.0.1:$BACKEND", concurrency: 1 } ]
classes:
  - { name: premium, target: 1s, queueBound: $((n + 10)), queueTimeout: 10m }
  - { name: basic, target: 2s, queueBound: $((n + 10)), queueTimeout: 10m }
classification: { rules: [ { operation: "urn:premium", class: premium } ], defaultClass: basic }
bus: { url: "vm://waiting-heap", listen: "" }
console: { listen: "127.0.0.1:0" }
YAML
java -Xmx"$xmx" -Xms"$xmx" ${JAVA_OPTS:-} -Dslagate.home="$home" -jar "$jar" start --config "$work/slagate.yaml" > "$work/gateway.log" 2>&1 &
gw=$!
pids+=($gw)
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$ADMIN/ready" >/dev/null 2>&1 && break; sleep 0.2; done
curl -fs "http://127.0.0.1:$ADMIN/ready" >/dev/null || { echo "the gateway did not start:" >&2; tail -20 "$work/gateway.log" >&2; exit 1; }

heap_used_kb() { # after a full GC
  jcmd "$gw" GC.run >/dev/null
  jcmd "$gw" GC.heap_info | awk '/garbage-first heap|total .* used/ { for (i = 1; i <= NF; i++) if ($i == "used") { gsub(/K,?/, "", $(i+1)); print $(i+1); exit } }'
}
full_gcs() { jstat -gcutil "$gw" | awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "FGC") c = i } NR == 2 { print $c }'; }

# warm up the request path with a few requests that wait and then leave, so that classes and pools are loaded
mkfifo "$work/warm"
java -Xmx128m -cp "$bjar" io.slagate.bench.WaitingClients clients 127.0.0.1 "$PORT" 200 < "$work/warm" > "$work/warm.log" 2>&1 &
warm=$!
exec 7>"$work/warm"
for _ in $(seq 1 100); do grep -q '^sent' "$work/warm.log" 2>/dev/null && break; sleep 0.2; done
exec 7>&-
wait "$warm" 2>/dev/null || true
sleep 2 # the gateway sees the 200 clients leave (client-aborted) and drops them
before=$(heap_used_kb)
fgc_before=$(full_gcs)

mkfifo "$work/hold"
start_ns=$(date +%s%N)
java -Xmx1g -cp "$bjar" io.slagate.bench.WaitingClients clients 127.0.0.1 "$PORT" "$n" < "$work/hold" > "$work/clients.log" 2>&1 &
clients=$!
pids+=($clients)
exec 8>"$work/hold"
for _ in $(seq 1 600); do grep -q '^sent' "$work/clients.log" 2>/dev/null && break; sleep 0.5; done
grep -q '^sent' "$work/clients.log" || { echo "the clients did not finish sending:" >&2; cat "$work/clients.log" >&2; exit 1; }
fill_s=$(( ($(date +%s%N) - start_ns) / 1000000000 ))
# the gateway has them all once its queue holds N - 1 (one executes on the held slot)
waiting=0
for _ in $(seq 1 120); do
  waiting=$(curl -fs "http://127.0.0.1:$ADMIN/stats" | tr ',' '\n' | awk -F: '/"queueLength"/ { s += $2 } END { print s + 0 }')
  [ "$waiting" -ge $((n - 1)) ] && break
  sleep 0.5
done
fgc_after=$(full_gcs) # before the measurement's own full GC
after=$(heap_used_kb)
jcmd "$gw" GC.class_histogram | sed -n '1,23p' > "$work/histogram.txt" # what the waiting requests hold, largest first
exec 8>&-

per=$(awk -v a="$after" -v b="$before" -v n="$n" 'BEGIN { printf "%.0f", (a - b) * 1024 / n }')
line="waiting-heap requests $n waiting $waiting heap-before ${before}K heap-after ${after}K per-request ${per}B full-gcs-while-filling $((fgc_after - fgc_before)) xmx $xmx"
echo "$line"
{
  echo "# Heap per waiting request — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/waiting-heap.sh $n $xmx\` on $(nproc) cores ($(java -version 2>&1 | head -1)); the embedded system"
  echo "(gateway, resource manager, console, in-VM broker) with \`-Xmx$xmx -Xms$xmx\` and its default collector, one server of"
  echo "N_s = 1 that accepts and never answers, so that every request but the first waits in the gateway's queue with its"
  echo "connection open and its body read. Heap used after a full GC (\`jcmd GC.run\`, \`GC.heap_info\`) before the clients"
  echo "connected (after 200 warm-up requests came and left) and with all of them waiting."
  echo
  echo "| requests sent | waiting (queue length in /stats) | heap before (KiB) | heap after (KiB) | per waiting request (bytes) | full GCs while they arrived | seconds to connect and send |"
  echo "|---:|---:|---:|---:|---:|---:|---:|"
  echo "| $n | $waiting | $before | $after | $per | $((fgc_after - fgc_before)) | $fill_s |"
  echo
  echo '```'
  echo "$line"
  echo '```'
  echo
  echo "The heap's largest classes with the requests waiting (\`jcmd GC.class_histogram\`, the first 20; bytes per waiting"
  echo "request = bytes / $n):"
  echo
  echo '```'
  cat "$work/histogram.txt"
  echo '```'
} > "$out"
echo "results in $out"
