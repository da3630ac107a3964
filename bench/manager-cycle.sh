#!/usr/bin/env bash
# The resource manager's work per control cycle at 10 to 10,000 gateways (C = 10, S = 100), on one thread: reports
# decoded (the bus threads' work as they arrive), then the control thread's cycle: reports observed, the step, every
# gateway's part encoded. With model mmm to bench/results/manager-cycle.md, and with the default model auto (up to 500
# gateways) to bench/results/manager-cycle-auto.md. About 12 minutes.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$home"
mvn -B -q -DskipTests -pl benchmarks -am package
java -cp benchmarks/target/benchmarks.jar io.slagate.bench.ManagerCycleMain bench/results/manager-cycle.md mmm
java -cp benchmarks/target/benchmarks.jar io.slagate.bench.ManagerCycleMain bench/results/manager-cycle-auto.md auto
