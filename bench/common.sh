# Shared by the gateway benchmarks (sourced): the ports they need, the trivial SOAP backend and the gateway's
# configuration.

# The results file's line naming the commit measured: the working tree's HEAD (the jars are built from it), and whether
# files other than bench/results differ from it.
commit_measured() {
  echo "Commit measured: $(git -C "$home" rev-parse --short HEAD)$(git -C "$home" diff --quiet HEAD -- . ':!bench/results' || echo ', with uncommitted changes')."
}

# Exits unless every port given is free, waiting up to 5 s for each (a previous run's JVM may still be exiting).
require_free_ports() {
  local p
  for p in "$@"; do
    for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || continue 2; sleep 0.1; done
    echo "port $p is in use; stop what listens there first" >&2; exit 1
  done
}

# On exit: the script's background jobs and the daemons whose pid files are in $work.
stop_bench_processes() {
  kill $(jobs -p) 2>/dev/null || true
  local pidfile
  for pidfile in "$work"/*.pid; do [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true; done
}

# nginx with one worker answering every request with a fixed SOAP reply, on 127.0.0.1:$2; files in $1.
start_nginx() {
  local work="$1" port="$2"
  local reply='<?xml version="1.0"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><ns:getQuoteResponse xmlns:ns="urn:stock"><ns:return>42.0</ns:return></ns:getQuoteResponse></soapenv:Body></soapenv:Envelope>'
  cat > "$work/nginx.conf" <<NGINX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
worker_rlimit_nofile 40000;
events { worker_connections 16384; }
http {
  access_log off;
  keepalive_requests 1000000;
  client_body_temp_path $work;
  client_max_body_size 64m;
  server {
    listen 127.0.0.1:$port;
    location / { default_type "text/xml; charset=utf-8"; return 200 '$reply'; }
  }
}
NGINX
  ${NGINX_PIN:-} nginx -c "$work/nginx.conf"
}

# The benchmark gateway: one server with N_s = $GW_CAP (64), two classes by SOAPAction, WRR weights
# $GW_WEIGHTS (premium 40, basic 24).
#   gateway_yaml ID PORT ADMIN_PORT BACKEND_PORT [MORE_GATEWAY_KEYS] > file
gateway_yaml() {
  cat <<YAML
gateway: { id: $1, listen: "127.0.0.1:$2", admin: "127.0.0.1:$3"${5:+, $5} }
servers: [ { id: s1, url: "http://127.0.0.1:$4", concurrency: ${GW_CAP:-64} } ]
classes:
  - { name: premium, target: 1s, queueBound: 10000 }
  - { name: basic, target: 2s, queueBound: 10000 }
classification:
  rules: [ { operation: "urn:premium", class: premium } ]
  defaultClass: basic
allocation: { weights: { ${GW_WEIGHTS:-premium: 40, basic: 24} } }
YAML
}

# One gateway per mode in $modes on core $SERVE, configured by gateway_yaml with PORT[mode] (its admin port next) and
# KEYS[mode], run from JARS[mode] when that is declared (else the launcher's jar); its pid in PID[mode] (declare -A PID
# first). Returns once each answers /ready; exits with a gateway's log when one does not within 15 s.
start_gateways() {
  local m
  for m in "${modes[@]}"; do
    local jar="$home/launcher/target/slagate.jar"
    if declare -p JARS >/dev/null 2>&1; then jar="${JARS[$m]:-$jar}"; fi
    gateway_yaml "gw-${m/+/-}" "${PORT[$m]}" "$((PORT[$m] + 1))" "$BACKEND" "${KEYS[$m]}" > "$work/$m.yaml"
    $SERVE java ${JAVA_OPTS:-} -XX:+UseG1GC -jar "$jar" gateway --config "$work/$m.yaml" \
      > "$work/$m.out" 2>&1 &
    PID[$m]=$!
  done
  for m in "${modes[@]}"; do
    for _ in $(seq 1 150); do curl -sf "http://127.0.0.1:$((PORT[$m] + 1))/ready" >/dev/null && break; sleep 0.1; done
    curl -sf "http://127.0.0.1:$((PORT[$m] + 1))/ready" >/dev/null || { echo "gateway $m did not start:" >&2; cat "$work/$m.out" >&2; exit 1; }
  done
}

# async-profiler 4.1 (Maven Central) unpacked into $work; prints the agent library's path.
async_profiler() {
  (cd "$home" && mvn -B -q dependency:copy -Dartifact=tools.profiler:async-profiler:4.1 -DoutputDirectory="$work" >&2)
  (cd "$work" && unzip -q -o async-profiler-4.1.jar 'linux-x64/*')
  echo "$work/linux-x64/libasyncProfiler.so"
}

# Means of whitespace-separated numbers: mean (one decimal), meanf (three).
mean() { awk '{ s=0; for (i=1;i<=NF;i++) s+=$i; printf "%.1f", s/NF }' <<<"$1"; }
meanf() { awk '{ s=0; for (i=1;i<=NF;i++) s+=$i; printf "%.3f", s/NF }' <<<"$1"; }
# The median of whitespace-separated numbers (three decimals): for p99s over rounds, where one round's outlier should not decide.
medianf() { tr ' ' '\n' <<<"$1" | awk 'NF' | sort -g | awk '{ v[NR]=$1 } END { if (NR % 2) printf "%.3f", v[(NR+1)/2]; else printf "%.3f", (v[NR/2]+v[NR/2+1])/2 }'; }
# A round in which HAProxy, the steadiest target (no JIT, no collector), answered under 0.7x its median rate at that
# connection count was disturbed by the host for whatever ran near it: bench/gateway-vs-haproxy.sh and
# bench/pool-runs.sh leave it out of every target's means and medians, never leaving fewer than two rounds. Fixed
# before the runs it applies to.
keep_rounds() { # the HAProxy rates of the rounds → one 1 (kept) or 0 (left out) per round
  awk -v m="$(medianf "$1")" '{ for (i = 1; i <= NF; i++) printf "%d ", ($i >= 0.7 * m) }' <<<"$1"
}
# a / b to two decimals (or the third argument's), or - when either is missing
ratio() { [ -n "$1" ] && [ -n "$2" ] && awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { printf "%.*f", d, a / b }' || echo -; }
# The mean with the smallest and largest: "12.3 [11.0..13.5]" (spread: one decimal, spreadf: three).
spread() { awk '{ s=0; lo=$1; hi=$1; for (i=1;i<=NF;i++) { s+=$i; if ($i<lo) lo=$i; if ($i>hi) hi=$i }; printf "%.1f [%.1f..%.1f]", s/NF, lo, hi }' <<<"$1"; }
spreadf() { awk '{ s=0; lo=$1; hi=$1; for (i=1;i<=NF;i++) { s+=$i; if ($i<lo) lo=$i; if ($i>hi) hi=$i }; printf "%.3f [%.3f..%.3f]", s/NF, lo, hi }' <<<"$1"; }

# One wrk run against a gateway, with that gateway's CPU over it (LOAD pins wrk; CUSTOMERS=2 alternates
# two HTTP Basic customers):
#   wrk_cpu_run PID PORT CLOSE(0|1) SECS → "rps p99ms cpu_us_per_request cpu_us_per_request_without_jit errors"
# CPU per request is the process's own utime + stime (/proc/PID/stat, all threads) over the requests wrk completed;
# the second figure leaves out the JIT compiler threads (C1, C2): compiling is a cost of the JVM's first minutes,
# not of a request, and on one pinned core it moved a run by up to a fifth. HotSpot names those threads
# "C1 CompilerThre…" and "C2 CompilerThre…" (/proc/PID/task/*/comm).
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
jit_ticks() { local t s=0; for t in /proc/"$1"/task/*; do case "$(cat "$t/comm" 2>/dev/null)" in "C1 Compiler"*|"C2 Compiler"*) s=$((s + $(awk '{print $14 + $15}' "$t/stat")));; esac; done; echo "$s"; }
# wrk latency (e.g. 812.00us, 1.20ms, 1.01s) → milliseconds
ms() { awk -v v="$1" 'BEGIN { n=v+0; if (v ~ /us$/) n/=1000; else if (v ~ /ms$/) n=n; else if (v ~ /s$/) n*=1000; printf "%.3f", n }'; }
wrk_cpu_run() {
  local o c1 c2 j1 j2 rps p99 errs hz
  hz=$(getconf CLK_TCK)
  c1=$(cpu_ticks "$1"); j1=$(jit_ticks "$1")
  o=$(CLOSE=$3 CUSTOMERS=${CUSTOMERS:-2} ${LOAD:-} wrk -t1 -c64 -d"$4"s --latency -s "$home/bench/post.lua" "http://127.0.0.1:$2" 2>&1)
  c2=$(cpu_ticks "$1"); j2=$(jit_ticks "$1")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$o")
  p99=$(awk '$1=="99%" {print $2}' <<<"$o")
  errs=$(awk '/Non-2xx|Socket errors/ {print}' <<<"$o" | tr ' \n' '_ ')
  echo "$rps $(ms "$p99") $(awk -v t=$((c2 - c1)) -v hz="$hz" -v r="$rps" -v s="$4" 'BEGIN { printf "%.1f", t / hz * 1e6 / (r * s) }')" \
    "$(awk -v t=$((c2 - c1 - j2 + j1)) -v hz="$hz" -v r="$rps" -v s="$4" 'BEGIN { printf "%.1f", t / hz * 1e6 / (r * s) }') ${errs:-none}"
}

# Each mode of $modes warmed up for WARM seconds (default 60) with run MODE SECS, then ROUNDS rounds of SECS each, the
# modes' order reversed every other round (ABBA); fills RPS, P99, CPU, CPUNJ (declare -A them first) with each mode's
# figures and rows with a markdown row per run ("| round | mode | req/s | CPU | without the JIT | p99 | errors |").
#   run_modes_abba SECS ROUNDS
run_modes_abba() {
  local secs="$1" rounds="$2" r m i rps p99 cpu cpunj errs
  echo "warming up each gateway for ${WARM:-60} s ..." >&2
  for m in "${modes[@]}"; do run "$m" "${WARM:-60}" >/dev/null; done
  rows=""
  for r in $(seq 1 "$rounds"); do
    local order=()
    if [ $((r % 2)) -eq 0 ]; then for ((i = ${#modes[@]} - 1; i >= 0; i--)); do order+=("${modes[$i]}"); done
    else order=("${modes[@]}"); fi
    for m in "${order[@]}"; do
      read -r rps p99 cpu cpunj errs <<<"$(run "$m" "$secs")"
      echo "round $r $m: $rps req/s p99 ${p99}ms CPU ${cpu}us/req (${cpunj} without the JIT) errors: $errs" >&2
      rows="$rows| $r | $m | $rps | $cpu | $cpunj | $p99 | ${errs//_/ } |"$'\n'
      RPS[$m]="${RPS[$m]:-} $rps"; P99[$m]="${P99[$m]:-} $p99"; CPU[$m]="${CPU[$m]:-} $cpu"; CPUNJ[$m]="${CPUNJ[$m]:-} $cpunj"
    done
  done
}

# The means of run_modes_abba's figures as a markdown table, the first column headed $1; CPU also as a ratio to mode "off".
#   modes_means_table HEADING
modes_means_table() {
  local m base
  echo "| $1 | req/s | CPU µs/req | without the JIT | without the JIT / off | p99 ms |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
  base=$(mean "${CPUNJ[off]}")
  for m in "${modes[@]}"; do
    echo "| $m | $(spread "${RPS[$m]}") | $(spread "${CPU[$m]}") | $(spread "${CPUNJ[$m]}") | $(awk -v a="$(mean "${CPUNJ[$m]}")" -v b="$base" 'BEGIN { printf "%.3f", a / b }') | $(spreadf "${P99[$m]}") |"
  done
}

# RATIOS → "mean halfwidth n": their mean and the half-width of its 95% interval (Student's t, n - 1 degrees of freedom)
t_interval() {
  awk '{ n = NF; for (i = 1; i <= n; i++) s += $i; m = s / n; for (i = 1; i <= n; i++) v += ($i - m) ^ 2
    split("12.71 4.30 3.18 2.78 2.57 2.45 2.36 2.31 2.26 2.23 2.20 2.18 2.16 2.14 2.13 2.12 2.11 2.10 2.09 2.09 2.08 2.07 2.07 2.06 2.06 2.06 2.05 2.05 2.05 2.04", t, " ")
    h = (n < 2) ? 0 : (n - 1 <= 30 ? t[n - 1] : 2.0) * sqrt(v / (n - 1) / n)
    printf "%.6f %.6f %d", m, h, n }' <<<"$1"
}
# paired RATIOS → "mean [lo..hi] (n)": the mean of the rounds' ratios and its 95% interval
paired() {
  [ -n "$1" ] || { echo -; return; }
  local m h n; read -r m h n <<<"$(t_interval "$1")"
  if [ "$n" -lt 2 ]; then awk -v m="$m" 'BEGIN { printf "%.2f (1 round)", m }'; return; fi
  awk -v m="$m" -v h="$h" -v n="$n" 'BEGIN { printf "%.2f [%.2f..%.2f] (%d rounds)", m, m - h, m + h, n }'
}
# paired RATIOS BAR → ": met" when the 95% interval of the ratios lies under BAR, ": not met" above it, ": undecided" across it
decided() {
  [ -n "$1" ] || return 0
  local m h n; read -r m h n <<<"$(t_interval "$1")"
  awk -v m="$m" -v h="$h" -v n="$n" -v bar="$2" 'BEGIN { print (n < 2) ? ": undecided" : (m + h <= bar) ? ": met" : (m - h > bar) ? ": not met" : ": undecided" }'
}
