#!/usr/bin/env bash
# What proving the customer costs, in one run. Part 1: two gateways doing the gateway-vs-haproxy job (one nginx
# server with N_s = 256, two classes by SOAPAction, WRR 8:2, two customers by HTTP Basic) — authentication off
# (the Basic user name taken as claimed) and HTTP Basic against an htpasswd file written by `htpasswd -B -C 10` (every
# request's credential verified, warm: from the cache) — loaded in turn by wrk with 64 keep-alive connections.
# Part 2: the Basic gateway, behind a trusted proxy (127.0.0.1, X-Forwarded-For telling clients apart), under each
# kind of flood (AuthFlood: wrong passwords one after another and concurrently, malformed credentials, variants of a
# valid credential) beside the real customer's closed loop (16 clients), with a quiet phase in every round, the
# order reversed every other round.
# Needs nginx, wrk, htpasswd (apache2-utils) and a built jar.
#
#   [WARM=60] [FLOOD=1000] [KINDS=wrong-seq,wrong-conc,malformed,variants] bench/authentication.sh [SECONDS_PER_RUN] [ROUNDS]
#     → bench/results/authentication.md
#
# Load on core 0, nginx and the gateways on core 1. Every round is kept.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
secs="${1:-10}"
rounds="${2:-4}"
flood="${FLOOD:-1000}"
kinds="${KINDS:-wrong-seq,wrong-conc,malformed,variants}"
work="$(mktemp -d)"
out="$home/bench/results/authentication.md"
LOAD="taskset -c 0"; SERVE="taskset -c 1"
for tool in nginx wrk java taskset htpasswd; do command -v "$tool" >/dev/null || { echo "missing: $tool" >&2; exit 1; }; done
[ -f "$home/launcher/target/slagate.jar" ] || (cd "$home" && mvn -B -q -DskipTests package)
[ -f "$home/benchmarks/target/benchmarks.jar" ] || (cd "$home" && mvn -B -q -DskipTests -pl benchmarks -am package)

BACKEND=9141
declare -A PORT=([off]=9142 [basic]=9144)
htpasswd -cbB -C 10 "$work/customers.htpasswd" c0 pw 2>/dev/null
htpasswd -bB -C 10 "$work/customers.htpasswd" c1 pw 2>/dev/null
htpasswd -bB -C 10 "$work/customers.htpasswd" mallory mallory-pw 2>/dev/null
proxy='trustedProxies: ["127.0.0.1"]'
declare -A KEYS=([off]="$proxy" [basic]="$proxy, authentication: { mode: required, basic: { htpasswd: \"$work/customers.htpasswd\" } }")
modes=(off basic)
export GW_CAP=256 GW_WEIGHTS="premium: 8, basic: 2"
source "$home/bench/common.sh"
require_free_ports $BACKEND 9142 9143 9144 9145
trap stop_bench_processes EXIT
NGINX_PIN="$SERVE" start_nginx "$work" "$BACKEND"

declare -A PID
start_gateways
run() { wrk_cpu_run "${PID[$1]}" "${PORT[$1]}" 0 "$2"; }

declare -A RPS P99 CPU CPUNJ
run_modes_abba "$secs" "$rounds"
checks=$(curl -s "http://127.0.0.1:$((PORT[basic] + 1))/metrics" | awk '/^slagate_authentication_checks_total/ {print $2}')

echo "floods ($kinds, $flood/s) beside 16 clients of the real customer ..." >&2
floodrows=$($LOAD java -cp "$home/benchmarks/target/benchmarks.jar" io.slagate.bench.AuthFlood "${PORT[basic]}" "${PID[basic]}" \
  "$secs" "$rounds" "$flood" 16 c0 pw mallory mallory-pw "$kinds")
echo "$floodrows" >&2
col() { awk -v p="$1" -v c="$2" '$1 == p { printf "%s ", $c }' <<<"$floodrows"; }
fchecks=$(curl -s "http://127.0.0.1:$((PORT[basic] + 1))/metrics" | awk '/^slagate_authentication_checks_total/ {print $2}')

