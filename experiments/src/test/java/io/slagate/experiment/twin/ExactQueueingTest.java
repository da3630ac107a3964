package io.slagate.experiment.twin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The twin against queueing theory where it is exact: a twin that disagrees with it is wrong. Each figure is the
 * mean response time over at least 10⁵ completions of one seed (the run is deterministic), within 2%.
 */
class ExactQueueingTest {
    private static final double TOLERANCE = 0.02;

    static SlagateConfig oneClass(int cap) {
        return ConfigLoader.parse("""
                gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0", stats: { reportingInterval: 5s, window: 30s } }
                servers: [ { id: s1, url: "http://127.0.0.1:9", concurrency: %d } ]
                classes: [ { name: gold, target: 2s, queueBound: 100000, queueTimeout: 1h } ]
                bus: { url: "vm://twin-test", listen: "" }
                """.formatted(cap), "twin-test");
    }

    private static Completions.Span run(SlagateConfig config, Workload.Phase phase, TwinRun.ServerSpec server, double work,
                                        long minAnswers) {
        Workload load = new Workload(List.of(new Workload.ClassLoad("gold", null, Demand.exponential(THINK), Demand.exponential(work))),
                List.of(phase));
        TwinRun.Result r = TwinRun.run(config, load, List.of(server), TwinRun.Held.of(1), 1);
        Completions.Span s = r.completions().span(0, load.startNanos(0) + VirtualTime.nanos(WARM_UP), load.endNanos());
        assertTrue(s.answered() >= minAnswers, "answers: " + s.answered());
        return s;
    }

    private static final double THINK = 1;
    /** Seconds left out at the start: the queue starts empty, not in its steady state. */
    private static final double WARM_UP = 1000;

    @Test
    void mm1_openPoissonArrivalsAtAGatewayCapOfOne() {
        double lambda = 0.5, s = 1;
        Completions.Span span = run(oneClass(1), new Workload.Phase("open", 220_000, new int[] {0}, new double[] {lambda}),
                TwinRun.ServerSpec.of(PlantServer.Discipline.DELAY, 1), s, 100_000);
        double exact = s / (1 - lambda * s);
        assertEquals(exact, span.meanSeconds(), TOLERANCE * exact, "M/M/1 with ρ = 0.5: R = S/(1 − ρ)");
    }

    @Test
    void mmm_openPoissonArrivalsAtAGatewayCapOfThree() {
        int m = 3;
        double lambda = 2, s = 1;
        Completions.Span span = run(oneClass(m), new Workload.Phase("open", 60_000, new int[] {0}, new double[] {lambda}),
                TwinRun.ServerSpec.of(PlantServer.Discipline.DELAY, 1), s, 100_000);
        double exact = s + erlangC(m, lambda * s) / (m / s - lambda);
        assertEquals(exact, span.meanSeconds(), TOLERANCE * exact, "M/M/3 with ρ = 2/3: R = S + C(m, a)/(mμ − λ)");
    }

    @Test
    void closedProcessorSharing_meetsMeanValueAnalysis() {
        int clients = 5;
        double s = 0.25;
        Completions.Span span = run(oneClass(10), Workload.Phase.closed("closed", 34_000, clients),
                TwinRun.ServerSpec.of(PlantServer.Discipline.PS, 1), s, 100_000);
        double exact = mvaResponse(clients, s, THINK);
        assertEquals(exact, span.meanSeconds(), TOLERANCE * exact, "closed M/M/1-PS, 5 clients, Z = 1 s, S = 0.25 s");
    }

    @Test
    void fcfsServerOfTwoWorkers_isAnMM2Queue() {
        double lambda = 1.2, s = 1;
        Completions.Span span = run(oneClass(50), new Workload.Phase("open", 100_000, new int[] {0}, new double[] {lambda}),
                TwinRun.ServerSpec.of(PlantServer.Discipline.FCFS, 2), s, 100_000);
        double exact = s + erlangC(2, lambda * s) / (2 / s - lambda);
        assertEquals(exact, span.meanSeconds(), TOLERANCE * exact, "M/M/2 FCFS at the server, the gateway's cap above it");
    }

    /** Erlang's C: the probability an arrival waits at m servers offered a erlangs. */
    static double erlangC(int m, double a) {
        double sum = 0, term = 1;
        for (int k = 0; k < m; k++) {
            sum += term;
            term *= a / (k + 1);
        }
        double top = term * m / (m - a);
        return top / (sum + top);
    }

    /** Exact mean value analysis of one queueing station and a delay (think) station. */
    static double mvaResponse(int clients, double s, double z) {
        double q = 0, r = 0;
        for (int n = 1; n <= clients; n++) {
            r = s * (1 + q);
            double x = n / (r + z);
            q = x * r;
        }
        return r;
    }
}
