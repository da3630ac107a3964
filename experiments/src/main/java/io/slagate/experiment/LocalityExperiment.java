package io.slagate.experiment;

import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ItemCache;
import io.slagate.load.service.ServiceTime;
import io.slagate.load.service.WorkingSetModel;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The comparison ({@code slagate experiment locality}): the Bookstore backend (TPC-W's interactions over tables of
 * items whose popularity within a table follows Zipf's law, each server with its own bounded cache, the caches
 * together holding half the data set, a miss costing a database read) behind one gateway, closed-loop clients without
 * think time, and the pool's load balancing set to each policy in turn, each on fresh servers (cold caches) with the
 * same seeds. LARD, LARD/R and locality run twice: placing the working-set groups the servers declare, and placing the
 * operation names alone (no declared working sets): each with the same information as the others. The policies run in
 * rounds, each round in the order of the last reversed (A B … B A), and each figure is the mean over the rounds.
 */
final class LocalityExperiment {
    /** Each policy as configured, and whether it sees the declared working sets ("/names": the operation names alone). */
    static final String[] POLICIES = {"round-robin", "least-loaded", "lard", "lard-r", "locality", "lard/names", "lard-r/names",
        "locality/names"};
    private static final long SEED = 20;
    /** The exponent of the items' popularity (Zipf), unless {@code -Dslagate.locality.zipf} says otherwise. */
    static final double ZIPF = 0.9;
    /** The share of each request's cost spent on the CPU (the rest waits, as on a database). */
    static final double CPU = 0.2;

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

    record Cell(int round, String mix, int servers, int cacheItems, String policy, double throughput, double p95Millis,
                double meanMillis, double hitRatio, long errors) {
    }

    /** The data set's model for {@code servers} servers: caches that together hold half the items, Zipf, CPU, seeded. */
    static WorkingSetModel model(int servers, double zipf, long seed) {
        WorkingSetModel store = WorkingSetModel.store(0);
        return WorkingSetModel.store(store.items() / (2 * servers)).with(zipf, CPU, seed);
    }

    /** The policies of round {@code r}: in order, or reversed in odd rounds. */
    static List<String> order(int r) {
        List<String> o = new ArrayList<>(List.of(POLICIES));
        if (r % 2 == 1) {
            Collections.reverse(o);
        }
        return o;
    }

