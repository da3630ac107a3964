#!/usr/bin/env bash
# A request head's reading: the relay's RequestHead against Jetty's HttpParser as its server uses it, with JMH on one
# pinned core, written to bench/results/head-parsing.md. JMH's own forks would run all of one reading before the
# other's, so each run is one fork and the two take turns: A B B A B A. About 3 minutes.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$home"
mvn -B -q -DskipTests -pl benchmarks -am package
out="$home/bench/results/head-parsing.md"
work="$(mktemp -d)"
run() { taskset -c 1 java -cp benchmarks/target/benchmarks.jar org.openjdk.jmh.Main "HeadParsingBenchmark.$1\$" \
  -f 1 -wi 3 -w 2s -i 5 -r 2s -rf csv -rff "$work/$2.csv" > "$work/$2.log"; awk -F, 'NR==2 {printf "%.1f", $5}' "$work/$2.csv"; }
rows=""; r=0; m=""
for t in relay jetty jetty relay relay jetty; do
  r=$((r + 1)); ns=$(run "$t" "$r-$t"); rows="$rows| $r | $t | $ns |"$'\n'; m="$m $t=$ns"
done
mean() { tr ' ' '\n' <<<"$m" | awk -F= -v t="$1" '$1==t {s+=$2; n++; if (lo==""||$2<lo) lo=$2; if ($2>hi) hi=$2} END {printf "%.1f [%.1f..%.1f]", s/n, lo, hi}'; }
ratio=$(tr ' ' '\n' <<<"$m" | awk -F= '$1=="relay" {r+=$2; nr++} $1=="jetty" {j+=$2; nj++} END {printf "%.2f", (r/nr)/(j/nj)}')
{
  echo "# A request head's reading: the relay's RequestHead against Jetty's HttpParser — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/head-parsing.sh\` (JMH, average time per head, one fork per run, 3 × 2 s warm-up, 5 × 2 s measured,"
  echo "pinned on core 1; the two in turn A B B A B A). The head is the gateway benchmark's SOAP request (6 fields);"
  echo "each reading ends with the three fields classification takes as strings (SOAPAction, Content-Type, Authorization)."
  echo
  echo "| reading | ns per head, mean [min..max] of 3 runs |"
  echo "| --- | ---: |"
  echo "| relay (\`io.slagate.gateway.relay.RequestHead\`) | $(mean relay) |"
  echo "| Jetty (\`HttpParser\`, RFC 9110 compliance, fields into \`HttpFields\`) | $(mean jetty) |"
  echo
  echo "relay / Jetty: $ratio"
  echo
  echo "## Every run"
  echo
  echo "| run | reading | ns per head |"
  echo "| ---: | --- | ---: |"
  printf "%s" "$rows"
} > "$out"
cat "$out"
