package io.slagate.experiment;

import io.slagate.config.ConfigLoader;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.Summary;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import io.slagate.load.service.StockUtility;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Server-pool reconfiguration against the best static split (part of {@code slagate experiment ahead}): two services
 * on four servers, the mix of their loads swapped half-way through (Active Harmony's scenario). The static side is
 * every split of the servers between the two pools, run on the same load, and the best of them by throughput is the
 * baseline: what an operator who knew the run's mean mix would configure. The reconfigured side starts from the even
 * split with one server of each pool movable, so it wins only by moving with the mix.
 */
final class PoolsExperiment {
    private static final double HEAVY = 240;
    private static final double LIGHT = 60;
    /** Servers, and how many of them the static splits give the quotes' pool: each pool keeps at least one. */
    private static final int SERVERS = 4;

    private final boolean quick;
    private final PrintStream log;

    PoolsExperiment(boolean quick, PrintStream log) {
        this.quick = quick;
        this.log = log;
    }

    /** One run: answered per second over the measured part, per class and in all, and the moves made. */
    record Run(String side, double quotes, double trades, double quotesP95, double tradesP95, long lost, long moves,
               List<String> moveLog) {
        double total() {
            return quotes + trades;
        }
    }

    record Result(String line, String report) {
    }

    /** The static split's name: how many servers serve quotes (pool a) and how many trades (pool b). */
    static String split(int quotesServers) {
        return "static " + quotesServers + "+" + (SERVERS - quotesServers);
    }

    /** The side with the highest mean throughput over its runs. */
    static String best(Map<String, List<Double>> totals) {
        String best = null;
        double top = Double.NEGATIVE_INFINITY;
        for (Map.Entry<String, List<Double>> e : totals.entrySet()) {
            double m = Spread.of(e.getValue()).mean();
            if (m > top) {
                top = m;
                best = e.getKey();
            }
        }
        return best;
    }

    Result run() throws Exception {
        int settle = quick ? 6 : 15;
        int half = quick ? 15 : 60;
        int rounds = quick ? 1 : 3;
        List<String> sides = new ArrayList<>();
        for (int q = 1; q < SERVERS; q++) {
            sides.add(split(q));
        }
        sides.add("reconfigured");
        Map<String, List<Double>> totals = new LinkedHashMap<>();
        List<Run> runs = new ArrayList<>();
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0, 0, 0, 0),
                ServiceTime.of(Duration.ofMillis(50), Experiments.SLEEPY_CPU))) {
            for (int r = 0; r < rounds; r++) {
                List<String> order = new ArrayList<>(sides);
                if (r % 2 == 1) {
                    Collections.reverse(order); // each round the other way round: a drift falls on both sides
                }
                for (String side : order) {
                    Run run = run(backend.urls(), side, settle, half, 11 + r);
                    runs.add(run);
                    totals.computeIfAbsent(side, k -> new ArrayList<>()).add(run.total());
                }
            }
        } finally {
            StockUtility.configure(ServiceTime.paper(0.02, Experiments.SLEEPY_CPU));
        }
        List<Double> reconfigured = totals.remove("reconfigured");
        String best = best(totals);
        String line = String.format(Locale.ROOT, "pools throughput best-static %s reconfigured %s (best static: %s)",
                Spread.of(totals.get(best)).format("%.0f"), Spread.of(reconfigured).format("%.0f"), best.substring("static ".length()));
        totals.put("reconfigured", reconfigured);
        return new Result(line, report(runs, totals, best, settle, half, rounds));
    }

    private Run run(List<String> urls, String side, int settle, int half, long seed) throws Exception {
        boolean moving = side.equals("reconfigured");
        int quotesServers = moving ? 2 : Integer.parseInt(side.substring("static ".length(), side.indexOf('+')));
        StringBuilder servers = new StringBuilder();
        for (int i = 0; i < SERVERS; i++) {
            String pool = i < quotesServers ? "a" : "b";
            // the reconfigured side: the second server of each pool may serve the other
            String pools = moving && (i == 1 || i == 2) ? ", pools: [" + pool + ", " + (pool.equals("a") ? "b" : "a") + "]" : "";
            servers.append(String.format(Locale.ROOT, "  - { id: s%d, url: \"%s\", concurrency: 5, pool: %s%s }%n", i + 1, urls.get(i),
                    pool, pools));
        }
        String yaml = String.format(Locale.ROOT, """
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  faultStatus: http
                  stats: { reportingInterval: 500ms, window: 5s }
                servers:
                %sclasses:
                  - { name: quotes, target: 150ms, pool: a, queueBound: 200, queueTimeout: 2s }
                  - { name: trades, target: 150ms, pool: b, queueBound: 200, queueTimeout: 2s }
                classification: { rules: [ { operation: "urn:buyShares", class: trades } ], defaultClass: quotes }
                bus: { url: "vm://slagate-pools", listen: "" }
                controller: { cycle: 1s, combining: min, resolution: 0.1,
                              reconfiguration: { every: 2s, high: 0.85, low: 0.5, dwell: 4s } }
                """, servers);
        try (RunningSystem sys = RunningSystem.start(ConfigLoader.parse(yaml, "pools"), true)) {
            LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", null,
                    List.of(new LoadSpec.ClassSpec("quotes", "getQuote", null, false, Duration.ofMillis(150)),
                            new LoadSpec.ClassSpec("trades", "buyShares", null, false, Duration.ofMillis(150))),
                    List.of(new LoadSpec.Phase(Duration.ofSeconds(settle + half), List.of(HEAVY, LIGHT)),
                            new LoadSpec.Phase(Duration.ofSeconds(half), List.of(LIGHT, HEAVY))),
                    true, Duration.ZERO, Duration.ofSeconds(settle), seed, Duration.ofSeconds(30), null);
            Summary s = new LoadGenerator(spec, null).run();
            Summary.ClassSummary q = s.classes().get("quotes");
            Summary.ClassSummary t = s.classes().get("trades");
            Run r = new Run(side, q.throughput(), t.throughput(), q.p95Ms(), t.p95Ms(), s.lost(), sys.poolMoves(), sys.poolMoveLog());
            log.printf(Locale.ROOT, "ahead: pools %s: quotes %.1f/s, trades %.1f/s, moves %d, servers at the end %s%n", side, r.quotes(),
                    r.trades(), r.moves(), sys.serverPools());
            return r;
        }
    }

    private static String report(List<Run> runs, Map<String, List<Double>> totals, String best, int settle, int half, int rounds) {
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, """

                ## Server-pool reconfiguration against the best static split

                Two services on four servers (N_s = 5, 50 ms per request: 100 requests/s a server): quotes (getQuote, pool a)
                and trades (buyShares, pool b), open loop. For %d s quotes arrive at %.0f/s and trades at %.0f/s, then for %d s
                the other way round (after %d s of settling at the first mix, not measured): the run's mean mix is even.
                Targets 150 ms; each class's queue holds 200 and waits at most 2 s. Static: every split of the four servers
                between the pools (1+3, 2+2, 3+1), each on the same load; the best by mean throughput is the baseline.
                Reconfigured: the 2+2 split, with `s2` allowed to serve `[a, b]` and `s3` `[b, a]`; the resource manager
                considers a move every 2 s (high 0.85, low 0.5, dwell 4 s). Throughput = requests answered per second over
                both halves. %d round(s), each in the order of the last reversed. Best static: %s.

                | run | side | quotes/s | trades/s | total/s | quotes p95 (ms) | trades p95 (ms) | lost | moves |
                |---:|---|---:|---:|---:|---:|---:|---:|---:|
                """, half, HEAVY, LIGHT, half, settle, rounds, best));
        for (int i = 0; i < runs.size(); i++) {
            Run r = runs.get(i);
            md.append(String.format(Locale.ROOT, "| %d | %s | %.1f | %.1f | %.1f | %.0f | %.0f | %d | %d |%n", i + 1, r.side(), r.quotes(),
                    r.trades(), r.total(), r.quotesP95(), r.tradesP95(), r.lost(), r.moves()));
        }
        md.append("\n| side | total/s, mean [min..max] |\n|---|---:|\n");
        totals.forEach((side, v) -> md.append("| ").append(side).append(" | ").append(Spread.of(v).format("%.1f")).append(" |\n"));
        md.append("\nMoves of the reconfigured runs:\n\n");
        for (Run r : runs) {
            if (r.side().equals("reconfigured")) {
                md.append("- ").append(r.moveLog().isEmpty() ? "none" : String.join("; ", r.moveLog())).append('\n');
            }
        }
        return md.toString();
    }
}
