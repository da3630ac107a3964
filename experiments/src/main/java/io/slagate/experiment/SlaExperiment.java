package io.slagate.experiment;

import io.slagate.experiment.paper.ExperimentSetup;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.Gateway;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.Summary;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The measurements ({@code slagate experiment sla}), each against its own baseline in the same run:
 *
 * <ul>
 *   <li><b>noisy customer</b>: four premium customers of three closed-loop clients each; then a fifth sends
 *       ten times a customer's load. The quiet customers' p95 with per-customer fairness and without, each
 *       against the same customers' p95 without the noisy one;</li>
 *   <li><b>late work</b> ({@link LateWork}): bursty arrivals with three deadlines mixed and a service that slows
 *       down at half-time; goodput and late work with deadline-aware admission against the best static queue
 *       timeout of a sweep;</li>
 *   <li><b>capacity</b>: the paper's two classes at (20, 20) on one server, where neither meets its target; the
 *       resource manager's capacity deficit in servers, then the same load on that many more servers.</li>
 * </ul>
 */
final class SlaExperiment {
    private final boolean quick;
    private final PrintStream log;

    SlaExperiment(boolean quick, PrintStream log) {
        this.quick = quick;
        this.log = log;
    }

    /** Runs both parts, writes sla/RESULTS.md under {@code out}, returns the result lines. */
    List<String> run(Path out, String command) throws Exception {
        Path dir = out.resolve("sla");
        Files.createDirectories(dir);
        StringBuilder md = new StringBuilder("# Experiment sla — customers and deadlines\n\n");
        md.append("Produced by `").append(command).append("` on ").append(Experiments.cores())
                .append(" (load, gateway and the Axis2 backend share them), ").append(LocalDate.now()).append(".\n\n");
        List<String> lines = new ArrayList<>();
        lines.add(noisyCustomer(md));
        lines.add(new LateWork(quick, log).run(md));
        lines.add(capacity(md));
        md.append("\n```\n").append(String.join("\n", lines)).append("\n```\n");
        ResultsFile.write(dir.resolve("RESULTS.md"), md);
        return lines;
    }

    // ---------------------------------------------------------------- noisy customer

    private static final double NOISY_SCALE = 0.02;
    private static final int QUIET_CUSTOMERS = 4;
    private static final int CLIENTS_EACH = 3;

    /** Repetitions of the noisy-customer comparison, each running its three sides in an order alternating with the last. */
    private static final int NOISY_REPETITIONS = 3;