{
  echo "# What proving the customer costs — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/authentication.sh $secs $rounds\` (WARM=${WARM:-60}, FLOOD=$flood, KINDS=$kinds)"
  echo
  commit_measured
  echo
  echo "Machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), Linux $(uname -r);"
  echo "$(java -version 2>&1 | head -1); nginx $(nginx -v 2>&1 | awk -F/ '{print $2}'); $(wrk -v 2>&1 | head -1 | awk '{print $1, $2}')."
  echo "Pinned: the load (wrk -t1 -c64, or the flood tool) on core 0; nginx and both gateways on core 1 (both run, one is loaded at a time)."
  echo
  echo "## 1. A warm request, authentication on against off"
  echo
  echo "The job of bench/gateway-vs-haproxy.sh (one server, N_s = $GW_CAP, two classes by SOAPAction, WRR 8:2) with two"
  echo "customers by HTTP Basic (c0, c1), 64 keep-alive connections. \`off\`: no gateway.authentication (the Basic user name"
  echo "is taken as claimed, the password never read). \`basic\`: \`mode: required\` against an htpasswd file written by"
  echo "\`htpasswd -B -C 10\`; every request's credential is verified — after the first, from the cache (a canonical check of"
  echo "the header, a SHA-256 of its token and a lookup; both behind the trusted proxy 127.0.0.1). Each gateway warmed up for ${WARM:-60} s, then ${secs} s per run, $rounds rounds, the order reversed every"
  echo "other round. CPU per request: the gateway's utime + stime over the requests wrk completed; \"without the JIT\" leaves"
  echo "out the compiler threads. bcrypt checks the basic gateway ran in part 1: $checks (the cache's misses)."
  echo
  modes_means_table "authentication"
  echo
  echo "CPU per request, basic over off, round by round (both measured in the same round): $(paired "$(awk -v b="${CPUNJ[basic]}" \
    -v o="${CPUNJ[off]}" 'BEGIN { n = split(b, x, " "); split(o, y, " "); for (i = 1; i <= n; i++) printf "%.4f ", x[i] / y[i] }')")."
  echo
  echo "### Every round"
  echo
  echo "| round | authentication | req/s | CPU µs/req | without the JIT | p99 ms | errors |"
  echo "| ---: | --- | ---: | ---: | ---: | ---: | --- |"
  printf '%s' "$rows"
  echo
  echo "## 2. Floods beside the real customer"
  echo
  echo "The basic gateway, behind a trusted proxy: every connection comes from 127.0.0.1 (\`gateway.trustedProxies\`) and"
  echo "names its client in X-Forwarded-For, the real customer 198.51.100.1, the attacker 203.0.113.7. 16 clients of the"
  echo "customer c0 in a closed loop (kept connections, its credential cached); each round a quiet phase of ${secs} s and one"
  echo "of ${secs} s per flood, the order reversed every other round, $rounds rounds after a discarded 5 s warm-up. Every flood"
  echo "request comes on a new connection (the gateway closes one after a client fault). The floods: \`wrong-seq\`, wrong"
  echo "passwords for c0 one after another as fast as answered; \`wrong-conc\`, wrong passwords for c0, $flood a second, each"
  echo "on its own thread; \`malformed\`, \`Basic !!!!\`, $flood a second; \`variants\`, 32 case and whitespace spellings of the"
  echo "attacker's own valid credential (mallory), $flood a second. Failures are limited per client and per claimed name"
  echo "(burst 10, then 1/s, the defaults), reserved before any check; entries at bcrypt cost 10. Gateway CPU in ms per"
  echo "second of the phase (1000 = the whole pinned core). bcrypt checks over part 2: $(awk -v a="$fchecks" -v b="$checks" 'BEGIN { print a - b }')."
  echo
  echo "| phase | customer req/s | customer p50 ms | customer p99 ms | customer errors | flood sent | 401 | throttled | 200 | gateway CPU ms/s |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  for p in quiet ${kinds//,/ }; do
    reqs=$(awk -v p="$p" -v s="$secs" '$1 == p { printf "%.0f ", $3 / s }' <<<"$floodrows")
    echo "| $p | $(spread "$reqs") | $(spreadf "$(col "$p" 4)") | $(spreadf "$(col "$p" 5)") | $(spread "$(col "$p" 6)") |" \
      "$(spread "$(col "$p" 7)") | $(spread "$(col "$p" 8)") | $(spread "$(col "$p" 9)") | $(spread "$(col "$p" 10)") | $(spread "$(col "$p" 12)") |"
  done
  echo
  echo "The customer's p99 with each flood over its p99 in the same round's quiet phase: the mean of the rounds' ratios"
  echo "and its 95% interval (Student's t)."
  echo
  echo "| flood | p99 / quiet p99 | customer req/s / quiet |"
  echo "| --- | --- | --- |"
  for p in ${kinds//,/ }; do
    p99r=$(awk -v p="$p" '$1 == "quiet" { q[$2] = $5 } $1 == p { f[$2] = $5 } END { for (r in f) printf "%.4f ", f[r] / q[r] }' <<<"$floodrows")
    rpsr=$(awk -v p="$p" '$1 == "quiet" { q[$2] = $3 } $1 == p { f[$2] = $3 } END { for (r in f) printf "%.4f ", f[r] / q[r] }' <<<"$floodrows")
    echo "| $p | $(paired "$p99r") | $(paired "$rpsr") |"
  done
  echo
  echo "### Every phase"
  echo
  echo '```'
  echo "$floodrows"
  echo '```'
} > "$out"
echo "wrote $out" >&2
