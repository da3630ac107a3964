package io.slagate.experiment;

import io.slagate.config.ConfigLoader;
import io.slagate.gateway.Gateway;
import io.slagate.load.SoapEnvelopes;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import io.slagate.load.service.StockUtility;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpMethod;

/**
 * Deadline-aware admission against the best static queue timeout an operator finds by trying
 * ({@code slagate experiment sla}, its late-work part). One class on one server of N_s = 10, exponential
 * service of mean S; each request carries one of three deadlines ({@code X-Request-Deadline}), drawn at
 * random; arrivals come in bursts (1.5× the capacity for 2 s, 0.3× for 2 s: 0.9× on average), and at
 * half-time the service becomes 1.5× slower, so the same arrivals are 1.35× what the server holds.
 * A static queue timeout has to choose between the short deadlines (wait little, or answer late) and the
 * long ones (wait through a burst, served in the lull); deadline-aware admission holds each request as long
 * as its own deadline allows and serves the most urgent first. The baseline's timeout is the best on goodput of a sweep in the same run;
 * then both sides run again in ABBA order, and those runs give the line.
 */
final class LateWork {
    static final double SCALE = 0.1;
    /** The deadlines in mean service times (before the shift): 1.2, 2.4 and 4.8 s at S = 100 ms. */
    static final int[] DEADLINE_SERVICE_TIMES = {12, 24, 48};
    static final double SHIFT = 1.5;
    static final int N_S = 10;
    static final double BURST = 1.5;
    static final double LULL = 0.3;
    static final Duration BURST_LENGTH = Duration.ofSeconds(2);
    /** The static queue timeouts tried (ms). */
    static final long[] SWEEP_MS = {200, 400, 600, 800, 1000, 1500, 2500};

    /** One run's counts; {@code lateWork} the share of the servers' time on answers after their deadline. */
    record Run(long sent, long answered, long late, long refused, long otherFaults, long lost, double lateWork, double goodput) {
    }

    /** What one answered request cost the servers, and whether it came after its own deadline. */
    private record Answer(long responseNanos, long queueMillis, boolean late) {
    }

    private final boolean quick;
    private final PrintStream log;

    LateWork(boolean quick, PrintStream log) {
        this.quick = quick;
        this.log = log;
    }

