package io.slagate.experiment;

import io.slagate.bus.ControlBus;
import io.slagate.config.ConfigLoader;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.agent.GatewayAgent;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.Summary;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import com.sun.management.OperatingSystemMXBean;

/** One point of experiment scale: the manager and G simulated gateways up, measured, and (last) a broker lost. */
final class ScaleRun implements AutoCloseable {
    /** A point's figures. Times in ms; CPU in cores (CPU seconds per second); heap in MiB. */
    record Result(ScaleExperiment.Point point, double connectSeconds, double joinSeconds, int cycles, double cycleP50, double cycleP99, double solveP99,
                  double cycleCpuP50, double cycleCpuP99, double fanOutP50, double fanOutP99, int versionsNotReaching99, double wireBytesIn, double wireBytesOut,
                  double jsonIn, double jsonOut, double managerCpu, double managerHeap, double brokersCpu, double brokersHeap,
                  double simulationCpu) {
        double wireBytesPerInterval() {
            return Math.max(wireBytesIn, wireBytesOut);
        }

        String line() {
            return String.format(Locale.ROOT, "G %d C %d S %d: connected in %.1f s, all admitted %.1f s later; cycle p50 %.0f"
                            + " p99 %.0f ms (solve p99 %.0f; the cycle's CPU p50 %.0f p99 %.0f ms);"
                            + " fan-out p50 %.0f p99 %.0f ms; bytes per gateway-interval in %.0f out %.0f (JSON %.0f / %.0f);"
                            + " manager %.2f cores %.0f MiB; brokers %.2f cores %.0f MiB; simulated gateways %.2f cores",
                    point.gateways(), point.classes(),
                    point.servers(), connectSeconds, joinSeconds - connectSeconds, cycleP50, cycleP99, solveP99, cycleCpuP50, cycleCpuP99, fanOutP50, fanOutP99, wireBytesIn, wireBytesOut, jsonIn,
                    jsonOut, managerCpu, managerHeap, brokersCpu, brokersHeap, simulationCpu);
        }
    }

    /** A broker's loss: reconnection of its gateways, the first allocation everywhere after it, the data plane meanwhile. */
    record Loss(int gatewaysMoved, double reconnectMedianSeconds, double reconnectSeconds, double allAppliedSeconds,
                double afterReconnectSeconds, long requests, long errors) {
        String line() {
            return String.format(Locale.ROOT, "broker A lost: its %d gateways reconnected in %.1f s (median %.1f s); every gateway"
                    + " applied an allocation decided after the loss %.1f s after it, each at most %.1f s after its reconnection;"
                    + " real gateway: %d requests, %d errors", gatewaysMoved, reconnectSeconds, reconnectMedianSeconds, allAppliedSeconds,
                    afterReconnectSeconds, requests, errors);
        }
    }

    private final ScaleExperiment.Point point;
    private final ScaleExperiment exp;
    private final ChildJvm[] brokers;
    private final ChildJvm manager;
    private final List<SimulatedGateway> gateways = new ArrayList<>();
    private final ScaleExperiment.Observer observer;
    private final ScheduledExecutorService reporter;
    /** version → every gateway's latency to apply it (ms). */
    private final Map<Long, List<Long>> applied = new ConcurrentHashMap<>();
    private final String[] classes;
    private final String[] servers;

    ScaleRun(ScaleExperiment.Point point, ScaleExperiment exp, Path work, ChildJvm a, ChildJvm b) throws Exception {
        this.point = point;
        this.exp = exp;
        this.brokers = new ChildJvm[] {a, b};
        classes = new String[point.classes()];
        for (int c = 0; c < classes.length; c++) {
            classes[c] = "c" + c;
        }
        servers = new String[point.servers()];
        for (int s = 0; s < servers.length; s++) {
            servers[s] = String.format(Locale.ROOT, "s%03d", s);
        }
        Path config = work.resolve(String.format(Locale.ROOT, "rm-%d-%d-%d.yaml", point.gateways(), point.classes(), point.servers()));
        Files.writeString(config, managerYaml());
        manager = ChildJvm.start(String.format(Locale.ROOT, "rm-%d-%d-%d", point.gateways(), point.classes(), point.servers()),
                "resource-manager", config, exp.env(), work, "2g").awaitLog("started: cycle", 60);
        observer = new ScaleExperiment.Observer(exp.urlAFirst(), exp.password("admin"));
        reporter = ScaleExperiment.scheduler("scale-reporter", 2);
        double perFlow = 0.6 * ScaleExperiment.SLOTS * SimulatedGateway.MU / (point.gateways() * (double) point.classes());
        double[] rate = new double[classes.length];
        Arrays.fill(rate, perFlow);
        for (int i = 0; i < point.gateways(); i++) {
            gateways.add(new SimulatedGateway(gatewayId(i), exp.gatewayUrl(i), "gateways", exp.password("gateways"), classes, servers,
                    rate, 17L * i, i == 0));
        }
    }

