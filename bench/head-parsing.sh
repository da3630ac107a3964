#!/usr/bin/env bash
# A head's reading: the relay's RequestHead against Jetty's HttpParser as its server uses it, and a server's answer head
# read by ResponseHead against Jetty's HttpParser as the upstream leg uses it, with JMH on one pinned core, written to
# bench/results/head-parsing.md. JMH's own forks would run all of one reading before the other's, so each run is one
# fork and the readings of a head take turns (A B B A B A; A B C D D C B A A B C D). About 8 minutes.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$home/bench/common.sh"
cd "$home"
mvn -B -q -DskipTests -pl benchmarks -am package
out="$home/bench/results/head-parsing.md"
work="$(mktemp -d)"
run() { taskset -c 1 java -cp benchmarks/target/benchmarks.jar org.openjdk.jmh.Main "HeadParsingBenchmark.$1\$" \
  -f 1 -wi 3 -w 2s -i 5 -r 2s -rf csv -rff "$work/$2.csv" > "$work/$2.log"; awk -F, 'NR==2 {printf "%.1f", $5}' "$work/$2.csv"; }
rows=""; r=0; m=""
for t in relay jetty jetty relay relay jetty answerRelayFields answerJetty answerRelay answerRelayDirect answerRelayDirect \
  answerRelay answerJetty answerRelayFields answerRelayFields answerJetty answerRelay answerRelayDirect; do
  r=$((r + 1)); ns=$(run "$t" "$r-$t"); rows="$rows| $r | $t | $ns |"$'\n'; m="$m $t=$ns"
done
mean() { tr ' ' '\n' <<<"$m" | awk -F= -v t="$1" '$1==t {s+=$2; n++; if (lo==""||$2<lo) lo=$2; if ($2>hi) hi=$2} END {printf "%.1f [%.1f..%.1f]", s/n, lo, hi}'; }
ratio() { tr ' ' '\n' <<<"$m" | awk -F= -v a="$1" -v b="$2" '$1==a {r+=$2; nr++} $1==b {j+=$2; nj++} END {printf "%.2f", (r/nr)/(j/nj)}'; }
{
  echo "# A head's reading: the relay's RequestHead and ResponseHead against Jetty's HttpParser — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/head-parsing.sh\` (JMH, average time per head, one fork per run, 3 × 2 s warm-up, 5 × 2 s measured,"
  echo "pinned on core 1; the two in turn A B B A B A). The head is the gateway benchmark's SOAP request (6 fields);"
  echo "each reading ends with the three fields classification takes as strings (SOAPAction, Content-Type, Authorization)."
  echo "The answer is the benchmark's nginx answer head (5 fields) on the heap, as the upstream leg holds it:"
  echo "ResponseHead reads it in place (status, framing, reuse: what relaying its bytes needs), the same from direct"
  echo "memory, and with its fields collected into HttpFields (what the upstream leg does for Jetty's listener); Jetty's"
  echo "parser, in the upstream leg's compliance, collecting its fields (the upstream leg's reading before ResponseHead)."
  echo
  commit_measured
  echo
  echo "| head | reading | ns per head, mean [min..max] of 3 runs |"
  echo "| --- | --- | ---: |"
  echo "| request | relay (\`io.slagate.gateway.http1.RequestHead\`) | $(mean relay) |"
  echo "| request | Jetty (\`HttpParser\`, RFC 9110 compliance, fields into \`HttpFields\`) | $(mean jetty) |"
  echo "| answer | relay (\`io.slagate.gateway.http1.ResponseHead\`) | $(mean answerRelay) |"
  echo "| answer | relay, from direct memory | $(mean answerRelayDirect) |"
  echo "| answer | relay, fields into \`HttpFields\` (the upstream leg for Jetty's listener) | $(mean answerRelayFields) |"
  echo "| answer | Jetty (\`HttpParser\`, the upstream leg's compliance, fields into \`HttpFields\`) | $(mean answerJetty) |"
  echo
  echo "relay / Jetty: request $(ratio relay jetty), answer $(ratio answerRelay answerJetty), answer with its fields $(ratio answerRelayFields answerJetty); heap / direct $(ratio answerRelay answerRelayDirect)"
  echo
  echo "## Every run"
  echo
  echo "| run | reading | ns per head |"
  echo "| ---: | --- | ---: |"
  printf "%s" "$rows"
} > "$out"
cat "$out"
