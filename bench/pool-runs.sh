#!/usr/bin/env bash
# Pools the rounds of several bench/gateway-vs-haproxy.sh results files: in each file, at each connection count, the
# harness's rule for disturbed rounds (HAProxy under 0.7x its median rate there; never fewer than two rounds kept), then
# every kept round of every file counted once. Prints each target's CPU per request and p99 over the pooled rounds and
# the ratios the same-loop floor goals are judged on (slagate and `before` against the Netty spike and HAProxy). The files
# must have measured the same builds as slagate and as `before`: the script pools rounds, it does not check builds.
#
#   bench/pool-runs.sh bench/results/gateway-vs-haproxy-switch-run1.md bench/results/gateway-vs-haproxy.md
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 RESULTS.md..." >&2; exit 2; }
for f in "$@"; do [ -r "$f" ] || { echo "$f: not readable" >&2; exit 2; }; done

awk '
  FNR == 1 { file++ }
  /^## Every run/ { inrun = 1; next }
  /^## / { inrun = 0 }
  inrun && /^\| [0-9]+ \| [0-9]+ \| / {
    split($0, c, "|"); r = c[2] + 0; n = c[3] + 0; t = c[4]; gsub(/ /, "", t)
    key = file SUBSEP n SUBSEP r
    rps[key, t] = c[5] + 0; cpu[key, t] = c[6] + 0; p99[key, t] = c[8] + 0
    if (!((file, n, r) in seen)) { seen[file, n, r] = 1; rounds[file, n] = rounds[file, n] " " r }
    if (!(n in conns)) { conns[n] = 1; order[++nc] = n }
    targets[t] = 1
  }
  function median(s,    v, k, i, j, x) {
    k = split(s, v, " ")
    for (i = 2; i <= k; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
    return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
  }
  END {
    if (!nc) { print "no \"Every run\" table found" > "/dev/stderr"; exit 2 }
    nt = split("direct haproxy gateway before netty relay jetty-server jetty", tord, " ")
    for (t in targets) { known = 0; for (o = 1; o <= nt; o++) if (tord[o] == t) known = 1; if (!known) tord[++nt] = t }
    for (i = 1; i <= nc; i++) for (j = i + 1; j <= nc; j++) if (order[j] < order[i]) { x = order[i]; order[i] = order[j]; order[j] = x }
    print "Pooled over " file " runs: " ARGV_LIST
    print ""
    print "| conns | rounds kept | target | CPU µs/req mean [min..max] | p99 ms (median) |"
    print "| ---: | ---: | --- | ---: | ---: |"
    for (i = 1; i <= nc; i++) {
      n = order[i]; kept = 0
      delete pc; delete pp; delete cnt
      for (f = 1; f <= file; f++) {
        k = split(rounds[f, n], rr, " "); if (!k) continue
        hs = ""; for (j = 1; j <= k; j++) hs = hs " " rps[f SUBSEP n SUBSEP rr[j], "haproxy"]
        m = median(hs); nk = 0
        for (j = 1; j <= k; j++) if (rps[f SUBSEP n SUBSEP rr[j], "haproxy"] >= 0.7 * m) nk++
        for (j = 1; j <= k; j++) {
          key = f SUBSEP n SUBSEP rr[j]
          if (nk >= 2 && rps[key, "haproxy"] < 0.7 * m) { left = left " run " f " round " rr[j] " at " n ";"; continue }
          kept++
          for (t in targets) if ((key, t) in cpu) {
            pc[t] = pc[t] " " cpu[key, t]; pp[t] = pp[t] " " p99[key, t]; cnt[t]++
            s[n, t] += cpu[key, t]
            if (!((n, t) in lo) || cpu[key, t] < lo[n, t]) lo[n, t] = cpu[key, t]
            if (!((n, t) in hi) || cpu[key, t] > hi[n, t]) hi[n, t] = cpu[key, t]
          }
        }
      }
      for (o = 1; o <= nt; o++) { t = tord[o]; if (!(t in cnt)) continue
        mc[n, t] = s[n, t] / cnt[t]; mp[n, t] = median(pp[t])
        printf "| %d | %d | %s | %.1f [%.1f..%.1f] | %.3f |\n", n, cnt[t], t, mc[n, t], lo[n, t], hi[n, t], mp[n, t]
      }
    }
    print ""
    print "Rounds left out (HAProxy under 0.7x its median rate in that run):" (left == "" ? " none" : left)
    print ""
    print "| conns | slagate/Netty spike CPU | p99 slagate/HAProxy | before/Netty spike CPU | p99 before/HAProxy | slagate/before CPU |"
    print "| ---: | ---: | ---: | ---: | ---: | ---: |"
    for (i = 1; i <= nc; i++) {
      n = order[i]
      printf "| %d | %s | %s | %s | %s | %s |\n", n, ratio(mc[n, "gateway"], mc[n, "netty"]), ratio(mp[n, "gateway"], mp[n, "haproxy"]),
        ratio(mc[n, "before"], mc[n, "netty"]), ratio(mp[n, "before"], mp[n, "haproxy"]), ratio(mc[n, "gateway"], mc[n, "before"])
    }
  }
  function ratio(a, b) { return (a == "" || b == "" || b == 0) ? "-" : sprintf("%.2f", a / b) }
' ARGV_LIST="$*" "$@"
