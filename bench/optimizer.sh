#!/usr/bin/env bash
# Optimizer solve time: JMH over K ∈ {4,20,100,500} flows × N ∈ {10,100,1000,10000} units,
# DP and greedy, written to bench/results/optimizer.md. About 10 minutes; --quick for a smoke run.
# --models: the DP with M/M/1 and with the closed population model, to bench/results/optimizer-models.md.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$home"
mvn -B -q -DskipTests -pl benchmarks -am package
java -jar benchmarks/target/benchmarks.jar bench/results/optimizer.md "$@"