    /** Runs the sweep and the ABBA comparison, appends its section to {@code md}, returns the line. */
    String run(StringBuilder md) throws Exception {
        Duration half = Duration.ofSeconds(quick ? 8 : 24);
        ServiceTime normal = ServiceTime.paper(SCALE, Experiments.SLEEPY_CPU);
        List<Run> sweep = new ArrayList<>();
        List<Run> aware = new ArrayList<>();
        List<Run> fixed = new ArrayList<>();
        int best;
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), normal)) {
            String url = backend.urls().get(0);
            for (long t : SWEEP_MS) {
                sweep.add(once(url, normal, t, half));
            }
            best = bestOnGoodput(sweep);
            for (int i = 0; i < 2 * (quick ? 2 : 3); i++) {
                boolean a = Spread.aAt(i);
                (a ? aware : fixed).add(once(url, normal, a ? 0 : SWEEP_MS[best], half));
            }
        } finally {
            StockUtility.configure(normal);
        }
        long t = SWEEP_MS[best];
        describe(md, half, sweep, best, aware, fixed);
        return String.format(Locale.ROOT, "late-work goodput aware %s best-static %s (queueTimeout %d ms) late aware %s best-static %s",
                Spread.of(aware.stream().map(Run::goodput).toList()).format("%.1f"),
                Spread.of(fixed.stream().map(Run::goodput).toList()).format("%.1f"), t,
                Spread.of(aware.stream().map(Run::lateWork).toList()).format("%.4f"),
                Spread.of(fixed.stream().map(Run::lateWork).toList()).format("%.4f"));
    }

    /** The sweep's run with the most goodput (the shorter timeout on a tie). */
    static int bestOnGoodput(List<Run> sweep) {
        int best = 0;
        for (int i = 1; i < sweep.size(); i++) {
            if (sweep.get(i).goodput() > sweep.get(best).goodput()) {
                best = i;
            }
        }
        return best;
    }

    private void describe(StringBuilder md, Duration half, List<Run> sweep, int best, List<Run> aware, List<Run> fixed) {
        double capacity = N_S / SCALE;
        md.append("## Late work: deadline-aware admission against the best static queue timeout\n\n").append(String.format(Locale.ROOT,
                "One class, N_s = %d, exponential service of mean %.0f ms (capacity %.0f requests/s); each request's "
                + "`X-Request-Deadline` one of %s ms at random. Poisson arrivals in bursts: %.1f× the capacity for %d s, then %.1f× "
                + "for %d s, for %d s; at half-time (%d s) the service becomes %.1f× slower, so the same arrivals are %.2f× what the "
                + "server holds. Statistics every 500 ms over 3 s (the shipped 5 s / 30 s, scaled with the service). Late work = the "
                + "servers' time (response time less X-Slagate-Queue-Millis) on answers after their own deadline, as a share of the "
                + "servers' time on all answers; goodput = answers within their deadline per second of arrivals. Aware: the class "
                + "has a deadline (`deadline: 1h`, so each client's header rules) and no queue timeout to speak of; static: no "
                + "deadline, `queueTimeout: T`.%n%n", N_S, SCALE * 1000, capacity, deadlinesMs(), BURST, BURST_LENGTH.toSeconds(),
                LULL, BURST_LENGTH.toSeconds(), 2 * half.toSeconds(), half.toSeconds(), SHIFT, 0.9 * SHIFT));
        md.append("The sweep of T (each once, in this order; the best on goodput is the baseline):\n\n");
        header(md);
        for (int i = 0; i < sweep.size(); i++) {
            row(md, "queueTimeout " + SWEEP_MS[i] + " ms" + (i == best ? " (best)" : ""), sweep.get(i));
        }
        md.append("\nThen both sides in ABBA order (aware first), the line's figures:\n\n");
        header(md);
        int a = 0;
        int f = 0;
        for (int i = 0; i < aware.size() + fixed.size(); i++) {
            if (Spread.aAt(i)) {
                row(md, (i + 1) + ": deadline-aware", aware.get(a++));
            } else {
                row(md, (i + 1) + ": queueTimeout " + SWEEP_MS[best] + " ms", fixed.get(f++));
            }
        }
        md.append('\n');
    }

    static String deadlinesMs() {
        StringBuilder s = new StringBuilder();
        for (int k : DEADLINE_SERVICE_TIMES) {
            s.append(s.length() == 0 ? "" : ", ").append(Math.round(k * SCALE * 1000));
        }
        return s.toString();
    }

    private static void header(StringBuilder md) {
        md.append("| run | sent | answered | answered late | refused | other faults | lost | late work | goodput/s |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    }

    private static void row(StringBuilder md, String name, Run r) {
        md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %d | %.2f%% | %.1f |%n", name, r.sent(), r.answered(),
                r.late(), r.refused(), r.otherFaults(), r.lost(), 100 * r.lateWork(), r.goodput()));
    }

    /** One run: deadline-aware admission when {@code timeoutMillis} is 0, else that static queue timeout. */
    private Run once(String backendUrl, ServiceTime normal, long timeoutMillis, Duration half) throws Exception {
        StockUtility.configure(normal);
        Gateway g = new Gateway(ConfigLoader.parse(String.format(Locale.ROOT, """
                gateway: { id: gw1, listen: "127.0.0.1:0", admin: "127.0.0.1:0", serverTimeout: 10m,
                           stats: { reportingInterval: 500ms, window: 3s } }
                servers: [ { id: s1, url: "%s", concurrency: %d } ]
                classes: [ { name: basic, target: %dms, queueBound: 1000000, %s } ]
                """, backendUrl, N_S, Math.round(2 * SCALE * 1000),
                timeoutMillis == 0 ? "queueTimeout: 10m, deadline: 1h" : "queueTimeout: " + timeoutMillis + "ms"), "sla-late")).start();
        HttpClient http = new HttpClient();
        http.setMaxConnectionsPerDestination(20_000);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sla-arrivals");
            t.setDaemon(true);
            return t;
        });
        Outcomes o = new Outcomes();
        try {
            http.start();
            String target = "http://127.0.0.1:" + g.port() + "/services/StockUtility";
            byte[] body = SoapEnvelopes.request11("getQuote", "IBM").getBytes(StandardCharsets.UTF_8);
            double capacity = N_S / SCALE;
            // a warm-up at half the capacity, so that the service-time estimate exists before the bursts; not counted
            arrivals(http, timer, target, body, new double[] {0.5 * capacity}, Duration.ofSeconds(3), 3, null).await(5, TimeUnit.MINUTES);
            ServiceTime slow = ServiceTime.of(Duration.ofNanos(Math.round(normal.defaultMean().toNanos() * SHIFT)), normal.cpu());
            timer.schedule(() -> StockUtility.configure(slow), half.toMillis(), TimeUnit.MILLISECONDS);
            CountDownLatch all = arrivals(http, timer, target, body, new double[] {BURST * capacity, LULL * capacity}, half.multipliedBy(2),
                    7, o);
            if (!all.await(20, TimeUnit.MINUTES)) {
                throw new IllegalStateException("requests still out after 20 minutes");
            }
        } finally {
            timer.shutdownNow();
            http.stop();
            g.stop(Duration.ofSeconds(5));
        }
        Run r = o.run(half.multipliedBy(2));
        log.printf(Locale.ROOT, "sla: late work, %s: %s%n", timeoutMillis == 0 ? "deadline-aware" : "queueTimeout " + timeoutMillis + " ms", r);
        return r;
    }

    /** Every measured request's outcome. */
    private static final class Outcomes {
        final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
        final AtomicLong sent = new AtomicLong();
        final AtomicLong refused = new AtomicLong();
        final AtomicLong otherFaults = new AtomicLong();
        final AtomicLong lost = new AtomicLong();

        Run run(Duration arrivals) {
            long busy = 0;
            long lateBusy = 0;
            long late = 0;
            for (Answer a : answers) {
                long service = Math.max(0, a.responseNanos() - TimeUnit.MILLISECONDS.toNanos(a.queueMillis()));
                busy += service;
                if (a.late()) {
                    lateBusy += service;
                    late++;
                }
            }
            return new Run(sent.get(), answers.size(), late, refused.get(), otherFaults.get(), lost.get(),
                    busy == 0 ? 0 : (double) lateBusy / busy, (answers.size() - late) / (arrivals.toNanos() / 1e9));
        }
    }

    /**
     * Poisson arrivals for {@code length}, at {@code rates[k]} per second in the k-th stretch of {@link #BURST_LENGTH}
     * (cycling), each with one of the deadlines drawn at random; outcomes counted in {@code o} (null: a warm-up).
     * Returns a latch that opens when every request has ended.
     */
    private static CountDownLatch arrivals(HttpClient http, ScheduledExecutorService timer, String target, byte[] body, double[] rates,
                                           Duration length, long seed, Outcomes o) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<long[]> plan = new ArrayList<>(); // {offset nanos, deadline ms}
        long stretch = BURST_LENGTH.toNanos();
        for (long from = 0; from < length.toNanos(); from += stretch) {
            double rate = rates[(int) (from / stretch % rates.length)];
            long to = Math.min(length.toNanos(), from + stretch);
            for (long t = from + (long) (-Math.log(1 - rnd.nextDouble()) / rate * 1e9); t < to;
                 t += (long) (-Math.log(1 - rnd.nextDouble()) / rate * 1e9)) {
                plan.add(new long[] {t, Math.round(DEADLINE_SERVICE_TIMES[rnd.nextInt(DEADLINE_SERVICE_TIMES.length)] * SCALE * 1000)});
            }
        }
        CountDownLatch all = new CountDownLatch(plan.size());
        long start = System.nanoTime();
        for (long[] p : plan) {
            timer.schedule(() -> send(http, target, body, p[1], o, all), Math.max(0, start + p[0] - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        return all;
    }

    private static void send(HttpClient http, String target, byte[] body, long deadlineMillis, Outcomes o, CountDownLatch all) {
        long begun = System.nanoTime();
        if (o != null) {
            o.sent.incrementAndGet();
        }
        http.newRequest(target).method(HttpMethod.POST).timeout(15, TimeUnit.MINUTES)
                .headers(h -> h.put("SOAPAction", "\"urn:getQuote\"").put("X-Request-Deadline", Long.toString(deadlineMillis)))
                .body(new BytesRequestContent("text/xml; charset=utf-8", body))
                .send(result -> {
                    long response = System.nanoTime() - begun;
                    if (o != null) {
                        if (result.isFailed()) {
                            o.lost.incrementAndGet();
                        } else if (result.getResponse().getStatus() == 200) {
                            String q = result.getResponse().getHeaders().get("X-Slagate-Queue-Millis");
                            o.answers.add(new Answer(response, q == null ? 0 : Long.parseLong(q),
                                    response > TimeUnit.MILLISECONDS.toNanos(deadlineMillis)));
                        } else if (isRefusal(result.getResponse().getHeaders().get("X-Slagate-Fault"))) {
                            o.refused.incrementAndGet();
                        } else {
                            o.otherFaults.incrementAndGet();
                        }
                    }
                    all.countDown();
                });
    }

    /** The gateway's refusals of a request it would not send: its deadline could not be met, or it waited its queue timeout. */
    static boolean isRefusal(String fault) {
        return "deadline-exceeded".equals(fault) || "queue-timeout".equals(fault);
    }
}
