package io.slagate.experiment;

import io.slagate.bus.message.SlaTally;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import io.slagate.sla.SlaStore;
import io.slagate.sla.SlaStores;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The twin's error-budget experiment on the real system, once per controller: two customers alone in two classes alike
 * (target 4 paper-seconds, 95% within it, a rolling hour), one server of N_s = 10 slots whose requests take an
 * exponential 1 paper-second, 15 closed clients per customer thinking an exponential paper-second. Before the run the
 * store holds the first half of the period: as many requests per customer as the run will send, customer A's with 80%
 * of its budget spent (4% bad), B's all good. Then the rest of the period (2,000 paper-seconds) runs under the shipped
 * controller, and again on a fresh store under {@code controller.errorBudget: true}; a contract is kept when its
 * attainment over the store's hour reaches 95%.
 */
public final class ErrorBudgetExperiment {
    static final double TARGET = 4;
    static final double OBJECTIVE = 0.95;
    /** Clients per customer by default: the twin's point where the controllers differ most. */
    public static final int CLIENTS = 15;
    static final double REST = 2000;
    static final double SPENT_A = 0.8;

    private final double scale;
    private final int clients;
    private final PrintStream progress;

    /** @param clients closed clients per customer */
    public ErrorBudgetExperiment(double scale, int clients, PrintStream progress) {
        this.scale = scale;
        this.clients = clients;
        this.progress = progress;
    }

    private long ms(double paperSeconds) {
        return Math.max(1, Math.round(paperSeconds * scale * 1000));
    }

    private SlagateConfig config(Path dir, int port, boolean errorBudget) throws Exception {
        String cls = "{ name: %s, target: %dms, objective: 95%%, period: 1h, utility: { type: pacifici, phi: 1, alpha: 1, beta: 1 },"
                + " queueBound: 100000, queueTimeout: 10m }";
        Path file = Files.writeString(dir.resolve("slagate.yaml"), String.format(Locale.ROOT, """
                gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0", serverTimeout: 10m,
                           stats: { reportingInterval: %dms, window: %dms } }
                servers: [ { id: s1, url: "http://127.0.0.1:%d", concurrency: 10 } ]
                classes:
                  - %s
                  - %s
                classification:
                  subscriptions: { acme: { "*": gold }, globex: { "*": silver } }
                  rules: [ { grade: gold, class: gold }, { grade: silver, class: silver } ]
                  defaultClass: silver
                allocation: { weights: { gold: 5, silver: 5 } }
                bus: { url: "vm://slagate-budget", listen: "" }
                controller: { cycle: %dms, resolution: 1, errorBudget: %s }
                sla: { store: "jdbc:sqlite:sla.db" }
                """, ms(5), ms(30), port, String.format(Locale.ROOT, cls, "gold", ms(TARGET)), String.format(Locale.ROOT, cls, "silver",
                ms(TARGET)), ms(5), errorBudget));
        return ConfigLoader.load(file);
    }

    /** The requests of the period's first half, per customer: the closed clients' rate with answers at the target. */
    private long prior() {
        double perSecond = clients / ((1 + TARGET) * scale);
        return Math.round(perSecond * REST * scale);
    }

    /** One run: the store filled with the first half, the rest under one controller; per customer {requests, good}. */
    private long[][] run(boolean errorBudget) throws Exception {
        Path dir = Files.createTempDirectory("slagate-budget");
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.paper(scale, 0))) {
            int port = Integer.parseInt(backend.urls().get(0).replaceAll(".*:", ""));
            SlagateConfig config = config(dir, port, errorBudget);
            long n = prior();
            long now = System.currentTimeMillis();
            try (SlaStore store = SlaStores.of(config).open()) {
                store.apply(Map.of("first-half", new SlaTally(1, List.of(
                        new SlaTally.Row("acme", "gold", n, n - Math.round(SPENT_A * (1 - OBJECTIVE) * n)),
                        new SlaTally.Row("globex", "silver", n, n)))), "first-half", now - 1_800_000, 0);
            }
            try (RunningSystem system = RunningSystem.start(config, true)) {
                LoadSpec spec = new LoadSpec(system.url(), "/services/StockUtility", null,
                        List.of(new LoadSpec.ClassSpec("gold", "getQuote", "acme", false, null),
                                new LoadSpec.ClassSpec("silver", "getQuote", "globex", false, null)),
                        List.of(new LoadSpec.Phase(Duration.ofMillis(ms(REST)), List.of((double) clients, (double) clients))),
                        false, Duration.ofMillis(ms(1)), Duration.ZERO, 7, Duration.ofMinutes(2), null);
                progress.printf(Locale.ROOT, "budget: %s controller, %d s ...%n", errorBudget ? "budget-aware" : "shipped", ms(REST) / 1000);
                new LoadGenerator(spec, null).run();
            }
            // the system stopped: its writer's last flush is in the store
            try (SlaStore store = SlaStores.of(config).open()) {
                long at = System.currentTimeMillis();
                long[][] out = new long[2][2];
                for (SlaStore.Totals t : store.totals(at - 3_600_000, at + 1, null, at)) {
                    int c = t.customer().equals("acme") ? 0 : t.customer().equals("globex") ? 1 : -1;
                    if (c >= 0) {
                        out[c][0] += t.requests();
                        out[c][1] += t.good();
                    }
                }
                return out;
            }
        }
    }

    /** Both runs, shipped first; a line per run and customer. */
    public List<String> runBoth() throws Exception {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "budget real: scale %s, %d clients per customer, rest of the period %.0f paper-s, "
                + "first half %d requests per customer (A 80%% of its budget spent)", scale, clients, REST, prior()));
        for (boolean aware : new boolean[] {false, true}) {
            long[][] k = run(aware);
            double a = (double) k[0][1] / k[0][0];
            double b = (double) k[1][1] / k[1][0];
            lines.add(String.format(Locale.ROOT, "budget real %s: A attained %.4f (%d of %d) %s, B attained %.4f (%d of %d) %s, both %s",
                    aware ? "budget-aware" : "shipped", a, k[0][1], k[0][0], a >= OBJECTIVE ? "kept" : "lost", b, k[1][1], k[1][0],
                    b >= OBJECTIVE ? "kept" : "lost", a >= OBJECTIVE && b >= OBJECTIVE ? "kept" : "not kept"));
        }
        return lines;
    }
}
