package io.slagate.load;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.Histogram;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Drives SOAP load through the gateway (section V): per class, closed-loop clients with
 * exponential think times, or open-loop Poisson arrivals; a phased schedule; every second one
 * sample per class (throughput, latency percentiles, errors, and the gateway's weights and queues).
 *
 * <p>No thread per client: a client is a callback chain — the async HTTP client's completion
 * schedules the think time on one timer thread, whose expiry sends the next request. Latencies go
 * into HdrHistograms. Open-loop latencies are measured from each request's intended start, so a
 * stalled system is not hidden by requests that were never sent (no coordinated omission); a
 * closed-loop client really waits for its answer, so its latency is measured from the send.
 */
public final class LoadGenerator {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LoadSpec spec;
    private final List<ClassState> classes = new ArrayList<>();
    private final Template[] templates;
    private final List<SecondSample> samples = new ArrayList<>();
    private final SplittableRandom seeds;
    private final PrintStream progress;
    private HttpClient http;
    private ScheduledThreadPoolExecutor timer;
    private volatile boolean running;
    private volatile int phase;
    private volatile JsonNode lastStats;
    private long startNanos;
    private long warmupEndNanos;
    /** When the interval the next sample closes began (the timer thread's). */
    private long intervalStartNanos;
    /** When the first measured interval began: the measured time runs from there (0 until then). */
    private volatile long measuredFromNanos;
    private volatile IntConsumer phaseListener = p -> { };

    public LoadGenerator(LoadSpec spec, PrintStream progress) {
        this.spec = spec;
        this.progress = progress;
        this.seeds = new SplittableRandom(spec.seed());
        templates = new Template[spec.classes().size()];
        for (int i = 0; i < spec.classes().size(); i++) {
            classes.add(new ClassState(i, spec.classes().get(i)));
            templates[i] = Template.of(spec, spec.classes().get(i));
        }
    }

    private final CountDownLatch finished = new CountDownLatch(1);

    /**
     * Calls {@code listener} with each phase's index (from 0) as the schedule enters it, on the generator's timer and
     * before the phase's clients change: what a schedule of settings tied to the phases (a static oracle) hooks on.
     */
    public void onPhase(IntConsumer listener) {
        this.phaseListener = listener;
    }

    /** Ends the schedule now (a running {@link #run} then waits for the requests still out and returns). */
    public void stop() {
        finished.countDown();
    }

    /** Runs the whole schedule, then waits for the requests still out; returns the summary (and writes results). */
    public Summary run() throws Exception {
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("load");
        threads.setDaemon(true);
        http = new HttpClient();
        http.setExecutor(threads);
        http.setMaxConnectionsPerDestination(4096);
        http.setFollowRedirects(false);
        http.setUserAgentField(null);
        http.start();
        timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "load-timer");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        try {
            running = true;
            startNanos = System.nanoTime();
            warmupEndNanos = startNanos + spec.warmup().toNanos();
            intervalStartNanos = startNanos;
            long at = 0;
            CountDownLatch finished = this.finished;
            for (int p = 0; p < spec.phases().size(); p++) {
                int index = p;
                timer.schedule(() -> enterPhase(index), at, TimeUnit.NANOSECONDS);
                at += spec.phases().get(p).duration().toNanos();
            }
            timer.schedule(finished::countDown, at, TimeUnit.NANOSECONDS);
            timer.scheduleAtFixedRate(this::sample, 1, 1, TimeUnit.SECONDS);
            if (spec.statsUrl() != null) {
                timer.scheduleAtFixedRate(this::fetchStats, 0, 1, TimeUnit.SECONDS);
            }
            finished.await();
            running = false;
            long deadline = System.nanoTime() + spec.timeout().toNanos() + TimeUnit.SECONDS.toNanos(1);
            while (inFlight() > 0 && System.nanoTime() - deadline < 0) {
                TimeUnit.MILLISECONDS.sleep(5); // bounded by the request timeout: every request ends by then
            }
            timer.submit(this::sample).get();
        } finally {
            timer.shutdownNow();
            http.stop();
        }
        long end = System.nanoTime();
        long from = measuredFromNanos != 0 ? measuredFromNanos : end;
        Summary s = Summary.of(spec, classes, (end - startNanos) / 1e9, (end - from) / 1e9);
        if (spec.out() != null) {
            ReportWriter.write(spec, samples, s);
        }
        return s;
    }

    private int inFlight() {
        int n = 0;
        for (ClassState c : classes) {
            n += c.inFlight.get();
        }
        return n;
    }

    private void enterPhase(int p) {
        phaseListener.accept(p);
        phase = p;
        LoadSpec.Phase ph = spec.phases().get(p);
        for (ClassState c : classes) {
            double load = ph.load().get(c.index);
            double before = c.load;
            c.load = load;
            if (spec.openLoop()) {
                if (before <= 0 && load > 0) {
                    nextArrival(c, System.nanoTime(), new Exponential(seeds.split(), 1e9 / load), p);
                }
            } else {
                // new clients start after a random think time, so that a phase change is not a burst
                int more = (int) Math.round(load) - c.clients.get();
                for (int i = 0; i < more; i++) {
                    c.clients.incrementAndGet();
                    Exponential think = new Exponential(seeds.split(), spec.thinkMean().toNanos());
                    timer.schedule(() -> send(c, think), think.nextNanos(), TimeUnit.NANOSECONDS);
                }
            }
        }
    }

    /** A closed-loop client's cycle: send, wait for the answer, think, send again — or retire if the phase has fewer clients. */
    private void send(ClassState c, Exponential think) {
        if (!running || retire(c)) {
            return;
        }
        long start = System.nanoTime();
        c.started();
        request(c).send(result -> {
            complete(c, result, System.nanoTime() - start);
            if (running && !retire(c)) {
                timer.schedule(() -> send(c, think), think.nextNanos(), TimeUnit.NANOSECONDS);
            }
        });
    }

    private static boolean retire(ClassState c) {
        while (true) {
            int n = c.clients.get();
            if (n <= Math.round(c.load)) {
                return false;
            }
            if (c.clients.compareAndSet(n, n - 1)) {
                return true;
            }
        }
    }

    /** Open loop: arrivals at intended times; each request's latency counts from its intended start. */
    private void nextArrival(ClassState c, long intended, Exponential gaps, int phaseOfStream) {
        if (!running || c.load <= 0) {
            return;
        }
        long startIntended = intended;
        c.started();
        request(c).send(result -> complete(c, result, System.nanoTime() - startIntended));
        long next = intended + (long) (gaps.nextNanos());
        if (phase != phaseOfStream) {
            // a new phase: the stream continues at the new rate
            double load = c.load;
            if (load <= 0) {
                return;
            }
            gaps = new Exponential(seeds.split(), 1e9 / load);
            phaseOfStream = phase;
        }
        Exponential g = gaps;
        int ps = phaseOfStream;
        timer.schedule(() -> nextArrival(c, next, g, ps), Math.max(0, next - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /** A class's request, the same every time: body and headers built once, not per request. */
    private record Template(String url, String contentType, byte[] body, HttpField soapAction, HttpField authorization) {
        static Template of(LoadSpec spec, LoadSpec.ClassSpec s) {
            String action = "urn:" + s.operation();
            String body = s.soap12() ? SoapEnvelopes.request12(s.operation(), "IBM") : SoapEnvelopes.request11(s.operation(), "IBM");
            String contentType = s.soap12() ? "application/soap+xml; charset=utf-8; action=\"" + action + "\"" : "text/xml; charset=utf-8";
            HttpField soapAction = s.soap12() ? null : new HttpField("SOAPAction", "\"" + action + "\"");
            HttpField auth = s.user() == null ? null : new HttpField(HttpHeader.AUTHORIZATION,
                    "Basic " + Base64.getEncoder().encodeToString((s.user() + ":x").getBytes(StandardCharsets.UTF_8)));
            return new Template(spec.target() + spec.servicePath(), contentType, body.getBytes(StandardCharsets.UTF_8), soapAction, auth);
        }
    }

    private Request request(ClassState c) {
        Template t = templates[c.index];
        Request r = http.newRequest(t.url()).method(HttpMethod.POST)
                .timeout(spec.timeout().toMillis(), TimeUnit.MILLISECONDS)
                .body(new BytesRequestContent(t.contentType(), t.body()));
        if (t.soapAction() != null || t.authorization() != null) {
            r.headers(h -> {
                if (t.soapAction() != null) {
                    h.put(t.soapAction());
                }
                if (t.authorization() != null) {
                    h.put(t.authorization());
                }
            });
        }
        return r;
    }

    private static void complete(ClassState c, Result result, long latencyNanos) {
        if (result.isFailed()) {
            c.failed(kind(result.getFailure()));
            return;
        }
        int status = result.getResponse().getStatus();
        if (status == 200) {
            c.succeeded(latencyNanos);
        } else {
            String fault = result.getResponse().getHeaders().get("X-Slagate-Fault");
            c.failed(fault != null ? fault : "http-" + status);
        }
    }

    static String kind(Throwable t) {
        for (Throwable x = t; x != null; x = x.getCause()) {
            if (x instanceof TimeoutException) {
                return "timeout";
            }
            if (x instanceof ConnectException) {
                return "connect";
            }
        }
        return t instanceof IOException ? "io" : "other";
    }

    private void fetchStats() {
        http.newRequest(spec.statsUrl()).timeout(900, TimeUnit.MILLISECONDS).send(new BufferingResponseListener() {
            @Override
            public void onComplete(Result result) {
                if (!result.isFailed() && result.getResponse().getStatus() == 200) {
                    try {
                        lastStats = JSON.readTree(getContentAsString());
                    } catch (IOException ignored) {
                        // a bad read: keep the last values
                    }
                }
            }
        });
    }

    /** Every second, on the timer thread: one sample per class, and the progress line. */
    private void sample() {
        long now = System.nanoTime();
        double second = Math.round((now - startNanos) / 1e8) / 10.0;
        // an interval is measured only if all of it is past the warm-up: the one that ends just after the warm-up
        // began a second before it (counting it put a second more of answers over the measured time)
        boolean warm = intervalStartNanos - warmupEndNanos < 0;
        if (!warm && measuredFromNanos == 0) {
            measuredFromNanos = intervalStartNanos;
        }
        intervalStartNanos = now;
        JsonNode stats = lastStats;
        StringBuilder line = new StringBuilder();
        for (ClassState c : classes) {
            Histogram h = c.recorder.getIntervalHistogram();
            long n = h.getTotalCount();
            if (!warm) {
                c.total.add(h);
            }
            long errors = c.intervalErrors.sumThenReset();
            double weight = Double.NaN;
            int queue = -1;
            if (stats != null) {
                JsonNode w = stats.path("allocation").path("weights").path(c.spec.name());
                weight = w.isNumber() ? w.asDouble() : Double.NaN;
                for (JsonNode f : stats.path("classes")) {
                    if (c.spec.name().equals(f.path("className").asText())) {
                        queue = f.path("queueLength").asInt(-1);
                    }
                }
            }
            SecondSample s = new SecondSample(second, phase + 1, warm, c.spec.name(), c.load,
                    spec.openLoop() ? 0 : c.clients.get(), n, n, n > 0 ? h.getMean() / 1000 : Double.NaN,
                    n > 0 ? h.getValueAtPercentile(50) / 1000.0 : Double.NaN,
                    n > 0 ? h.getValueAtPercentile(95) / 1000.0 : Double.NaN,
                    n > 0 ? h.getValueAtPercentile(99) / 1000.0 : Double.NaN,
                    n > 0 ? h.getMaxValue() / 1000.0 : Double.NaN, errors, c.inFlight.get(), weight, queue);
            samples.add(s);
            line.append(String.format(Locale.ROOT, " | %s %s %.0f/s %s", c.spec.name(),
                    spec.openLoop() ? String.format(Locale.ROOT, "λ=%.0f", c.load) : c.clients.get() + "c", (double) n,
                    n > 0 ? String.format(Locale.ROOT, "%.0fms", h.getMean() / 1000) : "-"))
                    .append(errors > 0 ? " err " + errors : "")
                    .append(Double.isNaN(weight) ? "" : String.format(Locale.ROOT, " w=%.1f", weight));
        }
        if (progress != null) {
            long total = spec.totalDuration().toSeconds();
            progress.printf(Locale.ROOT, "[%s / %s] phase %d/%d%s%s%n", clock((long) second), clock(total),
                    phase + 1, spec.phases().size(), warm ? " (warm-up)" : "", line);
        }
    }

    private static String clock(long seconds) {
        return String.format(Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }

    /**
     * A copy of the class's response times recorded after the warm-up, in microseconds; call it once
     * {@link #run} returned (the sampling timer adds to it until then). Null for a class the spec does not name.
     */
    public Histogram measured(String className) {
        for (ClassState c : classes) {
            if (c.spec.name().equals(className)) {
                return c.total.copy();
            }
        }
        return null;
    }

    /** Every sample of the run so far, in order (complete once {@link #run} returned). */
    public List<SecondSample> samples() {
        return List.copyOf(samples);
    }

    int maxInFlight(int classIndex) {
        return classes.get(classIndex).maxInFlight.get();
    }
}
