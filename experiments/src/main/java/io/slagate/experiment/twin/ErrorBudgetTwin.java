package io.slagate.experiment.twin;

import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.experiment.paper.GapNoise;
import io.slagate.rm.BudgetSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Allocation that protects the contract closest to breach, in the twin: two customers, each alone in a class with the
 * same target and the same objective over the same period; at the start half the period is gone, one customer has spent
 * {@code spentA} of its error budget and the other {@code spentB}. Over the rest of the period (compressed, in
 * paper-seconds) every policy runs on the same seeds: the shipped controller, the controller weighing each class by its
 * budget ({@code controller.errorBudget}), and every static split of the server's slots; a contract is kept when its
 * attainment over the whole period (the first half's counts and the run's) reaches its objective.
 *
 * @param target   both classes' mean target (seconds), which also judges a request good
 * @param popA     customer A's closed clients (the one closest to breach), {@code popB} B's
 * @param seconds  the rest of the period, paper-seconds
 * @param elapsed  the share of the period gone at the start
 */
public record ErrorBudgetTwin(double target, double objective, int popA, int popB, double seconds, double elapsed, double spentA,
                              double spentB) {
    private static final int SLOTS = 10;
    /** The rest of the period by default, paper-seconds: four hundred control cycles. */
    public static final double REST_SECONDS = 2000;
    /**
     * The default set-up: a target of 4 s (a mean service time of 1 s alone misses it 1.8% of the time), 95% of requests
     * within it, 15 clients of each customer: near the load where a static split still keeps both contracts.
     */
    public static final double TARGET_SECONDS = 4;
    public static final double OBJECTIVE = 0.95;
    public static final int[] CLIENTS = {15, 15};
    static final String[] CLASSES = {"gold", "silver"};

    /** The configuration: one server of {@value #SLOTS} slots, both classes alike but for their names; the controller's as shipped. */
    public SlagateConfig config(boolean errorBudget) {
        String cls = "{ name: %s, target: %dms, objective: %s, utility: { type: pacifici, phi: 1, alpha: 1, beta: 1 },"
                + " queueBound: 100000, queueTimeout: 10m }";
        long ms = Math.round(target * 1000);
        return ConfigLoader.parse(String.format(Locale.ROOT, """
                gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0", serverTimeout: 10m, stats: { reportingInterval: 5s, window: 30s } }
                servers: [ { id: s1, url: "http://127.0.0.1:9", concurrency: %d } ]
                classes:
                  - %s
                  - %s
                classification: { subscriptions: { acme: { "*": gold } }, rules: [ { grade: gold, class: gold } ], defaultClass: silver }
                allocation: { weights: { gold: %d, silver: %d } }
                bus: { url: "vm://slagate-twin", listen: "" }
                controller: { cycle: 5s, resolution: 1, errorBudget: %s }
                """, SLOTS, String.format(Locale.ROOT, cls, "gold", ms, objective), String.format(Locale.ROOT, cls, "silver", ms, objective),
                SLOTS / 2, SLOTS - SLOTS / 2, errorBudget), "error-budget-twin");
    }

    Workload load() {
        return new Workload(List.of(new Workload.ClassLoad("gold", "acme", Demand.exponential(1), Demand.exponential(1)),
                new Workload.ClassLoad("silver", "globex", Demand.exponential(1), Demand.exponential(1))),
                List.of(Workload.Phase.closed("rest of the period", seconds, popA, popB)));
    }

    /** The requests of the period's first part: at the closed population's rate with every answer at the target. */
    long prior(int c) {
        int pop = c == 0 ? popA : popB;
        double rate = pop / (1 + target);
        return Math.round(rate * seconds * elapsed / (1 - elapsed));
    }

    long priorBad(int c) {
        return Math.round((c == 0 ? spentA : spentB) * (1 - objective) * prior(c));
    }

    /** Where each class stands at virtual time now: the first part's counts and the run's answers so far. */
    BudgetSource source(Completions done, VirtualTime time) {
        return className -> {
            int c = className.equals(CLASSES[0]) ? 0 : className.equals(CLASSES[1]) ? 1 : -1;
            if (c < 0) {
                return null;
            }
            long now = time.now();
            long[] counts = counts(done, c, now);
            double e = elapsed + (1 - elapsed) * Math.min(1, now / (seconds * 1e9));
            double spent = counts[0] == 0 ? 0 : (double) (counts[0] - counts[1]) / ((1 - objective) * counts[0]);
            return new BudgetSource.State(e, spent);
        };
    }

    /** {requests, good} over the period up to {@code toNanos}: the first part's and the run's (a fault is a bad request). */
    long[] counts(Completions done, int c, long toNanos) {
        Completions.Span s = done.span(c, 0, toNanos);
        long requests = prior(c) + s.answered() + s.faulted();
        long good = prior(c) - priorBad(c) + done.within(c, 0, toNanos, target);
        return new long[] {requests, good};
    }

    /** One policy's outcome on one seed: per class the period's attainment, and the run's utility (the sweep's score). */
    record Run(double[] attainment, double utility) {
        boolean kept(int c, double objective) {
            return attainment[c] >= objective;
        }
    }

    private Run run(TwinRun.Policy policy, boolean budgetAware, long seed) {
        Workload load = load();
        Scenario sc = new Scenario("error-budget", config(budgetAware), load, List.of(TwinRun.ServerSpec.of(PlantServer.Discipline.DELAY, 1)),
                List.of(), 1);
        TwinRun.Result r = TwinRun.run(sc.config(), load, sc.plant(), policy, seed, budgetAware ? this::source : null);
        double[] a = new double[2];
        for (int c = 0; c < 2; c++) {
            long[] k = counts(r.completions(), c, load.endNanos());
            a[c] = (double) k[1] / k[0];
        }
        return new Run(a, sc.score(r.completions()));
    }

    /** Per seed: the shipped controller, the budget-aware one, then each static split from 1:9 to 9:1. */
    public Outcome compare(int seeds, long firstSeed, int threads) throws InterruptedException, ExecutionException {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<List<Future<Run>>> futures = new ArrayList<>();
            for (int i = 0; i < seeds; i++) {
                long seed = firstSeed + i;
                List<Future<Run>> f = new ArrayList<>();
                f.add(pool.submit(() -> run(new TwinRun.Controlled(), false, seed)));
                f.add(pool.submit(() -> run(new TwinRun.Controlled(), true, seed)));
                for (int w = 1; w < SLOTS; w++) {
                    double[] split = {w, SLOTS - w};
                    f.add(pool.submit(() -> run(TwinRun.Held.of(split), false, seed)));
                }
                futures.add(f);
            }
            Run[][] runs = new Run[seeds][];
            for (int i = 0; i < seeds; i++) {
                runs[i] = new Run[futures.get(i).size()];
                for (int k = 0; k < runs[i].length; k++) {
                    runs[i][k] = futures.get(i).get(k).get();
                }
            }
            return new Outcome(this, runs);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Every seed's runs: index 0 the shipped controller, 1 the budget-aware one, 2.. the static splits 1:9 .. 9:1. */
    public record Outcome(ErrorBudgetTwin setup, Run[][] runs) {
        static final int SHIPPED = 0;
        static final int AWARE = 1;

        /** The static split with the best mean utility: what a sweep by the controller's own objective picks. */
        int bestStatic() {
            int best = 2;
            double bestMean = Double.NEGATIVE_INFINITY;
            for (int k = 2; k < runs[0].length; k++) {
                double m = 0;
                for (Run[] seed : runs) {
                    m += seed[k].utility() / runs.length;
                }
                if (m > bestMean) {
                    bestMean = m;
                    best = k;
                }
            }
            return best;
        }

        /** Per seed, 1 where policy k kept the contract(s) asked for (class c, or both with c = −1), else 0. */
        double[] kept(int k, int c) {
            double[] out = new double[runs.length];
            for (int i = 0; i < runs.length; i++) {
                Run r = runs[i][k];
                boolean ok = c < 0 ? r.kept(0, setup.objective) && r.kept(1, setup.objective) : r.kept(c, setup.objective);
                out[i] = ok ? 1 : 0;
            }
            return out;
        }

        double meanAttainment(int k, int c) {
            double m = 0;
            for (Run[] seed : runs) {
                m += seed[k].attainment()[c] / runs.length;
            }
            return m;
        }

        static double mean(double[] x) {
            double m = 0;
            for (double v : x) {
                m += v / x.length;
            }
            return m;
        }

        static String label(int k) {
            return k == SHIPPED ? "controller (shipped)" : k == AWARE ? "controller, errorBudget: true" : "static " + (k - 1) + ":" + (SLOTS - k + 1);
        }

        /** The table: per policy the contracts kept over seeds and the mean attainments; then the summary line. */
        public String report() {
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-32s %10s %10s %10s %12s %12s%n", "policy", "A kept", "B kept",
                    "both kept", "A attained", "B attained"));
            int best = bestStatic();
            for (int k = 0; k < runs[0].length; k++) {
                b.append(String.format(Locale.ROOT, "%-32s %10.2f %10.2f %10.2f %12.4f %12.4f%s%n", label(k), mean(kept(k, 0)), mean(kept(k, 1)),
                        mean(kept(k, -1)), meanAttainment(k, 0), meanAttainment(k, 1), k == best ? "  * the sweep's best by utility" : ""));
            }
            b.append(line()).append('\n');
            return b.toString();
        }

        /** The summary: both contracts kept under each policy, and the paired difference budget-aware − shipped. */
        public String line() {
            double[] aware = kept(AWARE, -1);
            double[] shipped = kept(SHIPPED, -1);
            double[] best = kept(bestStatic(), -1);
            double[] d = new double[aware.length];
            double[] e = new double[aware.length];
            for (int i = 0; i < d.length; i++) {
                d[i] = aware[i] - shipped[i];
                e[i] = aware[i] - best[i];
            }
            double[] vs = GapNoise.meanWithInterval(d);
            double[] vb = GapNoise.meanWithInterval(e);
            return String.format(Locale.ROOT, "twin error-budget seeds %d both-kept shipped %.2f budget-aware %.2f best-static %.2f"
                            + " aware-minus-shipped mean %.2f ci95 %.2f..%.2f aware-minus-best-static mean %.2f ci95 %.2f..%.2f", runs.length,
                    mean(shipped), mean(aware), mean(best), vs[0], vs[0] - vs[1], vs[0] + vs[1], vb[0], vb[0] - vb[1], vb[0] + vb[1]);
        }
    }
}
