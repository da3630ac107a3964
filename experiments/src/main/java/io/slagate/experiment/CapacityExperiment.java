package io.slagate.experiment;

import io.slagate.experiment.paper.ExperimentSetup;
import io.slagate.config.ConfigLoader;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.SecondSample;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Experiment capacity: the capacity signal acted on as an autoscaler acts on it. The paper's classes (premium τ = 2,
 * basic τ = 3 paper-seconds), closed-loop clients with think time 1, servers of N_s = 10 started by the experiment, the
 * controller with the {@code auto} model. Each run starts on one server under the high load and steps every
 * settle + measure seconds: at each step's end it reads the signal (the manager's median over its stabilization span)
 * and puts that many servers more in the gateway's configuration (a live reload, as SIGHUP does), until the signal
 * reads 0. The first reading is checked by trying one server fewer than it asked for first: it is right when that
 * misses a target and its own count meets both. Then the load falls, the signal should offer servers to spare, and
 * the run takes them away and measures the targets again. Response times are the clients' own, per step, over its
 * measure span. Flaps are the signal's sign changes within the measure spans (steady load, the configuration settled).
 */
final class CapacityExperiment {
    private static final double SCALE = 0.02;
    private static final int HIGH = 20;
    private static final int LOW = 5;
    private static final int MAX_SERVERS = 5;
    private static final int RUNS = 3;
    private static final int HIGH_STEPS = 5;
    private static final int LOW_STEPS = 2;
    private static final double PREMIUM_TARGET = 2;
    private static final double BASIC_TARGET = 3;

    private final boolean quick;
    private final PrintStream log;

    CapacityExperiment(boolean quick, PrintStream log) {
        this.quick = quick;
        this.log = log;
    }

    /** One step: its servers and load, the signal's readings over its measure span, and the clients' response times there. */
    record Step(int servers, int clients, String why, List<Double> readings, double premiumSeconds, double basicSeconds) {
        double signal() {
            return readings.isEmpty() ? Double.NaN : readings.get(readings.size() - 1);
        }

        boolean met() {
            return premiumSeconds <= PREMIUM_TARGET && basicSeconds <= BASIC_TARGET;
        }

        int flaps() {
            int n = 0;
            for (int i = 1; i < readings.size(); i++) {
                if (sign(readings.get(i)) != sign(readings.get(i - 1))) {
                    n++;
                }
            }
            return n;
        }

        private static int sign(double v) {
            return Double.isNaN(v) ? 2 : (int) Math.signum(v);
        }
    }

    /** One run: its steps, the first reading, and what it showed. */
    record Run(int number, List<Step> steps, double first, boolean right, boolean metAfterScaling, double spare, boolean metAfterSparing) {
        int flaps() {
            return steps.stream().mapToInt(Step::flaps).sum();
        }

        /** The servers the signal had the run scale to under the high load: those of its last high step. */
        int scaledTo() {
            return steps.get(HIGH_STEPS - 1).servers();
        }
    }

    /** {@code capacity runs R exact E over-ask O under-ask U flaps F (minimal M)}: each run's count against the sweep's minimum. */
    static String line(List<Run> runs, int minimal) {
        int exact = (int) runs.stream().filter(r -> r.scaledTo() == minimal).count();
        int over = (int) runs.stream().filter(r -> r.scaledTo() > minimal).count();
        int flaps = runs.stream().mapToInt(Run::flaps).sum();
        return String.format(Locale.ROOT, "capacity runs %d exact %d over-ask %d under-ask %d flaps %d (minimal %d)", runs.size(), exact,
                over, runs.size() - exact - over, flaps, minimal);
    }

    /** The smallest number of servers whose step under the high load met both targets (MAX_SERVERS + 1: none did). */
    static int minimal(List<Step> sweep) {
        return sweep.stream().filter(Step::met).mapToInt(Step::servers).min().orElse(MAX_SERVERS + 1);
    }

    List<String> run(Path out, String command) throws Exception {
        Duration settle = Duration.ofSeconds(quick ? 6 : 15);
        Duration measure = Duration.ofSeconds(quick ? 6 : 20);
        // JIT warm-up, not measured: the first run otherwise ran on code not yet compiled (gateway, manager and clients
        // share one JVM), its response times half again its successors'
        Duration warm = Duration.ofSeconds(quick ? 20 : 60);
        fixed(2, warm, Duration.ZERO);
        log.println("capacity: warmed up for " + warm.toSeconds() + " s (not measured)");
        List<Step> sweep = new ArrayList<>();
        for (int k = 1; k <= MAX_SERVERS; k++) {
            Step s = fixed(k, settle, measure);
            log.printf(Locale.ROOT, "capacity sweep: %d servers, t_P %.2f t_B %.2f (%s), signal %s%n", k, s.premiumSeconds(),
                    s.basicSeconds(), s.met() ? "met" : "missed", fmt(s.signal()));
            sweep.add(s);
        }
        List<Run> runs = new ArrayList<>();
        for (int r = 1; r <= RUNS; r++) {
            runs.add(run(r, settle, measure));
        }
        String line = line(runs, minimal(sweep));
        Path dir = out.resolve("capacity");
        Files.createDirectories(dir);
        ResultsFile.write(dir.resolve(quick ? "RESULTS-short.md" : "RESULTS.md"),
                CapacityReport.of(command, runs, sweep, settle, measure, line));
        return List.of(line);
    }