    private static String gatewayId(int i) {
        return String.format(Locale.ROOT, "g%04d", i);
    }

    /** The manager's configuration: S servers sharing {@link ScaleExperiment#SLOTS}, C classes, every gateway id bound. */
    private String managerYaml() {
        StringBuilder y = new StringBuilder("gateway: { stats: { reportingInterval: 1s, window: 5s } }\nservers:\n");
        for (String s : servers) {
            y.append("  - { id: ").append(s).append(", url: \"http://127.0.0.1:1\", concurrency: ")
                    .append(ScaleExperiment.SLOTS / servers.length).append(" }\n");
        }
        y.append("classes:\n");
        for (int c = 0; c < classes.length; c++) {
            y.append(String.format(Locale.ROOT, "  - { name: %s, target: %dms }%n", classes[c], 150 + 25 * c));
        }
        y.append("classification: { defaultClass: c0 }\n");
        // the simulated gateways' traffic is open-loop: Erlang C, as the configuration reference advises for it
        y.append(String.format(Locale.ROOT, "controller: { cycle: %dms, gatewayExpiry: 5, model: mmm }%n",
                ScaleExperiment.cycle().toMillis()));
        y.append("bus:\n  embedded: false\n  url: \"").append(exp.urlAFirst()).append("\"\n  user: rm\n  passwordEnv: SCALE_RM_PASSWORD\n");
        y.append("  gatewayAccounts:\n    gateways: [ real-gw");
        for (int i = 0; i < point.gateways(); i++) {
            y.append(", ").append(gatewayId(i));
        }
        return y.append(" ]\n").toString();
    }

