#!/usr/bin/env bash
# The resource manager's work per control cycle at 10, 100, 500 and 1,000 gateways (C = 10, S = 100), on one thread:
# reports decoded, the step, every gateway's part encoded. Written to bench/results/manager-cycle.md. About 2 minutes.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$home"
mvn -B -q -DskipTests -pl benchmarks -am package
java -cp benchmarks/target/benchmarks.jar io.slagate.bench.ManagerCycleMain bench/results/manager-cycle.md "$@"
