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
 * The comparison ({@code slagate experiment locality}): the Bookstore backend's documents (each a block of items, read
 * 4 at a time, popularity Zipf's over the documents), each server with its own bounded cache, the caches together
 * holding half the data set, a miss costing a database read, behind one gateway; closed-loop clients without think time,
 * and the pool's load balancing set to each policy in turn, each on fresh servers (cold caches) with the same seeds.
 * LARD and LARD/R as Pai et al. publish them: a target is a document (the request's key), the thresholds and K theirs
 * scaled to the cap, and a load that neither exceeds the front-end limit S nor sits at T_high. Locality places the
 * working sets the servers declare (here each document's block: the same information). Rounds run the policies in
 * ABBA order (forward, reversed, reversed, forward), each cell after a warm-up that is not measured, and one whole cell
 * before the rounds warms the JVM up.
 */
final class LocalityExperiment {
    /** The policies compared, as configured. */
    static final String[] POLICIES = {"least-loaded", "lard", "lard-r", "locality"};
    private static final long SEED = 20;
    /** The exponent of the documents' popularity (Zipf), unless {@code -Dslagate.locality.zipf} says otherwise. */
    static final double ZIPF = 0.9;
    /** The share of each request's cost spent on the CPU (the rest waits, as on a database). */
    static final double CPU = 0.2;
    static final int SERVERS = 4;
    /**
     * N_{g,s}: LARD's loads are outstanding requests over it, T_high half of it: 16 requests, so that its thresholds
     * count tens of requests as the paper's do (25 and 65 connections), not a few that every burst crosses.
     */
    static final int CAP = 32;
    /**
     * Closed-loop clients: 12 outstanding per server on average, between T_low (≈ 6.2) and T_high (16), and no more
     * than the front-end limit S = (n − 1)·T_high + T_low − 1 ≈ 53 of Pai et al., so the limit holds as published.
     */
    static final int CLIENTS = 48;
    static final int ROUNDS = 4;

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

    record Cell(int round, int cacheItems, String policy, double throughput, double p95Millis, double meanMillis, double hitRatio,
                long errors) {
    }

    /** The data set's model for {@code servers} servers: caches that together hold half the items, Zipf, CPU, seeded. */
    static WorkingSetModel model(int servers, double zipf, long seed) {
        WorkingSetModel store = WorkingSetModel.store(0);
        return WorkingSetModel.store(store.items() / (2 * servers)).with(zipf, CPU, seed);
    }

    /** The policies of round {@code r}: in order, or reversed, in ABBA order of rounds. */
    static List<String> order(int r) {
        List<String> o = new ArrayList<>(List.of(POLICIES));
        if (!Spread.aAt(r)) {
            Collections.reverse(o);
        }
        return o;
    }

    List<String> run(Path out, String command) throws Exception {
        Duration warmup = Duration.ofSeconds(quick ? 8 : 15);
        Duration measure = Duration.ofSeconds(quick ? 12 : 25);
        double zipf = Double.parseDouble(System.getProperty("slagate.locality.zipf", String.valueOf(ZIPF)));
        List<Cell> cells = new ArrayList<>();
        // one cell first, not counted: the JVM's compilers warm up on it (the first round's first cells read up to 45% lower
        // than the same policy's later rounds without it, a handicap for whichever policies come first)
        Cell discarded = cell(0, zipf, "least-loaded", warmup, warmup);
        log.printf(Locale.ROOT, "locality: warm-up cell (not counted): %.1f req/s%n", discarded.throughput());
        for (int r = 0; r < ROUNDS; r++) {
            for (String policy : order(r)) {
                Cell c = cell(r, zipf, policy, warmup, measure);
                cells.add(c);
                log.printf(Locale.ROOT, "locality: round %d, cache %d: %-14s %.1f req/s, p95 %.1f ms, hits %.0f%%%n", r + 1,
                        c.cacheItems(), policy, c.throughput(), c.p95Millis(), 100 * c.hitRatio());
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
        List<String> lines = summary(cells, model(SERVERS, zipf, SEED).documents());
        ResultsFile.write(dir.resolve(quick ? "RESULTS-short.md" : "RESULTS.md"), report(cells, command, warmup, measure, zipf, lines)
                + adaptReport(adapts));
        return lines;
    }

    /** Pai et al.'s front-end limit S = (n − 1)·T_high + T_low − 1, T_high half the cap and T_low 25/65 of it. */
    static double frontEndLimit() {
        double tHigh = CAP / 2.0;
        return (SERVERS - 1) * tHigh + tHigh * 25 / 65 - 1;
    }

    /** Each policy's throughput over its cells, as mean [min..max]. */
    static Spread throughput(List<Cell> cells, String policy) {
        return Spread.of(cells.stream().filter(c -> c.policy().equals(policy)).map(Cell::throughput).toList());
    }

    /** Each policy's cache hit ratio over its cells. */
    static Spread hits(List<Cell> cells, String policy) {
        return Spread.of(cells.stream().filter(c -> c.policy().equals(policy)).map(Cell::hitRatio).toList());
    }

    /** The summary lines: each policy's throughput, the hit ratios, and locality against the best of the others. */
    static List<String> summary(List<Cell> cells, int targets) {
        Spread l = throughput(cells, "locality");
        Spread q = throughput(cells, "least-loaded");
        Spread d = throughput(cells, "lard");
        Spread dr = throughput(cells, "lard-r");
        return List.of(
                String.format(Locale.ROOT, "throughput locality %s least-loaded %s lard %s lard-r %s (targets %d, hit ratio lard %.2f "
                        + "least-loaded %.2f)", l.format("%.0f"), q.format("%.0f"), d.format("%.0f"), dr.format("%.0f"), targets,
                        hits(cells, "lard").mean(), hits(cells, "least-loaded").mean()),
                String.format(Locale.ROOT, "locality-over-best-other %.2f hit ratio locality %.2f lard-r %.2f", l.mean()
                        / Math.max(q.mean(), Math.max(d.mean(), dr.mean())), hits(cells, "locality").mean(), hits(cells, "lard-r").mean()));
    }

    private Cell cell(int round, double zipf, String policy, Duration warmup, Duration measure) throws Exception {
        WorkingSetModel model = model(SERVERS, zipf, SEED + 100L * round);
        List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < SERVERS; i++) {
            ports.add(0);
        }
        try (BackendServer backend = BackendServer.start("127.0.0.1", ports, ServiceTime.paper(0.02, 0.1), null, model);
             RunningSystem sys = RunningSystem.start(config(backend.urls(), policy, true), false)) {
            ClosedLoop load = new ClosedLoop(sys.url(), ItemCache.zipfCdf(model.documents(), zipf), CLIENTS, SEED + round);
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
                return new Cell(round, model.cacheItems(), policy, lat.length / seconds, percentile(lat, 0.95) / 1e6,
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
             RunningSystem sys = RunningSystem.start(config(backend.urls(), policy, false), false)) {
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

    /**
     * One gateway in front of the servers, the pool balanced by {@code policy}; with {@code documents}, the request type
     * includes the document (the key header), and LARD's targets are the documents themselves (no declared working
     * sets), as Pai et al.'s are; without, the type is the operation.
     */
    static SlagateConfig config(List<String> urls, String policy, boolean documents) {
        boolean lard = policy.startsWith("lard");
        StringBuilder servers = new StringBuilder();
        for (int i = 0; i < urls.size(); i++) {
            servers.append(String.format(Locale.ROOT, "  - { id: s%d, url: \"%s\", concurrency: %d, pool: store }%n", i + 1, urls.get(i),
                    CAP));
        }
        String yaml = String.format(Locale.ROOT, """
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  loadBalancing: { store: %s }
                  locality: { remapInterval: 2s%s%s }
                servers:
                %sclasses:
                  - { name: shop, target: 1s, pool: store, queueBound: 100000, queueTimeout: 1m }
                """, policy, documents ? ", key: " + WorkingSetModel.DOCUMENT_HEADER : "",
                documents && lard ? ", workingSetHeader: none" : "", servers);
        return ConfigLoader.parse(yaml, "experiment locality");
    }

    private static String report(List<Cell> cells, String command, Duration warmup, Duration measure, double zipf, List<String> lines) {
        StringBuilder md = ResultsFile.header("Experiment locality — dispatch by working set", command);
        WorkingSetModel m = model(SERVERS, zipf, SEED);
        md.append(String.format(Locale.ROOT, """
                The Bookstore service's documents: %d items in %d documents of %d items (document k is block k: documents share
                no items, as a web server's files). Each request names one document (`%s`), drawn by Zipf's popularity with
                s = %.2f over the documents, and reads 4 of its items, uniformly, through the server's own LRU cache of %d items
                (the %d caches together hold half the data set). A request costs %d ms, plus %.1f ms per item found in the cache and
                %d ms per item not found, %.0f%% of it on the CPU and the rest waiting; each server runs %d requests at once (the
                others wait inside it). One gateway, one class, N_{g,s} = %d per server, %d closed-loop clients without think
                time, fresh servers (cold caches) for every cell: %d s warm-up, not measured, then %d s measured. %d rounds run
                every policy in ABBA order (forward, reversed, reversed, forward); a round's seeds are the same for every policy.
                One cell before the rounds, not counted, warms the JVM up.

                - `lard`: Pai et al.'s LARD, a target being a document: its first request to the least-loaded server, moved to
                  the least-loaded when its server is above T_high while another is below T_low, or at 2·T_high; T_high half
                  the cap (%d of %d), T_low 25/65 of that. `lard-r`: LARD/R, a target's set of servers grown by the least-loaded
                  under the same rule, the least loaded of the set chosen, the most loaded shed after K = 20 s without growing.
                  The front-end limit S = (n − 1)·T_high + T_low − 1 = %.0f outstanding requests holds: there are %d clients, a
                  mean of %d per server, between T_low and T_high.
                - `locality`: request types (the document is part of the type) grouped by the working sets the servers declare
                  (a document's block), a group per server, bounded loads (epsilon 0.25), remapped every 2 s.
                - `least-loaded`: the server with the fewest outstanding requests relative to its cap.

                With the same clients, more throughput is a shorter mean response time; the p95 is beside it.

                """, m.items(), m.documents(), m.blockItems(), WorkingSetModel.DOCUMENT_HEADER, zipf, m.cacheItems(), SERVERS,
                m.base().toMillis(), m.hit().toNanos() / 1e6, m.miss().toMillis(), 100 * CPU, m.workers(), CAP, CLIENTS,
                warmup.toSeconds(), measure.toSeconds(), ROUNDS, CAP / 2, CAP, frontEndLimit(), CLIENTS, CLIENTS / SERVERS));
        md.append("| round | policy | throughput (req/s) | p95 (ms) | mean (ms) | cache hits | errors |\n");
        md.append("|---:|---|---:|---:|---:|---:|---:|\n");
        for (Cell c : cells) {
            md.append(String.format(Locale.ROOT, "| %d | %s | %.1f | %.1f | %.1f | %.1f%% | %d |%n", c.round() + 1, c.policy(),
                    c.throughput(), c.p95Millis(), c.meanMillis(), 100 * c.hitRatio(), c.errors()));
        }
        md.append("\n| policy | throughput, mean [min..max] over its cells | cache hits |\n|---|---:|---:|\n");
        for (String p : POLICIES) {
            md.append("| ").append(p).append(" | ").append(throughput(cells, p).format("%.1f")).append(" | ")
                    .append(hits(cells, p).format("%.2f")).append(" |\n");
        }
        md.append("\n```\n").append(String.join("\n", lines)).append("\n```\n");
        return md.toString();
    }
}