    private static void await(String what, Duration within, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("scale: " + what + " did not happen within " + within.toSeconds() + " s");
            }
            Thread.sleep(20); // polling other processes' progress with a deadline
        }
    }

    Result measure(Duration settle, Duration measure) throws Exception {
        long t0 = System.nanoTime();
        for (SimulatedGateway g : gateways) {
            g.start();
        }
        double window = 5;
        long interval = ScaleExperiment.interval().toMillis();
        for (int i = 0; i < gateways.size(); i++) {
            SimulatedGateway g = gateways.get(i);
            // each at its own phase of the interval, as independent gateways report, not all in the same millisecond
            reporter.scheduleAtFixedRate(() -> g.report(window), i * interval / gateways.size(), interval, TimeUnit.MILLISECONDS);
        }
        await("every gateway connected", Duration.ofSeconds(120), () -> gateways.stream().allMatch(g -> g.bus().isConnected()));
        double connectSeconds = (System.nanoTime() - t0) / 1e9;
        await("every gateway's first allocation", Duration.ofSeconds(120), () -> gateways.stream().allMatch(g -> g.version() > 0));
        double joinSeconds = (System.nanoTime() - t0) / 1e9;
        Thread.sleep(settle.toMillis()); // the experiment's settling time, not a wait for a condition
        recordLatencies(true);
        long[] io0 = SelfIo.read();
        double[] cpu0 = cpu();
        long start = System.currentTimeMillis();
        Thread.sleep(measure.toMillis()); // the measurement window
        long end = System.currentTimeMillis();
        long[] io1 = SelfIo.read();
        double[] cpu1 = cpu();
        recordLatencies(false);
        double seconds = (end - start) / 1000.0;
        double intervals = seconds / ScaleExperiment.interval().toSeconds() * point.gateways();
        List<Double> cycle = new ArrayList<>();
        List<Double> solve = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        Map<Long, List<Long>> inWindow = cyclesIn(start, end, cycle, solve, cpu);
        double[] fan = ScaleFigures.fanOut(inWindow, point.gateways(), 0.99);
        int missed = 0;
        for (double f : fan) {
            missed += Double.isInfinite(f) ? 1 : 0;
        }
        double[] cyc = cycle.stream().mapToDouble(Double::doubleValue).toArray();
        SimulatedGateway sample = gateways.get(0);
        return new Result(point, connectSeconds, joinSeconds, cyc.length, ScaleFigures.quantile(cyc, 0.5), ScaleFigures.quantile(cyc, 0.99),
                ScaleFigures.quantile(solve.stream().mapToDouble(Double::doubleValue).toArray(), 0.99),
                ScaleFigures.quantile(cpu.stream().mapToDouble(Double::doubleValue).toArray(), 0.5),
                ScaleFigures.quantile(cpu.stream().mapToDouble(Double::doubleValue).toArray(), 0.99),
                ScaleFigures.quantile(fan, 0.5), ScaleFigures.quantile(fan, 0.99), missed,
                (io1[0] - io0[0]) / intervals, (io1[1] - io0[1]) / intervals,
                sample.allocationChars() * ScaleExperiment.interval().toMillis() / (double) ScaleExperiment.cycle().toMillis(),
                sample.reportChars(), (cpu1[0] - cpu0[0]) / seconds, manager.heapMiB(), (cpu1[1] - cpu0[1]) / seconds,
                brokers[0].heapMiB() + brokers[1].heapMiB(), (cpu1[2] - cpu0[2]) / seconds);
    }

    /**
     * The cycles decided in the window from {@code start} to {@code end} (ms), each early enough to reach everyone by its
     * end: their wall-clock cycle, solve and CPU times added to the lists; returns their versions' apply latencies.
     */
    private Map<Long, List<Long>> cyclesIn(long start, long end, List<Double> cycle, List<Double> solve, List<Double> cpu) {
        Map<Long, List<Long>> inWindow = new TreeMap<>();
        for (Map.Entry<Long, long[]> e : observer.summaries.entrySet()) {
            long decided = e.getValue()[0];
            Double s = observer.solves.get(e.getKey());
            if (decided < start || decided > end - 2000 || s == null) {
                continue; // decided outside the window, or too late in it to have reached everyone by its end
            }
            solve.add(s);
            Double c = observer.cycleCpus.get(e.getKey());
            if (c != null && !c.isNaN()) {
                cpu.add(c);
            }
            cycle.add(s + (e.getValue()[1] - decided));
            inWindow.put(e.getKey(), applied.getOrDefault(e.getKey(), List.of()));
        }
        return inWindow;
    }

    /** From now on, each gateway's latency to apply a version goes to {@link #applied}; off: no more. */
    private void recordLatencies(boolean on) {
        if (on) {
            applied.clear();
        }
        for (SimulatedGateway g : gateways) {
            g.onApplied(on ? (version, latency) -> applied.computeIfAbsent(version, v -> new CopyOnWriteArrayList<>())
                    .add(latency) : null);
        }
    }

    /** {manager's CPU seconds, both brokers' CPU seconds, this JVM's (the simulated gateways') CPU seconds} so far. */
    private double[] cpu() {
        double self = ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1e9;
        return new double[] {manager.cpuSeconds(), brokers[0].cpuSeconds() + brokers[1].cpuSeconds(), self};
    }

    /**
     * Kills broker {@code a} while a real gateway (on it, like the manager and half the simulated gateways) carries
     * traffic to a synthetic server; measures how long its gateways take to reconnect to the other broker, how long
     * until every gateway applied an allocation decided after the loss, and the real gateway's errors.
     */
    Loss loseBroker(ChildJvm a) throws Exception {
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.of(Duration.ofMillis(5), 0.01))) {
            Gateway real = new Gateway(ConfigLoader.parse(realGatewayYaml(backend.urls().get(0)), "real-gw"));
            ControlBus bus = new ControlBus(exp.urlAFirst(), "gateways", exp.password("gateways"), "real-gw");
            GatewayAgent agent = new GatewayAgent(real, bus);
            real.start();
            bus.start();
            try {
                await("the real gateway's first allocation", Duration.ofSeconds(60), () -> agent.allocationsApplied() > 0);
                Duration before = Duration.ofSeconds(5);
                Duration window = Duration.ofSeconds(15);
                CompletableFuture<Summary> load = clientLoad(real.port(), before.plus(window));
                Thread.sleep(before.toMillis()); // traffic before the loss
                List<SimulatedGateway> onA = new ArrayList<>();
                long[] connectsBefore = new long[gateways.size()];
                for (int i = 0; i < gateways.size(); i++) {
                    connectsBefore[i] = gateways.get(i).bus().connects();
                    if (i % 2 == 0) {
                        onA.add(gateways.get(i));
                    }
                }
                long lostAt = System.currentTimeMillis();
                long lostNanos = System.nanoTime();
                a.kill();
                double[][] recovery = awaitRecovery(connectsBefore, lostAt, lostNanos, window);
                double[] reconnected = recovery[0];
                double[] renewed = recovery[1];
                Summary s = load.get(window.toSeconds() + 60, TimeUnit.SECONDS);
                long errors = s.classes().values().stream().mapToLong(c -> c.errors().values().stream().mapToLong(Long::longValue).sum())
                        .sum();
                long sent = s.classes().values().stream().mapToLong(Summary.ClassSummary::sent).sum();
                long completed = s.classes().values().stream().mapToLong(Summary.ClassSummary::completed).sum();
                double[] moved = new double[onA.size()];
                double after = 0;
                for (int i = 0; i < gateways.size(); i++) {
                    if (i % 2 == 0) {
                        moved[i / 2] = reconnected[i];
                    }
                    after = Math.max(after, renewed[i] - reconnected[i]);
                }
                return new Loss(onA.size(), ScaleFigures.quantile(moved, 0.5), ScaleFigures.quantile(moved, 1.0),
                        Arrays.stream(renewed).max().orElse(Double.NaN), after, sent, errors + (sent - completed - errors));
            } finally {
                agent.close();
                bus.close();
                real.stop(Duration.ofSeconds(5));
            }
        }
    }

    /** The real gateway's clients: 40 requests a second for {@code length}, started now. */
    private static CompletableFuture<Summary> clientLoad(int port, Duration length) {
        LoadSpec spec = new LoadSpec("http://127.0.0.1:" + port, "/services/StockUtility", null,
                List.of(new LoadSpec.ClassSpec("client", "getQuote", "client", false, null)),
                List.of(new LoadSpec.Phase(length, List.of(40.0))), true, Duration.ZERO, Duration.ZERO, 7,
                Duration.ofSeconds(30), null);
        return CompletableFuture.supplyAsync(() -> {
            try {
                return new LoadGenerator(spec, null).run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /**
     * Waits until every gateway has reconnected (those on broker A: a new connection) and applies an allocation decided
     * after the loss; per gateway, the seconds after the loss each took ({0}: reconnected, {1}: applying again).
     */
    private double[][] awaitRecovery(long[] connectsBefore, long lostAt, long lostNanos, Duration window) throws Exception {
        double[] reconnected = new double[gateways.size()];
        double[] renewed = new double[gateways.size()];
        Arrays.fill(reconnected, Double.NaN);
        Arrays.fill(renewed, Double.NaN);
        await("every gateway reconnected and applying allocations decided after the loss", window, () -> {
            double now = (System.nanoTime() - lostNanos) / 1e9;
            boolean all = true;
            for (int i = 0; i < gateways.size(); i++) {
                SimulatedGateway g = gateways.get(i);
                if (Double.isNaN(reconnected[i]) && (i % 2 == 1 || g.bus().isConnected() && g.bus().connects() > connectsBefore[i])) {
                    reconnected[i] = i % 2 == 1 ? 0 : now;
                }
                if (Double.isNaN(renewed[i]) && g.decidedAtMillis() > lostAt) {
                    renewed[i] = (g.appliedAtMillis() - lostAt) / 1000.0;
                }
                all &= !Double.isNaN(reconnected[i]) && !Double.isNaN(renewed[i]);
            }
            return all;
        });
        return new double[][] {reconnected, renewed};
    }

    /** The real gateway: the manager's servers and classes, every server at the synthetic backend. */
    private String realGatewayYaml(String backend) {
        StringBuilder y = new StringBuilder("gateway: { id: real-gw, listen: \"127.0.0.1:0\", admin: \"127.0.0.1:0\","
                + " stats: { reportingInterval: 1s, window: 5s } }\nservers:\n");
        for (String s : servers) {
            y.append("  - { id: ").append(s).append(", url: \"").append(backend).append("\", concurrency: ")
                    .append(ScaleExperiment.SLOTS / servers.length).append(" }\n");
        }
        y.append("classes:\n");
        for (int c = 0; c < classes.length; c++) {
            y.append(String.format(Locale.ROOT, "  - { name: %s, target: %dms }%n", classes[c], 150 + 25 * c));
        }
        y.append("classification: { defaultClass: c0 }\n");
        y.append("bus: { embedded: false, url: \"").append(exp.urlAFirst()).append("\" }\n");
        return y.toString();
    }

    @Override
    public void close() throws Exception {
        ScaleExperiment.shutdown(reporter);
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (SimulatedGateway g : gateways) {
            closing.add(CompletableFuture.runAsync(g::close));
        }
        CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        observer.close();
        manager.close();
    }
}
