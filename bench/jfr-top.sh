#!/usr/bin/env bash
# Summarizes a JFR recording: the hottest methods by self samples, and by inclusive samples of slagate code.
#   bench/jfr-top.sh bench/results/gateway-64c.jfr [N]
set -euo pipefail
f="$1"; n="${2:-25}"
tmp="$(mktemp)"
jfr print --events jdk.ExecutionSample --stack-depth 64 "$f" > "$tmp"
total=$(grep -c "jdk.ExecutionSample" "$tmp" || true)
echo "samples: $total"
echo; echo "top $n by self samples (top frame):"
awk '/stackTrace = \[/ {getline; sub(/^[ \t]+/, ""); sub(/line:.*/, ""); print}' "$tmp" | sort | uniq -c | sort -rn | head -"$n"
echo; echo "top $n frames by inclusive samples (each frame counted once per sample):"
awk '/jdk.ExecutionSample/ {delete seen} /^[ \t]+[a-z].*line:/ {l=$0; sub(/^[ \t]+/, "", l); sub(/line:.*/, "", l); if (!(l in seen)) {seen[l]=1; print l}}' "$tmp" \
  | sort | uniq -c | sort -rn | head -"$n"
rm -f "$tmp"
