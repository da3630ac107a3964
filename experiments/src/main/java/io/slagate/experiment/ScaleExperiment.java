package io.slagate.experiment;

import io.slagate.bus.ControlBus;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.Topics;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Experiment scale: the control plane with hundreds of gateways. Two brokers in a network (child JVMs, with
 * authentication and roles), the real resource manager (a child JVM, on a failover URL of both), and G simulated
 * gateways in this JVM ({@link SimulatedGateway}: real bus clients, each with its own connection, half starting on
 * each broker), each reporting C classes and S servers every second and applying what it receives. Per point
 * (G, C, S): the manager's cycle (solve, then every gateway's part handed to the bus; p50, p99), the fan-out (from a
 * decision until 99% of the gateways applied it; p99 over cycles), bytes per gateway per interval each way (on the
 * wire, from this JVM's socket reads and writes, and the JSON alone), and the brokers' and the manager's CPU and
 * heap. The last point then loses a broker (SIGKILL) under a real gateway's traffic: how long until the gateways on
 * it are reconnected to the other, until every gateway applied an allocation decided after the loss, and the real
 * gateway's errors meanwhile. Every figure goes to {@code docs/experiments/scale/RESULTS.md}; the child JVMs' logs to a
 * temporary directory the run names.
 */
final class ScaleExperiment {
    record Point(int gateways, int classes, int servers) {
    }

    /** Every server's N_s is this over S: the cluster has the same slots at every point. */
    static final int SLOTS = 10_000;
    private static final Duration CYCLE = Duration.ofSeconds(1);
    private static final Duration INTERVAL = Duration.ofSeconds(1);

    private final boolean quick;
    private final PrintStream log;
    private final Map<String, String> env = new ConcurrentHashMap<>();
    private final String urlAB;
    private final String urlBA;
    private final int portA;
    private final int portB;

    ScaleExperiment(boolean quick, PrintStream log) throws Exception {
        this.quick = quick;
        this.log = log;
        for (String k : List.of("SCALE_ADMIN_PASSWORD", "SCALE_GATEWAYS_PASSWORD", "SCALE_RM_PASSWORD")) {
            byte[] b = new byte[16];
            new SecureRandom().nextBytes(b);
            env.put(k, HexFormat.of().formatHex(b)); // drawn for this run, never written anywhere
        }
        portA = freePort();
        portB = freePort();
        urlAB = "failover:(tcp://127.0.0.1:" + portA + ",tcp://127.0.0.1:" + portB + ")?randomize=false";
        urlBA = "failover:(tcp://127.0.0.1:" + portB + ",tcp://127.0.0.1:" + portA + ")?randomize=false";
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    List<Point> points() {
        if (quick) {
            return List.of(new Point(10, 2, 10), new Point(100, 10, 100), new Point(500, 10, 100));
        }
        List<Point> all = new ArrayList<>();
        for (int[] cs : new int[][] {{2, 10}, {10, 100}}) {
            for (int g : new int[] {10, 100, 500}) {
                all.add(new Point(g, cs[0], cs[1]));
            }
        }
        return all;
    }

    List<String> run(Path out, String command) throws Exception {
        Path dir = out.resolve("scale");
        Path work = Files.createTempDirectory("slagate-scale-");
        log.println("scale: the brokers' and managers' configurations and logs are in " + work);
        Duration settle = Duration.ofSeconds(quick ? 5 : 10);
        Duration measure = Duration.ofSeconds(quick ? 20 : 60);
        List<ScaleRun.Result> results = new ArrayList<>();
        ScaleRun.Loss loss = null;
        ChildJvm a = broker("broker-a", portA, portB, work);
        ChildJvm b = broker("broker-b", portB, portA, work);
        try {
            a.awaitLog("slagate broker: listening", 60);
            b.awaitLog("slagate broker: listening", 60);
            List<Point> points = points();
            for (int i = 0; i < points.size(); i++) {
                Point p = points.get(i);
                boolean last = i == points.size() - 1;
                log.printf(Locale.ROOT, "scale: %d gateways, %d classes, %d servers%n", p.gateways(), p.classes(), p.servers());
                try (ScaleRun run = new ScaleRun(p, this, work, a, b)) { // a failed point stops its manager too
                    results.add(run.measure(settle, measure));
                    log.println("  " + results.get(results.size() - 1).line());
                    if (last) {
                        loss = run.loseBroker(a);
                        log.println("  " + loss.line());
                    }
                }
            }
        } finally {
            a.close();
            b.close();
        }
        ScaleRun.Result end = results.get(results.size() - 1);
        String line = String.format(Locale.ROOT, "scale gateways %d classes %d servers %d cycle-p99-ms %.0f fanout-p99-ms %.0f"
                        + " bytes-per-gateway-interval %.0f broker-loss-reconnect-s %.1f manager-cpu-p99-ms %.0f", end.point().gateways(),
                end.point().classes(), end.point().servers(), end.cycleP99(), end.fanOutP99(), end.wireBytesPerInterval(),
                loss.reconnectSeconds(), end.cycleCpuP99());
        ScaleReport.write(dir.resolve("RESULTS.md"), command, quick, settle, measure, results, loss, line);
        return List.of(line);
    }

    private ChildJvm broker(String name, int port, int peer, Path work) throws Exception {
        Path config = work.resolve(name + ".yaml");
        Files.writeString(config, String.format(Locale.ROOT, """
                bus:
                  listen: tcp://127.0.0.1:%d
                  user: admin
                  passwordEnv: SCALE_ADMIN_PASSWORD
                  accounts:
                    - { user: gateways, role: gateway, passwordEnv: SCALE_GATEWAYS_PASSWORD }
                    - { user: rm, role: resource-manager, passwordEnv: SCALE_RM_PASSWORD }
                  network: [ "tcp://127.0.0.1:%d" ]
                """, port, peer));
        return ChildJvm.start(name, "broker", config, env, work, "1g");
    }

    /** The bus URL of simulated gateway {@code i}: half start on each broker. */
    String gatewayUrl(int i) {
        return i % 2 == 0 ? urlAB : urlBA;
    }

    /** The URL the manager and the real gateway use: broker A first, the one that is lost. */
    String urlAFirst() {
        return urlAB;
    }

    String password(String account) {
        return env.get(switch (account) {
            case "admin" -> "SCALE_ADMIN_PASSWORD";
            case "rm" -> "SCALE_RM_PASSWORD";
            default -> "SCALE_GATEWAYS_PASSWORD";
        });
    }

    Map<String, String> env() {
        return env;
    }

    static Duration cycle() {
        return CYCLE;
    }

    static Duration interval() {
        return INTERVAL;
    }

    /** A bus client of the admin account that records every cycle's summary arrival and decision. */
    static final class Observer implements AutoCloseable {
        final ControlBus bus;
        /** version → {decided at (manager's ms), summary received at (ms)}. */
        final Map<Long, long[]> summaries = new ConcurrentHashMap<>();
        /** version → the decision's solve time (ms). */
        final Map<Long, Double> solves = new ConcurrentHashMap<>();
        /** version → the CPU time of its cycle on the manager's control thread (ms). */
        final Map<Long, Double> cycleCpus = new ConcurrentHashMap<>();
        final List<Long> versions = new CopyOnWriteArrayList<>();

        Observer(String url, String password) {
            bus = new ControlBus(url, "admin", password, "scale-observer");
            bus.subscribe(Topics.ALLOCATION, m -> {
                if (m instanceof AllocationMessage a) {
                    summaries.put(a.version(), new long[] {a.timestampMillis(), System.currentTimeMillis()});
                    versions.add(a.version());
                }
            });
            bus.subscribe(Topics.DECISION, m -> {
                if (m instanceof DecisionMessage d) {
                    solves.put(d.version(), d.solveMillis());
                    cycleCpus.put(d.version(), d.cycleCpuMillis());
                }
            });
            bus.start();
        }

        @Override
        public void close() {
            bus.close();
        }
    }

    static ScheduledExecutorService scheduler(String name, int threads) {
        return Executors.newScheduledThreadPool(threads, r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    static void shutdown(ScheduledExecutorService s) throws InterruptedException {
        s.shutdownNow();
        s.awaitTermination(5, TimeUnit.SECONDS);
    }
}
