package io.slagate.experiment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** Experiment scale's results file: the set-up, every point, the growth from 100 to 500 gateways, the broker's loss. */
final class ScaleReport {
    private ScaleReport() {
    }

    static void write(Path file, String command, boolean quick, Duration settle, Duration measure, List<ScaleRun.Result> results,
                      ScaleRun.Loss loss, String line) throws Exception {
        StringBuilder md = ResultsFile.header("Experiment scale: the control plane with hundreds of gateways"
                + (quick ? " (short)" : ""), command);
        md.append(String.format(Locale.ROOT, """
                Two brokers in a network (each its own JVM, authentication and roles on, each bridging every slagate topic to
                the other), the real resource manager in its own JVM on a failover URL of both (broker A first), and G
                simulated gateways in the experiment's JVM: real bus clients with their own connections, half starting on
                each broker, each reporting C classes and S servers every %d s (an M/M/1 slot queue's response time at the
                share it holds) and applying the allocations it receives. The cluster has %d slots (N_s = %d / S); the
                control cycle is %d s. Each point settles %d s, then is measured over %d s. Every process shares the
                machine's two cores: what a deployment spreads over hundreds of hosts runs here on one.

                - *cycle*: the manager's solve (its decision's figure) plus the time until the last message of the cycle
                  (the summary, sent after every gateway's part) reached an observer: solve and publish.
                - *cycle CPU*: the CPU time the manager's control thread spent on the cycle (its decision's figure: the
                  solve, every gateway's part encoded and handed to the bus), the work without the waits for a core;
                  reports are decoded on the bus's threads as they arrive, counted in the manager's cores, not here.
                - *fan-out*: per cycle, from the decision until 99%% of the gateways had applied it; p50 and p99 over the
                  cycles of the window (a cycle fewer than 99%% ever applied counts as infinite).
                - *bytes*: per gateway per reporting interval, what the experiment's JVM read and wrote on its sockets
                  (OpenWire framing included) over the window, divided by G × intervals; JSON: the payloads alone.
                - *CPU*: CPU seconds per second of the JVM (cores): the manager's, both brokers', and the experiment's own
                  (the simulated gateways); their sum against the machine's cores says how much the cycle waited for a CPU.
                  Heap: young and old generations in use at the end. The manager's own work per cycle, alone on a core,
                  is in bench/results/manager-cycle.md.

                | G | C | S | connected (s) | admitted after (s) | cycles | cycle p50 (ms) | cycle p99 (ms) | solve p99 (ms) | cycle CPU p50 (ms) | cycle CPU p99 (ms) | fan-out p50 (ms) | fan-out p99 (ms) | cycles below 99%% | bytes in | bytes out | JSON in | JSON out | manager cores | manager heap (MiB) | brokers cores | brokers heap (MiB) | simulated gateways' cores |
                |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
                """, ScaleExperiment.interval().toSeconds(), ScaleExperiment.SLOTS, ScaleExperiment.SLOTS,
                ScaleExperiment.cycle().toSeconds(), settle.toSeconds(), measure.toSeconds()));
        for (ScaleRun.Result r : results) {
            md.append(String.format(Locale.ROOT, "| %d | %d | %d | %.1f | %.1f | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %d | %.0f | %.0f | %.0f |"
                            + " %.0f | %.2f | %.0f | %.2f | %.0f | %.2f |%n", r.point().gateways(), r.point().classes(), r.point().servers(),
                    r.connectSeconds(), r.joinSeconds() - r.connectSeconds(), r.cycles(), r.cycleP50(), r.cycleP99(), r.solveP99(), r.cycleCpuP50(), r.cycleCpuP99(), r.fanOutP50(), r.fanOutP99(),
                    r.versionsNotReaching99(), r.wireBytesIn(), r.wireBytesOut(), r.jsonIn(), r.jsonOut(), r.managerCpu(), r.managerHeap(),
                    r.brokersCpu(), r.brokersHeap(), r.simulationCpu()));
        }
        growth(md, results);
        md.append(String.format(Locale.ROOT, "%n## A broker lost%n%nAt the last point, with a real gateway (on broker A, like the"
                + " manager) carrying 40 requests/s to a synthetic server, broker A is killed (SIGKILL). %s.%n", loss.line()));
        goals(md, results.get(results.size() - 1), loss, line);
        ResultsFile.write(file, md);
    }

    /** Each goal at the last point, what was measured and whether it held, then the result line. */
    private static void goals(StringBuilder md, ScaleRun.Result end, ScaleRun.Loss loss, String line) {
        md.append(String.format(Locale.ROOT, """

                ## Goals

                | goal | measured | held |
                |---|---|---|
                | cycle p99 ≤ 250 ms at G = 500, C = 10, S = 100 | %.0f ms | %s |
                | the cycle's CPU p99 ≤ 250 ms at G = 500 | %.0f ms | %s |
                | fan-out to 99%% of gateways ≤ 1000 ms | %.0f ms | %s |
                | ≤ 4096 bytes per gateway per interval each way | in %.0f, out %.0f | %s |
                | a burst of joins: all admitted ≤ 2 cycles after the last connected | %.1f s | %s |
                | broker loss: gateways reconnected ≤ 5 s | %.1f s | %s |
                | broker loss: a new allocation applied everywhere ≤ 2 cycles after the loss | %.1f s | %s |
                | (the same, from each gateway's reconnection) | %.1f s | %s |
                | broker loss: 0 data-plane errors | %d of %d | %s |

                ```
                %s
                ```
                """, end.cycleP99(), yes(end.cycleP99() <= 250), end.cycleCpuP99(), yes(end.cycleCpuP99() <= 250), end.fanOutP99(), yes(end.fanOutP99() <= 1000), end.wireBytesIn(),
                end.wireBytesOut(), yes(end.wireBytesPerInterval() <= 4096), end.joinSeconds() - end.connectSeconds(),
                yes(end.joinSeconds() - end.connectSeconds() <= 2.0 * ScaleExperiment.cycle().toSeconds()), loss.reconnectSeconds(),
                yes(loss.reconnectSeconds() <= 5), loss.allAppliedSeconds(),
                yes(loss.allAppliedSeconds() <= 2.0 * ScaleExperiment.cycle().toSeconds()), loss.afterReconnectSeconds(),
                yes(loss.afterReconnectSeconds() <= 2.0 * ScaleExperiment.cycle().toSeconds()), loss.errors(),
                loss.requests(), yes(loss.errors() == 0), line));
    }

    /** The cost per cycle from 100 to 500 gateways (same C and S), against linear growth. */
    private static void growth(StringBuilder md, List<ScaleRun.Result> results) {
        for (ScaleRun.Result few : results) {
            for (ScaleRun.Result many : results) {
                if (few.point().gateways() == 100 && many.point().gateways() == 500 && few.point().classes() == many.point().classes()
                        && few.point().servers() == many.point().servers()) {
                    md.append(String.format(Locale.ROOT, "%nFrom 100 to 500 gateways (C = %d, S = %d), against linear growth (1:"
                                    + " linear, below: slower): cycle p50 %.2f, the manager's CPU %.2f, the brokers' CPU %.2f.%n",
                            few.point().classes(), few.point().servers(),
                            ScaleFigures.againstLinear(few.cycleP50(), 100, many.cycleP50(), 500),
                            ScaleFigures.againstLinear(few.managerCpu(), 100, many.managerCpu(), 500),
                            ScaleFigures.againstLinear(few.brokersCpu(), 100, many.brokersCpu(), 500)));
                }
            }
        }
    }

    private static String yes(boolean held) {
        return held ? "yes" : "**no**";
    }
}
