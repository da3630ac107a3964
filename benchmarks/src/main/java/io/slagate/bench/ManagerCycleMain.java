package io.slagate.bench;

import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusCodec;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.GatewayAllocation;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.rm.Overrides;
import io.slagate.rm.ResourceManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The resource manager's work per control cycle against the number of gateways, on one thread and nothing else: G
 * gateways' reports (C classes, S servers, each flow an M/M/1 slot queue at the share it holds) decoded from their JSON,
 * as the bus's threads do when they arrive; then what the control thread does: each report observed, the step (solve,
 * split the caps) and the encoding of every gateway's part. G = 10, 100, 500, 1000, 10000 at C = 10, S = 100, 10,000
 * slots, in the order up then down (each G twice), 15 cycles of warm-up and 30 measured per run, with
 * {@code controller.model: mmm} (Erlang C, for open-loop traffic), or with the model given second ({@code auto}: the
 * closed population where it fits, up to 500 gateways). Writes the results file given first
 * (bench/results/manager-cycle.md).
 *
 * <p>Usage: {@code java -cp benchmarks/target/benchmarks.jar io.slagate.bench.ManagerCycleMain [results.md] [model] [G,G,…]}
 * (the last: the gateway counts to run instead, in that order, e.g. one G under a profiler)
 */
public final class ManagerCycleMain {
    private static final int CLASSES = 10;
    private static final int SERVERS = 100;
    private static final int SLOTS = 10_000;
    private static final double MU = 10;

    private ManagerCycleMain() {
    }

