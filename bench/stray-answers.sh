#!/usr/bin/env bash
# Where a server's late stray answers land, per gateway.upstreamReuse mode: a server that writes a forged,
# complete answer 0.4 s (after the 250 ms quiet check) or 3 s after each answer to a late_tail request, eight
# keep-alive clients of two customers alternating late_tail and good requests. Each round runs
# StrayAnswerDelayTest (gateway/src/test/java/io/slagate/gateway/StrayAnswerDelayTest.java), whose cases
# print one row each; every round is kept.
#
#   bench/stray-answers.sh [ROUNDS]   → bench/results/stray-answers.md
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$home/bench/common.sh"
rounds="${1:-3}"
out="$home/bench/results/stray-answers.md"
cd "$home"
mvn -B -q -DskipTests install -pl gateway -am >/dev/null
rows=""
for r in $(seq 1 "$rounds"); do
  mvn -B -q -pl gateway test -Dtest=StrayAnswerDelayTest -Dsurefire.failIfNoSpecifiedTests=false >/dev/null
  while IFS= read -r line; do rows="$rows| $r $line"$'\n'; done \
    < <(grep -h '^| ' gateway/target/surefire-reports/io.slagate.gateway.StrayAnswerDelayTest-output.txt)
  echo "round $r done" >&2
done
{
  echo "# Late stray answers: where they land, per upstreamReuse mode — $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "Command: \`bench/stray-answers.sh $rounds\`"
  echo
  commit_measured
  echo
  echo "One server (N_s = 16) that writes a forged, complete answer a fixed delay after each answer to a"
  echo "\`?mode=late_tail\` request, reading nothing on that connection meanwhile. Eight keep-alive clients, customers"
  echo "c0 and c1 alternating, each sending 10 (0.4 s) or 4 (3 s) pairs of a late_tail and a good request. Every"
  echo "answer names its request, so a client tells its own answer from a stray. Each case starts once the server"
  echo "earned connection reuse (a quiet check passed), the state in which a first stray can cross."
  echo
  echo "- *not own*: answers that were not the request's own (a stray or a shifted answer), of any client;"
  echo "- *other client* / *other customer*: of those, the ones that were another client's / another customer's;"
  echo "- *distrusted*: the server lost connection reuse by the end of the case (any byte on an idle connection)."
  echo
  echo "## Means [min..max] over the rounds"
  echo
  echo "| stray after | upstreamReuse | not own | other client | other customer |"
  echo "| ---: | --- | ---: | ---: | ---: |"
  printf "%s" "$rows" | awk -F'|' '
    { k = $3 "|" $4; if (!(k in n)) { order[++m] = k }; n[k]++
      for (c = 6; c <= 8; c++) { v = $c + 0; s[k, c] += v
        if (n[k] == 1 || v < lo[k, c]) lo[k, c] = v; if (n[k] == 1 || v > hi[k, c]) hi[k, c] = v } }
    END { for (i = 1; i <= m; i++) { k = order[i]; split(k, p, "|"); line = "|" p[1] "|" p[2] "|"
        for (c = 6; c <= 8; c++) line = line sprintf(" %.1f [%d..%d] |", s[k, c] / n[k], lo[k, c], hi[k, c]); print line } }'
  echo
  echo "## Every round"
  echo
  echo "| round | stray after | upstreamReuse | requests | not own | other client | other customer | other | distrusted |"
  echo "| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |"
  printf "%s" "$rows"
  echo
  echo "## Reading"
  echo
  echo "HTTP/1.1 gives no way to tell a late stray from the next request's answer on the same connection: once a"
  echo "stray is in flight while the connection carries the next request, that request gets it, and the answers on"
  echo "that connection stay one behind until bytes arrive while it is idle (then the server is distrusted for 60 s"
  echo "and its connections serve one exchange each). The reuse mode decides whose request that is: \`shared\` anyone's,"
  echo "\`customer\` only the same customer's, \`client-connection\` only the same client's. Servers that may speak out"
  echo "of turn belong under \`customer\` or \`client-connection\`."
} > "$out"
echo "wrote $out" >&2