    List<String> run(Path out, String command) throws Exception {
        Duration warmup = Duration.ofSeconds(quick ? 8 : 15);
        Duration measure = Duration.ofSeconds(quick ? 12 : 25);
        int rounds = 3;
        double zipf = Double.parseDouble(System.getProperty("slagate.locality.zipf", String.valueOf(ZIPF)));
        List<String> mixNames = quick ? List.of("shopping") : List.of("browsing", "shopping", "ordering");
        int servers = 4;
        List<Cell> cells = new ArrayList<>();
        // one cell first, not counted: the JVM's compilers warm up on it (the first round's first cells read up to 45% lower
        // than the same policy's later rounds without it, a handicap for whichever policies come first)
        Cell discarded = cell(0, mixNames.get(0), servers, zipf, "least-loaded", warmup, warmup);
        log.printf(Locale.ROOT, "locality: warm-up cell (not counted): %.1f req/s%n", discarded.throughput());
        for (String mix : mixNames) {
            for (int r = 0; r < rounds; r++) {
                for (String policy : order(r)) {
                    Cell c = cell(r, mix, servers, zipf, policy, warmup, measure);
                    cells.add(c);
                    log.printf(Locale.ROOT, "locality: round %d, %s, %d servers, cache %d: %-14s %.1f req/s, p95 %.1f ms, hits %.0f%%%n",
                            r + 1, mix, servers, c.cacheItems(), policy, c.throughput(), c.p95Millis(), 100 * c.hitRatio());
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
        List<String> lines = summary(cells);
        ResultsFile.write(dir.resolve(quick ? "RESULTS-short.md" : "RESULTS.md"), report(cells, command, warmup, measure, zipf, lines)
                + adaptReport(adapts));
        return lines;
    }

    /** Each policy's throughput over its cells (every mix and round), as mean [min..max]. */
    static Spread throughput(List<Cell> cells, String policy) {
        return Spread.of(cells.stream().filter(c -> c.policy().equals(policy)).map(Cell::throughput).toList());
    }

    /**
     * The summary lines: each policy's throughput on declared working sets, then on operation names alone, and whether
     * locality beat the best of least-loaded, LARD and LARD/R by 10% on the same information.
     */
    static List<String> summary(List<Cell> cells) {
        Spread l = throughput(cells, "locality");
        Spread q = throughput(cells, "least-loaded");
        Spread d = throughput(cells, "lard");
        Spread dr = throughput(cells, "lard-r");
        Spread ln = throughput(cells, "locality/names");
        Spread dn = throughput(cells, "lard/names");
        Spread drn = throughput(cells, "lard-r/names");
        return List.of(
                String.format(Locale.ROOT, "throughput locality %s least-loaded %s round-robin %s lard %s lard-r %s", l.format("%.0f"),
                        q.format("%.0f"), throughput(cells, "round-robin").format("%.0f"), d.format("%.0f"), dr.format("%.0f")),
                String.format(Locale.ROOT, "throughput-on-operation-names locality %s lard %s lard-r %s", ln.format("%.0f"),
                        dn.format("%.0f"), drn.format("%.0f")),
                String.format(Locale.ROOT, "locality-over-best-other declared %.2f names %.2f", l.mean() / Math.max(q.mean(),
                        Math.max(d.mean(), dr.mean())), ln.mean() / Math.max(q.mean(), Math.max(dn.mean(), drn.mean()))));
    }

    private Cell cell(int round, String mix, int servers, double zipf, String policy, Duration warmup, Duration measure) throws Exception {
        WorkingSetModel model = model(servers, zipf, SEED + 100L * round);
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < servers; i++) {
            ports.add(0);
        }
        int clients = servers * model.workers() * Integer.getInteger("slagate.locality.clientsPerWorker", 2);
        try (BackendServer backend = BackendServer.start("127.0.0.1", ports, ServiceTime.paper(0.02, 0.1), null, model);
             RunningSystem sys = RunningSystem.start(config(backend.urls(), policy), false)) {
            ClosedLoop load = new ClosedLoop(sys.url(), mixes().get(mix), clients, SEED + round);
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
                return new Cell(round, mix, servers, model.cacheItems(), policy, lat.length / seconds, percentile(lat, 0.95) / 1e6,
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
        WorkingSetModel model = model(4, ZIPF, SEED);
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
        md.append(String.format(Locale.ROOT, "4 servers, caches holding half the data set, Zipf popularity, the same clients; requests answered per second, least-loaded "
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

    /** One gateway in front of the servers, the pool balanced by {@code policy} ("/names": no declared working sets). */
    static SlagateConfig config(List<String> urls, String policy) {
        boolean names = policy.endsWith("/names");
        String balancing = names ? policy.substring(0, policy.length() - "/names".length()) : policy;
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
                  locality: { remapInterval: 2s%s }
                servers:
                %sclasses:
                  - { name: shop, target: 1s, pool: store, queueBound: 100000, queueTimeout: 1m }
                """, balancing, names ? ", workingSetHeader: none" : "", servers);
        return ConfigLoader.parse(yaml, "experiment locality");
    }

    private static String report(List<Cell> cells, String command, Duration warmup, Duration measure, double zipf, List<String> lines) {
        StringBuilder md = ResultsFile.header("Experiment locality — dispatch by working set", command);
        WorkingSetModel m = model(4, zipf, SEED);
        md.append(String.format(Locale.ROOT, """
                The Bookstore service: %d items in six tables (promotions, new/best lists, catalog, carts, customers, orders);
                TPC-W's fourteen interactions each read 2-5 items of one or two tables, an item's popularity within its table
                Zipf's with s = %.2f (drawn from a seeded stream per server), through the server's own LRU cache of %d items
                (the four caches together hold half the data set). A request costs %d ms, plus %.1f ms per item found in the
                cache and %d ms per item not found, %.0f%% of it on the CPU and the rest waiting; each server runs %d requests at
                once (the others wait inside it). One gateway, one class, N_{g,s} = 8 per server, closed-loop clients without
                think time (2 per server worker), fresh servers (cold caches) for every cell: %d s warm-up, then %d s measured.
                Each round runs every policy, in the order of the last round reversed; a round's seeds are the same for every
                policy. One cell before the rounds, not counted, warms the JVM up.

                - `lard`: Pai et al.'s LARD: a target's first request to the least-loaded server, moved to the least-loaded
                  when its server is above T_high while another is below T_low, or at 2·T_high; T_high half the cap (4 of 8),
                  T_low 25/65 of that. `lard-r`: LARD/R, a target's set of servers grown by the least-loaded under the same
                  rule, the least loaded of the set chosen, the most loaded shed after 20 s without growing.
                - `locality`: types grouped by working-set correlation, a group per server, bounded loads (epsilon 0.25),
                  remapped every 2 s.
                - A target is the working-set group the servers declare (the same groups locality places); `/names`: no
                  declared working sets (`workingSetHeader: none`), so every policy's target is the operation name.

                With the same clients, more throughput is a shorter mean response time; the p95 is beside it.

                """, m.items(), zipf, m.cacheItems(), m.base().toMillis(), m.hit().toNanos() / 1e6, m.miss().toMillis(), 100 * CPU,
                m.workers(), warmup.toSeconds(), measure.toSeconds()));
        md.append("| round | mix | policy | throughput (req/s) | p95 (ms) | mean (ms) | cache hits | errors |\n");
        md.append("|---:|---|---|---:|---:|---:|---:|---:|\n");
        for (Cell c : cells) {
            md.append(String.format(Locale.ROOT, "| %d | %s | %s | %.1f | %.1f | %.1f | %.1f%% | %d |%n", c.round() + 1, c.mix(), c.policy(),
                    c.throughput(), c.p95Millis(), c.meanMillis(), 100 * c.hitRatio(), c.errors()));
        }
        md.append("\n| policy | throughput, mean [min..max] over its cells |\n|---|---:|\n");
        for (String p : POLICIES) {
            md.append("| ").append(p).append(" | ").append(throughput(cells, p).format("%.1f")).append(" |\n");
        }
        md.append("\n```\n").append(String.join("\n", lines)).append("\n```\n");
        return md.toString();
    }
}
