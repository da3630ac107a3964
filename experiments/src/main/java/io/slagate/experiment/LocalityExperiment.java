package io.slagate.experiment;

import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.Bookstore;
import io.slagate.load.service.ItemCache;
import io.slagate.load.service.ServiceTime;
import io.slagate.load.service.WorkingSetModel;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The comparison ({@code slagate experiment locality}): the Bookstore backend (TPC-W's interactions
 * over tables of items, each server with its own bounded cache, a miss costing a database read) behind
 * one gateway, closed-loop clients without think time, and the pool's load balancing set to round-robin,
 * least-loaded, LARD and locality in turn, each on fresh servers (cold caches) with the same seeds.
 * Per cell: throughput, p95, and the servers' cache hit ratio over the measured period, after a warm-up in
 * which caches fill and the mapping settles. With the same clients, a higher throughput is a shorter mean
 * response time (Little's law); the p95 is reported beside it.
 */
final class LocalityExperiment {
    static final String[] POLICIES = {"round-robin", "least-loaded", "lard", "locality"};
    private static final long SEED = 20;

    private final boolean quick;
    private final PrintStream log;

    LocalityExperiment(boolean quick, PrintStream log) {
        this.quick = quick;
        this.log = log;
    }

    /** TPC-W's three mixes (Active Harmony's Table 1, shares of the fourteen interactions), and a mix without locality. */
    static Map<String, Map<String, Double>> mixes() {
        String[] ops = {"home", "newProducts", "bestSellers", "productDetail", "searchRequest", "searchResults", "shoppingCart",
            "customerRegistration", "buyRequest", "buyConfirm", "orderInquiry", "orderDisplay", "adminRequest", "adminConfirm"};
        double[][] shares = {
            {29.00, 11.00, 11.00, 21.00, 12.00, 11.00, 2.00, 0.82, 0.75, 0.69, 0.30, 0.25, 0.10, 0.09},
            {16.00, 5.00, 5.00, 17.00, 20.00, 17.00, 11.60, 3.00, 2.60, 1.20, 0.75, 0.66, 0.10, 0.09},
            {9.12, 0.46, 0.46, 12.35, 14.53, 13.08, 13.53, 12.86, 12.73, 10.18, 0.25, 0.22, 0.12, 0.11}};
        String[] names = {"browsing", "shopping", "ordering"};
        Map<String, Map<String, Double>> m = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            Map<String, Double> mix = new LinkedHashMap<>();
            for (int j = 0; j < ops.length; j++) {
                mix.put(ops[j], shares[i][j]);
            }
            m.put(names[i], mix);
        }
        m.put("uniform", Map.of("anyItem", 100.0));
        return m;
    }

    record Cell(String mix, int servers, int cacheItems, String policy, double throughput, double p95Millis, double meanMillis,
                double hitRatio, long errors) {
    }

    List<String> run(Path out, String command) throws Exception {
        Duration warmup = Duration.ofSeconds(quick ? 20 : 15);
        Duration measure = Duration.ofSeconds(quick ? 30 : 25);
        List<String> mixNames = quick ? List.of("shopping") : List.of("browsing", "shopping", "ordering", "uniform");
        String only = System.getProperty("slagate.locality.mixes");
        if (only != null) {
            mixNames = List.of(only.split(","));
        }
        String[] policies = System.getProperty("slagate.locality.policies", String.join(",", POLICIES)).split(",");
        int[] serverCounts = quick ? new int[] {4} : new int[] {4, 3};
        int[] cacheSizes = quick ? new int[] {1000} : new int[] {1000, 2000};
        List<Cell> cells = new ArrayList<>();
        for (int n : serverCounts) {
            for (int cache : cacheSizes) {
                for (String mix : mixNames) {
                    if (mix.equals("uniform") && cache != cacheSizes[0]) {
                        continue; // no locality to find: one cache size says it
                    }
                    for (String policy : policies) {
                        Cell c = cell(mix, n, cache, policy, warmup, measure);
                        cells.add(c);
                        log.printf(Locale.ROOT, "locality: %s, %d servers, cache %d: %-12s %.1f req/s, p95 %.1f ms, hits %.0f%%%n",
                                mix, n, cache, policy, c.throughput(), c.p95Millis(), 100 * c.hitRatio());
                    }
                }
            }
        }
        List<Adapt> adapts = new ArrayList<>();
        if (!quick) {
            for (String policy : new String[] {"least-loaded", "locality"}) {
                adapts.add(adapt(policy));
                log.printf(Locale.ROOT, "locality: browsing then ordering: %s done%n", policy);
            }
        }
        Path dir = out.resolve("locality");
        Files.createDirectories(dir);
        String line = summary(cells, quick ? "shopping" : null);
        ResultsFile.write(dir.resolve(quick ? "RESULTS-short.md" : "RESULTS.md"), report(cells, command, warmup, measure, line)
                + adaptReport(adapts));
        return List.of(line);
    }

    /** The summary line: each policy's throughput, averaged over the TPC-W cells (or the one mix of the short run). */
    static String summary(List<Cell> cells, String onlyMix) {
        Map<String, double[]> sum = new LinkedHashMap<>();
        for (String p : POLICIES) {
            sum.put(p, new double[2]);
        }
        for (Cell c : cells) {
            if (c.mix().equals("uniform") || (onlyMix != null && !c.mix().equals(onlyMix))) {
                continue;
            }
            double[] s = sum.get(c.policy());
            s[0] += c.throughput();
            s[1]++;
        }
        return String.format(Locale.ROOT, "throughput locality %.0f least-loaded %.0f round-robin %.0f lard %.0f",
                mean(sum.get("locality")), mean(sum.get("least-loaded")), mean(sum.get("round-robin")), mean(sum.get("lard")));
    }

    private static double mean(double[] s) {
        return s[1] == 0 ? Double.NaN : s[0] / s[1];
    }

    private Cell cell(String mix, int servers, int cacheItems, String policy, Duration warmup, Duration measure) throws Exception {
        WorkingSetModel model = WorkingSetModel.store(cacheItems);
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < servers; i++) {
            ports.add(0);
        }
        int clients = servers * model.workers() * Integer.getInteger("slagate.locality.clientsPerWorker", 2);
        try (BackendServer backend = BackendServer.start("127.0.0.1", ports, ServiceTime.paper(0.02, 0.1), null, model);
             RunningSystem sys = RunningSystem.start(config(backend.urls(), policy), false)) {
            ClosedLoop load = new ClosedLoop(sys.url(), mixes().get(mix), clients, SEED);
            load.start();
            try {
                Thread.sleep(warmup.toMillis()); // warm-up: caches fill and the mapping settles; nothing is measured
                long[] before = cacheCounts(backend.caches());
                load.measure(true);
                long start = System.nanoTime();
                Thread.sleep(measure.toMillis());
                load.measure(false);
                double seconds = (System.nanoTime() - start) / 1e9;
                long[] after = cacheCounts(backend.caches());
                long hits = after[0] - before[0];
                long misses = after[1] - before[1];
                long[] lat = load.latencies();
                return new Cell(mix, servers, cacheItems, policy, lat.length / seconds, percentile(lat, 0.95) / 1e6,
                        Arrays.stream(lat).average().orElse(Double.NaN) / 1e6, hits + misses == 0 ? 0 : (double) hits / (hits + misses),
                        load.errors());
            } finally {
                load.stop();
            }
        }
    }

    /** Requests answered per second through a mix change at second {@link #SWITCH_AT}. */
    record Adapt(String policy, List<Long> perSecond) {
    }

    static final int SWITCH_AT = 40;
    private static final int AFTER_SWITCH = 60;

    /** The "adapts": 4 servers, caches of 1000, browsing for 40 s then ordering for 60 s; answers per second. */
    private Adapt adapt(String policy) throws Exception {
        WorkingSetModel model = WorkingSetModel.store(1000);
        int clients = 4 * model.workers() * Integer.getInteger("slagate.locality.clientsPerWorker", 2);
        List<Long> perSecond = new ArrayList<>();
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0, 0, 0, 0), ServiceTime.paper(0.02, 0.1), null, model);
             RunningSystem sys = RunningSystem.start(config(backend.urls(), policy), false)) {
            ClosedLoop load = new ClosedLoop(sys.url(), mixes().get("browsing"), clients, SEED);
            load.start();
            try {
                long next = System.nanoTime();
                long last = 0;
                for (int sec = 0; sec < SWITCH_AT + AFTER_SWITCH; sec++) {
                    if (sec == SWITCH_AT) {
                        load.mix(mixes().get("ordering"));
                    }
                    next += 1_000_000_000L;
                    LockSupport.parkNanos(next - System.nanoTime());
                    long now = load.answered.get();
                    perSecond.add(now - last);
                    last = now;
                }
            } finally {
                load.stop();
            }
        }
        return new Adapt(policy, perSecond);
    }

    private static double window(List<Long> v, int from, int to) {
        double s = 0;
        for (int i = from; i < to; i++) {
            s += v.get(i);
        }
        return s / (to - from);
    }

    private static String adaptReport(List<Adapt> adapts) {
        if (adapts.size() < 2) {
            return "";
        }
        List<Long> ll = adapts.get(0).perSecond();
        List<Long> loc = adapts.get(1).perSecond();
        int n = Math.min(ll.size(), loc.size());
        double settled = window(loc, n - 20, n);
        int converged = -1;
        for (int t = SWITCH_AT; t + 5 <= n && converged < 0; t++) {
            boolean stays = true;
            for (int u = t; u + 5 <= n; u++) {
                stays &= window(loc, u, u + 5) >= 0.95 * settled;
            }
            converged = stays ? t - SWITCH_AT : -1;
        }
        double worstGap = Double.MAX_VALUE;
        for (int t = SWITCH_AT; t + 5 <= n; t++) {
            worstGap = Math.min(worstGap, window(loc, t, t + 5) - window(ll, t, t + 5));
        }
        StringBuilder md = new StringBuilder("\n## Adapting to a mix change (browsing, then ordering at second " + SWITCH_AT + ")\n\n");
        md.append(String.format(Locale.ROOT, "4 servers, caches of 1000 items, the same clients; requests answered per second, least-loaded "
                + "and locality (each on fresh servers). Locality's throughput stays within 5%% of its last 20 s (5 s windows) from "
                + "%s s after the change; over every 5 s window after the change, locality minus least-loaded is at worst %.0f req/s "
                + "(negative: a dip below least-loaded's).%n%n| second | least-loaded | locality |%n|---:|---:|---:|%n",
                converged < 0 ? "(never within the run)" : String.valueOf(converged), worstGap));
        for (int i = 0; i < n; i++) {
            md.append(String.format(Locale.ROOT, "| %d%s | %d | %d |%n", i, i == SWITCH_AT ? " (ordering)" : "", ll.get(i), loc.get(i)));
        }
        md.append(String.format(Locale.ROOT, "%n```%nadapt converged-after-seconds %d worst-5s-gap-vs-least-loaded %.0f%n```%n",
                converged, worstGap));
        return md.toString();
    }

    private static long[] cacheCounts(List<ItemCache> caches) {
        long h = 0;
        long m = 0;
        for (ItemCache c : caches) {
            h += c.hits();
            m += c.misses();
        }
        return new long[] {h, m};
    }

    static double percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }

    static SlagateConfig config(List<String> urls, String policy) {
        StringBuilder servers = new StringBuilder();
        for (int i = 0; i < urls.size(); i++) {
            servers.append(String.format(Locale.ROOT, "  - { id: s%d, url: \"%s\", concurrency: 8, pool: store }%n", i + 1, urls.get(i)));
        }
        String yaml = String.format(Locale.ROOT, """
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  loadBalancing: { store: %s }
                  locality: { remapInterval: 2s }
                servers:
                %sclasses:
                  - { name: shop, target: 1s, pool: store, queueBound: 100000, queueTimeout: 1m }
                """, policy, servers);
        return ConfigLoader.parse(yaml, "experiment locality");
    }

    private static String report(List<Cell> cells, String command, Duration warmup, Duration measure, String line) {
        StringBuilder md = new StringBuilder("# Experiment locality — dispatch by working set\n\n");
        md.append("Produced by `").append(command).append("` on ").append(Experiments.cores()).append(", ")
                .append(LocalDate.now()).append(".\n\n");
        WorkingSetModel m = WorkingSetModel.store(0);
        md.append(String.format(Locale.ROOT, """
                The Bookstore service: %d items in six tables (promotions, new/best lists, catalog, carts, customers, orders);
                TPC-W's fourteen interactions each read 2-5 items of one or two tables, through the server's own LRU cache of the
                given size. A request costs %d ms, plus %.1f ms per item found in the cache and %d ms per item not found; each
                server runs %d requests at once (the others wait inside it). One gateway, one class, N_{g,s} = 8 per server,
                closed-loop clients without think time (2 per server worker), the same seeds for every policy, fresh servers
                (cold caches) for every cell: %d s warm-up, then %d s measured. `lard`: type to server by hash, moved when the
                server is over 65%% of its slots while another is under 25%%. `locality`: types grouped by the working sets the
                servers declare, a group per server, bounded loads with epsilon 0.25, remapped every 2 s.

                With the same clients, more throughput is a shorter mean response time; the p95 is beside it.

                """, m.items(), m.base().toMillis(), m.hit().toNanos() / 1e6, m.miss().toMillis(), m.workers(),
                warmup.toSeconds(), measure.toSeconds()));
        md.append("| mix | servers | cache (items) | policy | throughput (req/s) | p95 (ms) | mean (ms) | cache hits | errors |\n");
        md.append("|---|---:|---:|---|---:|---:|---:|---:|---:|\n");
        for (Cell c : cells) {
            md.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %.1f | %.1f | %.1f | %.1f%% | %d |%n", c.mix(), c.servers(),
                    c.cacheItems(), c.policy(), c.throughput(), c.p95Millis(), c.meanMillis(), 100 * c.hitRatio(), c.errors()));
        }
        md.append("\n```\n").append(line).append("\n```\n");
        return md.toString();
    }

    /** Closed-loop clients without think time, one thread each, drawing operations from a mix with their own seeds. */
    static final class ClosedLoop {
        private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        private final String url;
        /** The mix in force: operations and their cumulative shares, replaced whole when the mix changes. */
        private volatile Mix mix;

        private record Mix(String[] ops, double[] cumulative) {
        }
        /** Requests answered 200, measured or not (for per-second series). */
        final AtomicLong answered = new AtomicLong();
        private final int clients;
        private final long seed;
        private final List<Thread> threads = new ArrayList<>();
        private final List<Client> all = new ArrayList<>();
        private final AtomicLong errors = new AtomicLong();
        private volatile boolean measuring;
        private volatile boolean running = true;

        /** One client's draws and the response times it recorded while measuring (guarded by itself). */
        private static final class Client {
            final Random random;
            long[] took = new long[1024];
            int count;

            Client(Random random) {
                this.random = random;
            }

            synchronized void record(long nanos) {
                if (count == took.length) {
                    took = Arrays.copyOf(took, count * 2);
                }
                took[count++] = nanos;
            }
        }

        ClosedLoop(String gatewayUrl, Map<String, Double> mix, int clients, long seed) {
            this.url = gatewayUrl + "/services/" + Bookstore.SERVICE;
            mix(mix);
            this.clients = clients;
            this.seed = seed;
        }

        /** From now on, operations are drawn from {@code shares}. */
        void mix(Map<String, Double> shares) {
            String[] ops = shares.keySet().toArray(String[]::new);
            double[] cumulative = new double[ops.length];
            double total = shares.values().stream().mapToDouble(Double::doubleValue).sum();
            double acc = 0;
            for (int i = 0; i < ops.length; i++) {
                acc += shares.get(ops[i]) / total;
                cumulative[i] = acc;
            }
            this.mix = new Mix(ops, cumulative);
        }

        void start() {
            for (int c = 0; c < clients; c++) {
                Client client = new Client(new Random(seed * 1000 + c));
                all.add(client);
                Thread t = new Thread(() -> loop(client), "locality-client-" + c);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
        }

        private void loop(Client client) {
            while (running) {
                String op = draw(client.random.nextDouble());
                String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\""
                        + " xmlns:ns=\"http://service.load.slagate.io\"><soapenv:Body><ns:" + op + "><ns:who>c</ns:who></ns:" + op
                        + "></soapenv:Body></soapenv:Envelope>";
                HttpRequest req = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "text/xml; charset=UTF-8").header("SOAPAction", "\"urn:" + op + "\"")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                long t0 = System.nanoTime();
                boolean counted = measuring;
                try {
                    HttpResponse<Void> r = http.send(req, HttpResponse.BodyHandlers.discarding());
                    long took = System.nanoTime() - t0;
                    if (r.statusCode() != 200) {
                        errors.incrementAndGet();
                    } else {
                        answered.incrementAndGet();
                        if (counted && measuring) {
                            client.record(took);
                        }
                    }
                } catch (IOException e) {
                    errors.incrementAndGet();
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private String draw(double u) {
            Mix m = mix;
            String[] ops = m.ops();
            double[] cumulative = m.cumulative();
            for (int i = 0; i < cumulative.length; i++) {
                if (u < cumulative[i]) {
                    return ops[i];
                }
            }
            return ops[ops.length - 1];
        }

        void measure(boolean on) {
            measuring = on;
        }

        long errors() {
            return errors.get();
        }

        /** Every response time recorded while measuring (a request counts if it started and ended within), sorted. */
        long[] latencies() {
            long[] out = new long[0];
            for (Client c : all) {
                synchronized (c) {
                    int before = out.length;
                    out = Arrays.copyOf(out, before + c.count);
                    System.arraycopy(c.took, 0, out, before, c.count);
                }
            }
            Arrays.sort(out);
            return out;
        }

        void stop() throws InterruptedException {
            running = false;
            for (Thread t : threads) {
                t.join(35_000);
            }
        }
    }
}