    /**
     * The high load on {@code k} servers, fixed, for one step (settle + measure): the operator's sweep, and the warm-up
     * (nothing measured); the signal's readings over the measured span beside the clients' response times there.
     */
    private Step fixed(int k, Duration settle, Duration measure) throws Exception {
        ExperimentSetup setup = new ExperimentSetup(SCALE, 10, "wrr", 0.1, "auto", 5);
        List<Integer> ports = new ArrayList<>(Collections.nCopies(k, 0));
        try (BackendServer backend = BackendServer.start("127.0.0.1", ports, ServiceTime.paper(SCALE, Experiments.SLEEPY_CPU));
             RunningSystem sys = RunningSystem.start(setup.config(backend.urls()), true)) {
            LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", null,
                    List.of(new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, setup.paper(PREMIUM_TARGET)),
                            new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, setup.paper(BASIC_TARGET))),
                    List.of(new LoadSpec.Phase(settle.plus(measure), List.of((double) HIGH, (double) HIGH))), false, setup.paper(1),
                    Duration.ZERO, 90 + k, Duration.ofMinutes(5), null);
            LoadGenerator g = new LoadGenerator(spec, null);
            long t0 = System.nanoTime();
            List<double[]> readings = new CopyOnWriteArrayList<>();
            ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
            sampler.scheduleAtFixedRate(() -> readings.add(new double[] {System.nanoTime() - t0,
                    sys.capacityDeficitServers("default")}), 0, setup.paper(5).toMillis(), TimeUnit.MILLISECONDS);
            try {
                g.run();
            } finally {
                sampler.shutdownNow();
            }
            return step(k, HIGH, "sweep", settle.toNanos(), settle.plus(measure).toNanos(), readings, g.samples());
        }
    }

    private Run run(int number, Duration settle, Duration measure) throws Exception {
        ExperimentSetup setup = new ExperimentSetup(SCALE, 10, "wrr", 0.1, "auto", 5);
        long step = settle.plus(measure).toNanos();
        Path dir = Files.createTempDirectory("slagate-capacity");
        Path file = dir.resolve("slagate.yaml");
        List<Integer> ports = new ArrayList<>(Collections.nCopies(MAX_SERVERS, 0));
        try (BackendServer backend = BackendServer.start("127.0.0.1", ports, ServiceTime.paper(SCALE, Experiments.SLEEPY_CPU))) {
            String controller = ""; // the signal's stabilization as shipped: three statistics windows
            Files.writeString(file, setup.yaml(backend.urls().subList(0, 1), "10", "", controller));
            try (RunningSystem sys = RunningSystem.start(ConfigLoader.load(file), true)) {
                LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", null,
                        List.of(new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, setup.paper(PREMIUM_TARGET)),
                                new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, setup.paper(BASIC_TARGET))),
                        List.of(new LoadSpec.Phase(Duration.ofNanos(HIGH_STEPS * step), List.of((double) HIGH, (double) HIGH)),
                                new LoadSpec.Phase(Duration.ofNanos(LOW_STEPS * step), List.of((double) LOW, (double) LOW))),
                        false, setup.paper(1), Duration.ZERO, 100 + number, Duration.ofMinutes(5), null);
                LoadGenerator g = new LoadGenerator(spec, null);
                long t0 = System.nanoTime();
                CompletableFuture<Void> load = CompletableFuture.runAsync(() -> {
                    try {
                        g.run();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                List<double[]> readings = new CopyOnWriteArrayList<>(); // nanos since t0, signal
                ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
                sampler.scheduleAtFixedRate(() -> readings.add(new double[] {System.nanoTime() - t0,
                        sys.capacityDeficitServers("default")}), 0, setup.paper(5).toMillis(), TimeUnit.MILLISECONDS);
                try {
                    return steps(number, sys, backend, setup, controller, file, t0, step, settle, readings, g, load);
                } finally {
                    sampler.shutdownNow();
                    g.stop();
                }
            }
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    /** The autoscaler's loop over the run's steps; the clients' response times per step once the load has ended. */
    private Run steps(int number, RunningSystem sys, BackendServer backend, ExperimentSetup setup, String controller, Path file, long t0,
                      long step, Duration settle, List<double[]> readings, LoadGenerator g, CompletableFuture<Void> load)
            throws Exception {
        int[] servers = new int[HIGH_STEPS + LOW_STEPS];
        String[] why = new String[servers.length];
        int k = 1;
        double first = Double.NaN;
        double spare = Double.NaN;
        why[0] = "start";
        for (int i = 0; i < servers.length; i++) {
            servers[i] = k;
            sleepUntil(t0 + (i + 1) * step);
            double signal = sys.capacityDeficitServers("default");
            int next = k;
            String reason = "signal " + fmt(signal) + ": hold";
            if (i == 0) {
                first = signal;
                if (signal >= 2) {
                    next = (int) signal; // one fewer than the first reading asks for: the check that it was not too many
                    reason = "first reading " + fmt(signal) + ": one server fewer than it asks for first";
                } else if (signal >= 1) {
                    next = 2;
                    reason = "first reading 1: add it";
                }
            } else if (i == 1 && first >= 2) {
                next = 1 + (int) first;
                reason = "the first reading's own count";
            } else if (i < HIGH_STEPS - 1 && signal >= 1) {
                next = k + (int) signal;
                reason = "signal " + fmt(signal) + ": add";
            } else if (i == HIGH_STEPS && signal <= -1) {
                spare = signal;
                next = Math.max(1, k + (int) signal);
                reason = "signal " + fmt(signal) + " under the low load: take away";
            } else if (i == HIGH_STEPS) {
                spare = signal;
            }
            next = Math.min(MAX_SERVERS, next);
            if (i + 1 < servers.length) {
                why[i + 1] = reason;
            }
            if (next != k && i + 1 < servers.length) {
                Files.writeString(file, setup.yaml(backend.urls().subList(0, next), "10", "", controller));
                List<String> problems = sys.reload(file);
                if (!problems.isEmpty()) {
                    throw new IllegalStateException("reload refused: " + problems);
                }
                log.printf(Locale.ROOT, "capacity run %d step %d: %d → %d servers (%s)%n", number, i + 1, k, next, reason);
                k = next;
            }
        }
        load.get(5, TimeUnit.MINUTES);
        return summarize(number, servers, why, settle, step, readings, g.samples(), first, spare);
    }

    private static Run summarize(int number, int[] servers, String[] why, Duration settle, long step, List<double[]> readings,
                                 List<SecondSample> samples, double first, double spare) {
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < servers.length; i++) {
            steps.add(step(servers[i], i < HIGH_STEPS ? HIGH : LOW, why[i], i * step + settle.toNanos(), (i + 1) * step, readings, samples));
        }
        boolean right = false;
        if (first >= 1) {
            int asked = 1 + (int) first;
            Step fewer = steps.stream().filter(s -> s.servers() == asked - 1 && s.clients() == HIGH).findFirst().orElse(null);
            Step enough = steps.stream().filter(s -> s.servers() == asked && s.clients() == HIGH).findFirst().orElse(null);
            right = fewer != null && enough != null && !fewer.met() && enough.met();
        }
        Step lastHigh = steps.get(HIGH_STEPS - 1);
        boolean metAfterScaling = lastHigh.met() && lastHigh.signal() == 0;
        Step lastLow = steps.get(steps.size() - 1);
        return new Run(number, steps, first, right, metAfterScaling, spare, lastLow.met());
    }

    /** A step measured over [from, to) nanoseconds of its run: the signal's readings there and the clients' response times. */
    private static Step step(int servers, int clients, String why, double from, double to, List<double[]> readings,
                             List<SecondSample> samples) {
        List<Double> signal = new ArrayList<>();
        for (double[] r : readings) {
            if (r[0] >= from && r[0] < to) {
                signal.add(r[1]);
            }
        }
        return new Step(servers, clients, why, signal, meanSeconds(samples, "premium", from, to), meanSeconds(samples, "basic", from, to));
    }

    /** The clients' mean response time of the class over seconds [from, to) of the run, in paper-seconds (weighted by answers). */
    private static double meanSeconds(List<SecondSample> samples, String cls, double fromNanos, double toNanos) {
        List<SecondSample> span = samples.stream()
                .filter(s -> s.className().equals(cls) && s.second() * 1e9 >= fromNanos && s.second() * 1e9 + 1e9 <= toNanos).toList();
        return SecondSample.weightedMeanMs(span) / 1000 / SCALE;
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long left = nanos - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left); // the autoscaler's own period, not a wait for a condition
        }
    }

    static String fmt(double v) {
        return Double.isNaN(v) ? "NaN" : String.format(Locale.ROOT, "%+.0f", v);
    }
}