    /** One run: per cycle, decode (the bus's threads), then the control thread's observe, step and encode (ms). */
    record Run(int gateways, double[] decode, double[] observe, double[] step, double[] encode) {
        /** The control thread's work per cycle: observe + step + encode. */
        double[] cycle() {
            double[] total = new double[step.length];
            for (int k = 0; k < total.length; k++) {
                total[k] = observe[k] + step[k] + encode[k];
            }
            return total;
        }
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "bench/results/manager-cycle.md");
        String model = args.length > 1 ? args[1] : "mmm";
        int[] order = args.length > 2 ? java.util.Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray()
                : model.equals("mmm") ? new int[] {10, 100, 500, 1000, 10_000, 10_000, 1000, 500, 100, 10}
                : new int[] {10, 100, 500, 500, 100, 10};
        List<Run> runs = new ArrayList<>();
        for (int g : order) {
            Run r = run(g, 15, 30, model);
            runs.add(r);
            System.out.printf(Locale.ROOT, "G %5d: decode p50 %.1f ms; observe p50 %.1f, step p50 %.1f p99 %.1f, encode p50 %.1f;"
                    + " cycle p50 %.1f p99 %.1f ms%n", g, q(r.decode, 0.5), q(r.observe, 0.5), q(r.step, 0.5), q(r.step, 0.99),
                    q(r.encode, 0.5), q(r.cycle(), 0.5), q(r.cycle(), 0.99));
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, report(runs, model));
    }

    static Run run(int gateways, int warmup, int measured, String model) {
        StringBuilder y = new StringBuilder("gateway: { stats: { reportingInterval: 1s, window: 5s } }\nservers:\n");
        for (int s = 0; s < SERVERS; s++) {
            y.append(String.format(Locale.ROOT, "  - { id: s%03d, url: \"http://127.0.0.1:1\", concurrency: %d }%n", s, SLOTS / SERVERS));
        }
        y.append("classes:\n");
        for (int c = 0; c < CLASSES; c++) {
            y.append(String.format(Locale.ROOT, "  - { name: c%d, target: %dms }%n", c, 150 + 25 * c));
        }
        y.append("controller: { cycle: 1s, model: ").append(model).append(" }\n");
        ResourceManager rm = new ResourceManager("rm", ConfigLoader.parse(y.toString(), "bench"), new Overrides(), 0);
        Random random = new Random(gateways);
        double perFlow = 0.6 * SLOTS * MU / (gateways * (double) CLASSES);
        long now = 1_000_000_000_000L;
        AllocationMessage last = null;
        double[] decode = new double[measured];
        double[] observe = new double[measured];
        double[] step = new double[measured];
        double[] encode = new double[measured];
        for (int cycle = 0; cycle < warmup + measured; cycle++) {
            List<String> texts = new ArrayList<>(gateways);
            for (int g = 0; g < gateways; g++) {
                texts.add(BusCodec.encode(report("g" + g, last, perFlow, random, cycle)));
            }
            long t0 = System.nanoTime();
            List<StatsMessage> decoded = new ArrayList<>(gateways);
            for (String t : texts) {
                decoded.add((StatsMessage) BusCodec.decode(t));
            }
            long tDecoded = System.nanoTime();
            for (StatsMessage m : decoded) {
                rm.onStats(m, now);
            }
            long t1 = System.nanoTime();
            ResourceManager.Decision d = rm.step(now);
            long t2 = System.nanoTime();
            last = d.allocation();
            for (String g : last.gateways().keySet()) {
                BusCodec.encode(last.forGateway(g));
            }
            long t3 = System.nanoTime();
            if (cycle >= warmup) {
                decode[cycle - warmup] = (tDecoded - t0) / 1e6;
                observe[cycle - warmup] = (t1 - tDecoded) / 1e6;
                step[cycle - warmup] = (t2 - t1) / 1e6;
                encode[cycle - warmup] = (t3 - t2) / 1e6;
            }
            now += 1_000_000_000L;
        }
        return new Run(gateways, decode, observe, step, encode);
    }

    /** What gateway {@code id} reports under the allocation in force (servers it holds no slot of left out, as gateways do). */
    private static StatsMessage report(String id, AllocationMessage last, double perFlow, Random random, long sequence) {
        GatewayAllocation mine = last == null ? null : last.gateways().get(id);
        List<ServerStatusMessage> servers = new ArrayList<>();
        int slots = 0;
        for (int s = 0; s < SERVERS; s++) {
            String sid = String.format(Locale.ROOT, "s%03d", s);
            int cap = mine == null ? 0 : mine.caps().getOrDefault(sid, 0);
            slots += cap;
            ServerStatusMessage st = new ServerStatusMessage(sid, cap, cap / 2, true);
            if (!st.idle()) {
                servers.add(st);
            }
        }
        double weights = 0;
        for (int c = 0; c < CLASSES; c++) {
            weights += mine == null ? 1 : mine.weights().get("c" + c);
        }
        List<FlowStatsMessage> flows = new ArrayList<>();
        for (int c = 0; c < CLASSES; c++) {
            double lambda = perFlow * (0.9 + 0.2 * random.nextDouble());
            double w = mine == null ? 1 : mine.weights().get("c" + c);
            double share = weights > 0 ? slots * w / weights : 0;
            double t = share > 0 && lambda / share < MU ? 1 / (MU - lambda / share) : 5;
            flows.add(new FlowStatsMessage("c" + c, lambda, lambda, 0, t, Math.max(0, t - 1 / MU), 1 / MU, 0,
                    (int) Math.round(share / 2), w, 1.0, Double.NaN));
        }
        return new StatsMessage(BusMessage.SCHEMA, id, sequence, 0, 5, last == null ? 0 : last.version(), flows, servers);
    }

    static double q(double[] v, double p) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[Math.max(0, (int) Math.ceil(p * s.length) - 1)];
    }

    private static String report(List<Run> runs, String model) {
        StringBuilder md = new StringBuilder("# The resource manager's cycle against the number of gateways\n\nProduced by `java -cp"
                + " benchmarks/target/benchmarks.jar io.slagate.bench.ManagerCycleMain " + (model.equals("mmm") ? "" : "RESULTS " + model)
                + "` (`bench/manager-cycle.sh`, after `mvn -B -q -DskipTests -pl benchmarks -am package`) on "
                + Runtime.getRuntime().availableProcessors() + " cores, " + LocalDate.now() + ".\n\n"
                + "One thread, nothing else running in the process. *decode*: G gateways' reports decoded from JSON, which the"
                + " manager does on the bus's threads as each report arrives (spread over the interval, not in the cycle); then the"
                + " control thread's *cycle*: every report observed, the step (solve over the classes, split the caps), every"
                + " gateway's part encoded. C = 10 classes, S = 100 servers, 10,000 slots, `model: " + model + "`, sum combining."
                + " Each G is run twice (up, then back down); 15 cycles of warm-up, 30 measured per run. Times in ms per cycle.\n\n"
                + "| G | run | decode p50 (bus threads) | observe p50 | step p50 | step p99 | encode p50 | cycle p50 | cycle p99 |"
                + " decode + cycle p99 |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < runs.size(); i++) {
            Run r = runs.get(i);
            double[] both = r.cycle();
            for (int k = 0; k < both.length; k++) {
                both[k] += r.decode[k];
            }
            md.append(String.format(Locale.ROOT, "| %d | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |%n", r.gateways,
                    i < runs.size() / 2 ? 1 : 2, q(r.decode, 0.5), q(r.observe, 0.5), q(r.step, 0.5), q(r.step, 0.99), q(r.encode, 0.5),
                    q(r.cycle(), 0.5), q(r.cycle(), 0.99), q(both, 0.99)));
        }
        double[] per = new double[2];
        for (Run r : runs) {
            if (r.gateways == 100) {
                per[0] += q(r.cycle(), 0.5) / 2;
            } else if (r.gateways == 500) {
                per[1] += q(r.cycle(), 0.5) / 2;
            }
        }
        md.append(String.format(Locale.ROOT, "%nFrom 100 to 500 gateways the cycle's p50 grows %.2f×, against 5× for linear growth"
                + " (ratio to linear %.2f; both runs' mean).%n", per[1] / per[0], per[1] / per[0] / 5));
        return md.toString();
    }
}