    private String noisyCustomer(StringBuilder md) throws Exception {
        Duration warm = Duration.ofSeconds(quick ? 4 : 10);
        Duration measure = Duration.ofSeconds(quick ? 12 : 60);
        List<double[][]> reps = new ArrayList<>(); // per repetition: {alone, fair, off}
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.paper(NOISY_SCALE, Experiments.SLEEPY_CPU))) {
            String url = backend.urls().get(0);
            for (int r = 0; r < NOISY_REPETITIONS; r++) {
                double[][] rep = new double[3][];
                int[] order = r % 2 == 0 ? new int[] {0, 1, 2} : new int[] {2, 1, 0};
                for (int side : order) {
                    rep[side] = quietP95(url, side == 2 ? "none" : "customers", side != 0, warm, measure);
                }
                reps.add(rep);
            }
        }
        md.append("## Noisy customer\n\n").append(String.format(Locale.ROOT, "One class (premium), N_s = 10, exponential service of "
                + "mean %.0f ms, think time the same; %d quiet customers of %d clients each, and a noisy customer of %d clients "
                + "(ten times a customer's load, more than the servers hold). p95 response time of each quiet customer (ms), "
                + "%d s measured after %d s of warm-up. %d repetitions, each running the quiet customers alone, with the noisy "
                + "one under per-customer fairness, and with it without fairness, in an order reversed from one repetition to the "
                + "next; a rise is the quiet customers' mean p95 against the same repetition's run alone:%n%n", NOISY_SCALE * 1000,
                QUIET_CUSTOMERS, CLIENTS_EACH, 10 * CLIENTS_EACH, measure.toSeconds(), warm.toSeconds(), NOISY_REPETITIONS));
        md.append("| run |");
        for (int i = 1; i <= QUIET_CUSTOMERS; i++) {
            md.append(" quiet-").append(i).append(" |");
        }
        md.append(" mean | rise |\n|---|").append("---:|".repeat(QUIET_CUSTOMERS + 2)).append('\n');
        List<Double> fair = new ArrayList<>();
        List<Double> off = new ArrayList<>();
        for (int r = 0; r < reps.size(); r++) {
            double[][] rep = reps.get(r);
            fair.add(rise(rep[1], rep[0]));
            off.add(rise(rep[2], rep[0]));
            row(md, (r + 1) + ": quiet customers alone", rep[0], Double.NaN);
            row(md, (r + 1) + ": with the noisy one, fairness: customers", rep[1], fair.get(r));
            row(md, (r + 1) + ": with the noisy one, fairness: none", rep[2], off.get(r));
        }
        md.append('\n');
        return String.format(Locale.ROOT, "noisy-customer p95-rise fair %s off %s", Spread.of(fair).format("%.3f"),
                Spread.of(off).format("%.3f"));
    }

    /** The quiet customers' mean p95 with the noisy one against their mean p95 alone, as a fraction. */
    static double rise(double[] with, double[] alone) {
        return mean(with) / mean(alone) - 1;
    }

    private static void row(StringBuilder md, String name, double[] p95, double rise) {
        md.append("| ").append(name).append(" |");
        for (double v : p95) {
            md.append(String.format(Locale.ROOT, " %.1f |", v));
        }
        md.append(String.format(Locale.ROOT, " %.1f | %s |%n", mean(p95), Double.isNaN(rise) ? "—" : String.format(Locale.ROOT, "%+.1f%%", 100 * rise)));
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    /** The p95 (ms) of each quiet customer, with or without the noisy one, under the class's {@code fairness}. */
    private double[] quietP95(String backendUrl, String fairness, boolean noisy, Duration warm, Duration measure) throws Exception {
        StringBuilder subscriptions = new StringBuilder();
        for (int i = 1; i <= QUIET_CUSTOMERS; i++) {
            subscriptions.append("quiet-").append(i).append(": { \"*\": gold }, ");
        }
        subscriptions.append("noisy: { \"*\": gold }");
        SlagateConfig config = ConfigLoader.parse(String.format(Locale.ROOT, """
                gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0", serverTimeout: 10m }
                servers: [ { id: s1, url: "%s", concurrency: 10 } ]
                classes:
                  - { name: premium, target: %dms, queueBound: 100000, queueTimeout: 10m, fairness: %s }
                  - { name: basic, target: 1s }
                classification:
                  subscriptions: { %s }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                allocation: { weights: { premium: 9, basic: 1 } }
                """, backendUrl, Math.round(2 * NOISY_SCALE * 1000), fairness, subscriptions), "sla-noisy");
        Gateway g = new Gateway(config).start();
        try {
            List<LoadSpec.ClassSpec> specs = new ArrayList<>();
            List<Double> clients = new ArrayList<>();
            for (int i = 1; i <= QUIET_CUSTOMERS; i++) {
                specs.add(new LoadSpec.ClassSpec("quiet-" + i, "getQuote", "quiet-" + i, false, null));
                clients.add((double) CLIENTS_EACH);
            }
            specs.add(new LoadSpec.ClassSpec("noisy", "getQuote", "noisy", false, null));
            clients.add(noisy ? 10.0 * CLIENTS_EACH : 0.0);
            LoadSpec spec = new LoadSpec("http://127.0.0.1:" + g.port(), "/services/StockUtility", null, specs,
                    List.of(new LoadSpec.Phase(warm.plus(measure), clients)), false, Duration.ofMillis(Math.round(NOISY_SCALE * 1000)),
                    warm, 21, Duration.ofMinutes(5), null);
            Summary s = new LoadGenerator(spec, null).run();
            double[] p95 = new double[QUIET_CUSTOMERS];
            for (int i = 1; i <= QUIET_CUSTOMERS; i++) {
                p95[i - 1] = s.classes().get("quiet-" + i).p95Ms();
            }
            log.printf(Locale.ROOT, "sla: noisy customer %s, fairness %s: quiet p95 %s ms%n", noisy ? "on" : "off", fairness,
                    Arrays.toString(p95));
            return p95;
        } finally {
            g.stop(Duration.ofSeconds(5));
        }
    }

    // ---------------------------------------------------------------- capacity

    private static final double CAPACITY_SCALE = 0.02;
    private static final int CAPACITY_CLIENTS = 20;

    /** What one capacity run measured: mean response times (paper-seconds) and the deficit the manager reported. */
    private record CapacityRun(double premiumSeconds, double basicSeconds, double deficitServers) {
    }

    private String capacity(StringBuilder md) throws Exception {
        Duration settle = Duration.ofSeconds(quick ? 8 : 15);
        Duration measure = Duration.ofSeconds(quick ? 12 : 30);
        CapacityRun before = capacityRun(1, settle, measure);
        int add = (int) Math.round(before.deficitServers());
        CapacityRun after = add >= 1 ? capacityRun(1 + add, settle, measure) : null;
        boolean met = after != null && after.premiumSeconds() <= 2 && after.basicSeconds() <= 3;
        md.append("## Capacity deficit\n\n").append(String.format(Locale.ROOT, "The paper's classes (premium τ = 2, basic τ = 3 "
                + "paper-seconds; 1 paper-second = %.0f ms), %d closed-loop clients each with think time 1, servers of N_s = 10, "
                + "the controller with the `auto` model. First on one server: the resource manager's capacity deficit in servers is "
                + "the median of its figure over the %d s measured; then the same load on one server plus that many.%n%n",
                CAPACITY_SCALE * 1000, CAPACITY_CLIENTS, measure.toSeconds()));
        md.append("| servers | t_P | t_B | deficit (servers) |\n|---:|---:|---:|---:|\n");
        md.append(String.format(Locale.ROOT, "| 1 | %.2f | %.2f | %s |%n", before.premiumSeconds(), before.basicSeconds(),
                fmtDeficit(before.deficitServers())));
        if (after != null) {
            md.append(String.format(Locale.ROOT, "| %d | %.2f | %.2f | %s |%n", 1 + add, after.premiumSeconds(), after.basicSeconds(),
                    fmtDeficit(after.deficitServers())));
        }
        md.append('\n');
        return String.format(Locale.ROOT, "capacity deficit-servers %s targets-met-after-adding %s (t_P %.2f t_B %.2f)",
                fmtDeficit(before.deficitServers()), after == null ? "n/a" : met ? "yes" : "no",
                after == null ? Double.NaN : after.premiumSeconds(), after == null ? Double.NaN : after.basicSeconds());
    }

    private static String fmtDeficit(double d) {
        return Double.isNaN(d) ? "–" : String.format(Locale.ROOT, "%.0f", d);
    }

    private CapacityRun capacityRun(int servers, Duration settle, Duration measure) throws Exception {
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < servers; i++) {
            ports.add(0);
        }
        ExperimentSetup setup = new ExperimentSetup(CAPACITY_SCALE, 10, "wrr", 0.1, "auto", 5.0 * servers);
        try (BackendServer backend = BackendServer.start("127.0.0.1", ports, ServiceTime.paper(CAPACITY_SCALE, Experiments.SLEEPY_CPU));
             RunningSystem sys = RunningSystem.start(setup.config(backend.urls()), true)) {
            LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", sys.statsUrl(),
                    List.of(new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, setup.paper(2)),
                            new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, setup.paper(3))),
                    List.of(new LoadSpec.Phase(settle.plus(measure), List.of((double) CAPACITY_CLIENTS, (double) CAPACITY_CLIENTS))),
                    false, setup.paper(1), settle, 7, Duration.ofMinutes(5), null);
            List<Double> deficits = new CopyOnWriteArrayList<>();
            long from = System.nanoTime() + settle.toNanos();
            ScheduledExecutorService poll = Executors.newSingleThreadScheduledExecutor();
            poll.scheduleAtFixedRate(() -> {
                double d = sys.capacityDeficitServers("default");
                if (System.nanoTime() - from > 0 && !Double.isNaN(d)) {
                    deficits.add(d);
                }
            }, 100, 100, TimeUnit.MILLISECONDS);
            LoadGenerator g = new LoadGenerator(spec, null);
            Summary s;
            try {
                s = g.run();
            } finally {
                poll.shutdownNow();
            }
            double tP = s.classes().get("premium").meanMs() / 1000 / CAPACITY_SCALE;
            double tB = s.classes().get("basic").meanMs() / 1000 / CAPACITY_SCALE;
            double[] sorted = deficits.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            double median = sorted.length == 0 ? Double.NaN : sorted[sorted.length / 2];
            log.printf(Locale.ROOT, "sla: capacity on %d server(s): t_P %.2f, t_B %.2f, deficit (median of %d) %s%n", servers, tP, tB,
                    sorted.length, fmtDeficit(median));
            return new CapacityRun(tP, tB, median);
        }
    }
}
