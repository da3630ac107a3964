#!/usr/bin/env bash
# Pools the rounds of several bench/gateway-vs-haproxy.sh results files: in each file, at each connection count, the
# harness's rule for disturbed rounds (keep_rounds, common.sh), then every kept round of every file counted once.
# Prints each target's CPU per request and p99 over the pooled rounds and the ratios the same-loop floor goals are
# judged on (slagate and `before` against the Netty spike and HAProxy), then the same CPU ratios taken round by round
# (both targets of a ratio measured in the same round, minutes apart at most) with their mean and a 95% interval
# (Student's t over the rounds): how far the host's drift between rounds leaves a ratio from a threshold. The files
# must have measured the same builds as slagate and as `before`: the script lists each file's command and pools rounds;
# it does not check builds.
#
#   bench/pool-runs.sh bench/results/gateway-vs-haproxy-switch-run1.md bench/results/gateway-vs-haproxy-switch-run2.md
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$home/bench/common.sh"
[ $# -ge 1 ] || { echo "usage: $0 RESULTS.md..." >&2; exit 2; }
for f in "$@"; do [ -r "$f" ] || { echo "$f: not readable" >&2; exit 2; }; done
every_run() { # results file → "round conns target req/s cpu p99" per row of its "Every run" table
  awk '/^## Every run/ { on = 1; next } /^## / { on = 0 }
    on && /^\| [0-9]+ \| [0-9]+ \| / { split($0, c, "|"); t = c[4]; gsub(/ /, "", t); print c[2] + 0, c[3] + 0, t, c[5] + 0, c[6] + 0, c[8] + 0 }' "$1"
}
declare -A CPU P99 PAIRS
conns=() targets=() left=""
for f in "$@"; do
  rows=$(every_run "$f"); [ -n "$rows" ] || { echo "$f: no \"Every run\" table" >&2; exit 2; }
  for c in $(awk '{ print $2 }' <<<"$rows" | sort -nu); do
    [[ " ${conns[*]} " == *" $c "* ]] || conns+=("$c")
    rounds=$(awk -v c="$c" '$2 == c && $3 == "haproxy" { print $1 }' <<<"$rows" | tr '\n' ' ')
    rates=$(awk -v c="$c" '$2 == c && $3 == "haproxy" { print $4 }' <<<"$rows" | tr '\n' ' ')
    keep=$(keep_rounds "$rates")
    [ "$(awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i; print s }' <<<"$keep")" -ge 2 ] || keep=$(sed 's/0/1/g' <<<"$keep")
    i=0
    for r in $rounds; do
      i=$((i + 1))
      if [ "$(awk -v i="$i" '{ print $i }' <<<"$keep")" = 0 ]; then left="$left $f round $r at $c;"; continue; fi
      declare -A ROUND=() ROUNDP=()
      while read -r _ _ t _ cpu p99; do
        [[ " ${targets[*]} " == *" $t "* ]] || targets+=("$t")
        CPU[$t,$c]="${CPU[$t,$c]:-} $cpu"; P99[$t,$c]="${P99[$t,$c]:-} $p99"; ROUND[$t]=$cpu; ROUNDP[$t]=$p99
      done < <(awk -v r="$r" -v c="$c" '$1 == r && $2 == c' <<<"$rows")
      a=${ROUNDP[gateway]:-} b=${ROUNDP[haproxy]:-}
      [ -n "$a" ] && [ -n "$b" ] && PAIRS[p99,$c]="${PAIRS[p99,$c]:-} $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", a / b }')"
      for pair in gateway/netty before/netty gateway/before; do
        a=${ROUND[${pair%/*}]:-} b=${ROUND[${pair#*/}]:-}
        [ -n "$a" ] && [ -n "$b" ] && PAIRS[$pair,$c]="${PAIRS[$pair,$c]:-} $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", a / b }')"
      done
    done
  done
done

echo "Pooled over $# runs (each file's command: the builds measured as slagate and as \`before\`):"
echo
for f in "$@"; do echo "- $f: $(grep -m1 '^Command: ' "$f" | sed 's/^Command: //')"; done
echo
echo "| conns | rounds kept | target | CPU µs/req mean [min..max] | p99 ms (median) |"
echo "| ---: | ---: | --- | ---: | ---: |"
for c in $(printf '%s\n' "${conns[@]}" | sort -n); do
  for t in "${targets[@]}"; do
    [ -n "${CPU[$t,$c]:-}" ] || continue
    echo "| $c | $(wc -w <<<"${CPU[$t,$c]}") | $t | $(spread "${CPU[$t,$c]}") | $(medianf "${P99[$t,$c]}") |"
  done
done
echo
echo "Rounds left out (HAProxy under 0.7x its median rate in that run):${left:- none}"
echo
echo "| conns | slagate/Netty spike CPU | p99 slagate/HAProxy | before/Netty spike CPU | p99 before/HAProxy | slagate/before CPU |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: |"
m() { [ -n "${CPU[$1,$2]:-}" ] && mean "${CPU[$1,$2]}" || true; }
p() { [ -n "${P99[$1,$2]:-}" ] && medianf "${P99[$1,$2]}" || true; }
for c in $(printf '%s\n' "${conns[@]}" | sort -n); do
  echo "| $c | $(ratio "$(m gateway "$c")" "$(m netty "$c")") | $(ratio "$(p gateway "$c")" "$(p haproxy "$c")") |" \
    "$(ratio "$(m before "$c")" "$(m netty "$c")") | $(ratio "$(p before "$c")" "$(p haproxy "$c")") |" \
    "$(ratio "$(m gateway "$c")" "$(m before "$c")") |"
done

echo
echo "The same ratios round by round: the mean of the kept rounds' ratios and its 95% interval, against the same-loop"
echo "floor's goals (CPU ≤ 1.05× the Netty spike's, p99 ≤ 1.3× HAProxy's): met when the interval lies under the bar, not"
echo "met above it, undecided across it."
echo
echo "| conns | slagate/Netty spike CPU | before/Netty spike CPU | slagate/before CPU | p99 slagate/HAProxy |"
echo "| ---: | ---: | ---: | ---: | ---: |"
for c in $(printf '%s\n' "${conns[@]}" | sort -n); do
  echo "| $c | $(paired "${PAIRS[gateway/netty,$c]:-}")$(decided "${PAIRS[gateway/netty,$c]:-}" 1.05) |" \
    "$(paired "${PAIRS[before/netty,$c]:-}") | $(paired "${PAIRS[gateway/before,$c]:-}") |" \
    "$(paired "${PAIRS[p99,$c]:-}")$(decided "${PAIRS[p99,$c]:-}" 1.3) |"
done
