package io.slagate.gateway.stats;

import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.soap.FaultReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * Every measurement of a gateway: Micrometer meters (scraped as Prometheus from the admin address)
 * and the per-class sliding windows behind {@link FlowStats}. All meters are created up front, so
 * recording on the request path is a few atomic adds and no map lookups.
 *
 * <p>The counters balance: {@code arrived = completed + faulted + in flight}, where "faulted" counts
 * every request the gateway answered itself (any {@link FaultReason}). The totals live in
 * {@link Totals}, shared by the metrics of successive configurations of one gateway (classes and
 * servers changed at run time), so they balance across a change too; the per-class counters are
 * shared through the registry by name.
 */
public final class GatewayMetrics {
    /** A gateway's totals since start, whatever its configuration meanwhile. */
    public static final class Totals {
        final AtomicInteger inFlight = new AtomicInteger();
        final LongAdder arrived = new LongAdder();
        final LongAdder completed = new LongAdder();
        final LongAdder faulted = new LongAdder();

        /** Requests received. */
        public long arrived() {
            return arrived.sum();
        }

        /** Requests a server answered. */
        public long completed() {
            return completed.sum();
        }

        /** Requests the gateway answered itself (any {@link FaultReason}). */
        public long faulted() {
            return faulted.sum();
        }
    }

    private final String[] classNames;
    private final Counter[] arrivals;
    private final Counter[] completions;
    private final Counter[][] faults;
    private final Timer[] responseTime;
    private final Timer[] queueingTime;
    private final Timer[] serviceTime;
    private final SlidingWindow[] windows;
    private final ServerMeters servers;
    private final Totals totals;
    private final AtomicInteger inFlight;
    // this configuration's own arrivals and answers: striped adders, uncontended on the request path
    private final LongAdder ownArrived = new LongAdder();
    private final LongAdder ownAnswered = new LongAdder();
    private final List<Meter> gauges = new ArrayList<>();
    private final MeterRegistry registry;
    private final SlagateConfig config;
    private final QueueManager queues;
    private final double intervalSeconds;
    /** Reporting intervals of the configured window: what the windows hold; the window knob may span fewer. */
    private final int configuredIntervals;
    private volatile int windowIntervals;

    /** One server's connections from this gateway, for {@code slagate_upstream_connections_*}. */
    public interface UpstreamConnections {
        /** The pool's sharing: shared, customer or client-connection. */
        String reuseMode();

        long opened();

        /** Taken again from an idle list for another request. */
        long reused();

        long closedConnections();

        /** Closed while idle to stay within the bound. */
        long evicted();

        int open();
    }

    /** What a server did wrong, for {@code slagate_server_errors_total{kind}}. */
    /** CONNECT, TIMEOUT and BROKEN fail the request (and count toward ejection, but BROKEN); PROTOCOL: extra bytes after an answer. */
    public enum ServerError { CONNECT, TIMEOUT, BROKEN, PROTOCOL }

    /**
     * Counters and timers are registered at once (by name, so a later configuration's continue
     * them); the gauges, which read {@code queues}, only by {@link #registerGauges}, so that a
     * replacement can be built while the configuration in force still owns the gauge names.
     */
    /** Per class with a deadline, else null. */
    private final ServiceTimeQuantile[] serviceQuantile;
    private final Counter badDeadlineHeaders;
    /** Per class: the goal threshold a response must meet to count toward attainment. */
    private final long[] goalNanos;
    /** Per class with a percentile goal, else null: its response times over the window, and its goal percentile. */
    private final WindowedHistogram[] responseWindow;
    private final double[] goalPercentile;
    /** The measured response time at the goal percentile, per class, as of the last closed interval (NaN: none). */
    private volatile double[] measuredPercentileSeconds; // replaced whole by each rotation, read by any thread

    public GatewayMetrics(SlagateConfig config, MeterRegistry registry, QueueManager queues, Totals totals) {
        this.registry = registry;
        this.config = config;
        this.queues = queues;
        this.totals = totals;
        this.inFlight = totals.inFlight;
        String gw = config.gateway().id();
        List<TrafficClassConfig> classes = config.classes();
        int n = classes.size();
        classNames = new String[n];
        arrivals = new Counter[n];
        completions = new Counter[n];
        faults = new Counter[n][FaultReason.values().length];
        responseTime = new Timer[n];
        queueingTime = new Timer[n];
        serviceTime = new Timer[n];
        windows = new SlidingWindow[n];
        Duration interval = config.gateway().stats().reportingInterval();
        intervalSeconds = interval.toNanos() / 1e9;
        int intervals = (int) Math.max(1, Math.round(config.gateway().stats().window().toNanos() / (double) interval.toNanos()));
        configuredIntervals = intervals;
        windowIntervals = intervals;
        for (int c = 0; c < n; c++) {
            classMeters(c, classes.get(c).name(), gw, intervals);
        }
        serviceQuantile = new ServiceTimeQuantile[n];
        goalNanos = new long[n];
        responseWindow = new WindowedHistogram[n];
        goalPercentile = new double[n];
        measuredPercentileSeconds = new double[n];
        for (int c = 0; c < n; c++) {
            goals(c, classes.get(c), intervals);
        }
        badDeadlineHeaders = Counter.builder("slagate.requests.deadline.header.invalid").tag("gateway", gw)
                .description("X-Request-Deadline headers that did not parse (ignored)").register(registry);
        servers = new ServerMeters(config, registry, intervals, intervalSeconds);
    }

    private void classMeters(int c, String cls, String gw, int intervals) {
        classNames[c] = cls;
        arrivals[c] = Counter.builder("slagate.requests.arrived").tag("gateway", gw).tag("class", cls)
                .description("Requests received, per class").register(registry);
        completions[c] = Counter.builder("slagate.requests.completed").tag("gateway", gw).tag("class", cls)
                .description("Requests answered by a server, per class").register(registry);
        for (FaultReason r : FaultReason.values()) {
            faults[c][r.ordinal()] = Counter.builder("slagate.requests.faulted").tag("gateway", gw).tag("class", cls)
                    .tag("reason", r.code()).description("Requests the gateway answered with a SOAP fault").register(registry);
        }
        responseTime[c] = timer("slagate.response.time", "Arrival at the gateway to the last byte of the response", gw, cls, registry);
        queueingTime[c] = timer("slagate.queueing.time", "Time waiting in the class queue", gw, cls, registry);
        serviceTime[c] = timer("slagate.service.time", "Dispatch to the server until its response completed", gw, cls, registry);
        windows[c] = new SlidingWindow(intervals);
    }

    /** Class {@code c}'s goal threshold, its percentile window when its goal is a percentile, its deadline quantile. */
    private void goals(int c, TrafficClassConfig tc, int intervals) {
        // only for classes with a deadline: the others pay nothing for it
        serviceQuantile[c] = tc.deadline() == null ? null : new ServiceTimeQuantile(DEADLINE_LATE_WORK, intervals);
        goalNanos[c] = tc.hasGoal() ? (long) (tc.goalSeconds() * 1e9) : -1;
        measuredPercentileSeconds[c] = Double.NaN;
        if (tc.percentileGoal() != null) {
            // two significant digits: a percentile within 1%, about 30 KB per class
            responseWindow[c] = new WindowedHistogram(intervals, 2);
            goalPercentile[c] = tc.percentileGoal().percentile();
        }
    }

    /**
     * The statistics window from the next reporting interval on (the window knob, set by the manager): the last
     * {@code intervals} reporting intervals, at most the configured window's (what was allocated). Every class's and
     * server's window, the goal percentiles and the deadline quantiles follow it. Returns the span in force.
     */
    public int windowIntervals(int intervals) {
        int n = Math.max(1, Math.min(configuredIntervals, intervals));
        if (n == windowIntervals) {
            return n; // every allocation names the window: most change nothing
        }
        for (SlidingWindow w : windows) {
            w.span(n);
        }
        servers.span(n);
        for (int c = 0; c < windows.length; c++) {
            if (serviceQuantile[c] != null) {
                serviceQuantile[c].span(n);
            }
            if (responseWindow[c] != null) {
                responseWindow[c].span(n);
            }
        }
        windowIntervals = n;
        return n;
    }

    /** The reporting intervals the window spans now. */
    public int windowIntervals() {
        return windowIntervals;
    }

    /** The reporting intervals of the configured window: the most the window may span. */
    public int configuredWindowIntervals() {
        return configuredIntervals;
    }

    /** The reporting interval, seconds. */
    public double intervalSeconds() {
        return intervalSeconds;
    }

    private static Timer timer(String name, String description, String gw, String cls, MeterRegistry registry) {
        return Timer.builder(name).tag("gateway", gw).tag("class", cls).description(description)
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofMinutes(2))
                .register(registry);
    }

    public void arrived(int c) {
        inFlight.incrementAndGet();
        ownArrived.increment();
        totals.arrived.increment();
        arrivals[c].increment();
        windows[c].arrived();
    }

    public void completed(int c, long queueingNanos, long serviceNanos, long responseNanos) {
        completions[c].increment();
        queueingTime[c].record(queueingNanos, TimeUnit.NANOSECONDS);
        serviceTime[c].record(serviceNanos, TimeUnit.NANOSECONDS);
        responseTime[c].record(responseNanos, TimeUnit.NANOSECONDS);
        windows[c].completed(queueingNanos, serviceNanos, responseNanos, responseNanos <= goalNanos[c]);
        if (responseWindow[c] != null) {
            responseWindow[c].record(responseNanos);
        }
        if (serviceQuantile[c] != null) {
            serviceQuantile[c].record(serviceNanos);
        }
        totals.completed.increment();
        ownAnswered.increment();
        inFlight.decrementAndGet();
    }

    public void faulted(int c, FaultReason reason) {
        faults[c][reason.ordinal()].increment();
        if (reason.senderFault()) {
            windows[c].rejected();
        } else {
            windows[c].failed();
        }
        totals.faulted.increment();
        ownAnswered.increment();
        inFlight.decrementAndGet();
    }

    public int inFlight() {
        return inFlight.get();
    }

    /** Requests of this configuration accepted and not yet answered (the gateway's total is {@link #inFlight}). */
    public long ownInFlight() {
        // answered first: a request answered between the two reads cannot make it look drained
        long answered = ownAnswered.sum();
        return ownArrived.sum() - answered;
    }

    /** Registers the gauges over this configuration's queues and slots (see the constructor). */
    public void registerGauges() {
        String gw = config.gateway().id();
        for (int c = 0; c < classNames.length; c++) {
            String cls = classNames[c];
            int ci = c;
            gauges.add(Gauge.builder("slagate.queue.length", queues, q -> q.counts().waiting(ci)).tag("gateway", gw).tag("class", cls)
                    .description("Requests waiting in the class queue").register(registry));
            gauges.add(Gauge.builder("slagate.outstanding", queues, q -> q.counts().executing(ci)).tag("gateway", gw).tag("class", cls)
                    .description("Requests of the class executing on servers").register(registry));
            gauges.add(Gauge.builder("slagate.allocation.weight", queues, q -> q.caps().allocation().weight(ci)).tag("gateway", gw).tag("class", cls)
                    .description("w_{g,c} of the allocation in force").register(registry));
            gauges.add(Gauge.builder("slagate.class.attainment", windows[ci],
                            w -> w.summary(cls, intervalSeconds, 0, 0, Double.NaN, goalNanos[ci] >= 0).attainment())
                    .tag("gateway", gw).tag("class", cls)
                    .description("Share of the window's answered requests within the class's goal threshold").register(registry));
            if (responseWindow[ci] != null) {
                gauges.add(Gauge.builder("slagate.class.response.percentile", this, m -> m.measuredPercentileSeconds[ci])
                        .tag("gateway", gw).tag("class", cls).tag("percentile", config.classes().get(ci).percentileGoal().key())
                        .baseUnit("seconds").description("Measured response time at the class's goal percentile, over the window")
                        .register(registry));
            }
        }
        for (int s = 0; s < config.servers().size(); s++) {
            String id = config.servers().get(s).id();
            int si = s;
            gauges.add(Gauge.builder("slagate.server.outstanding", queues, q -> q.server(si).outstanding()).tag("gateway", gw).tag("server", id)
                    .description("Requests outstanding on the server from this gateway").register(registry));
            gauges.add(Gauge.builder("slagate.server.in.rotation", queues, q -> q.server(si).inRotation() ? 1 : 0).tag("gateway", gw).tag("server", id)
                    .description("1 while the server is offered requests, 0 while health checking keeps it out").register(registry));
            gauges.add(Gauge.builder("slagate.allocation.cap", queues, q -> q.caps().allocation().cap(si)).tag("gateway", gw).tag("server", id)
                    .description("N_{g,s} of the allocation in force").register(registry));
        }
        for (Map.Entry<Integer, UpstreamConnections> e : servers.upstream().entrySet()) {
            String id = config.servers().get(e.getKey()).id();
            UpstreamConnections u = e.getValue();
            Tags tags = Tags.of("gateway", gw, "server", id, "reuse", u.reuseMode());
            gauges.add(FunctionCounter.builder("slagate.upstream.connections.opened", u,
                    UpstreamConnections::opened).tags(tags).description("Connections opened to the server").register(registry));
            gauges.add(FunctionCounter.builder("slagate.upstream.connections.reused", u,
                    UpstreamConnections::reused).tags(tags).description("Requests sent on an idle connection taken again").register(registry));
            gauges.add(FunctionCounter.builder("slagate.upstream.connections.closed", u,
                    UpstreamConnections::closedConnections).tags(tags).description("Connections to the server closed").register(registry));
            gauges.add(FunctionCounter.builder("slagate.upstream.connections.evicted", u,
                    UpstreamConnections::evicted).tags(tags)
                    .description("Idle connections closed to open one for another group at maxUpstreamConnections").register(registry));
            gauges.add(Gauge.builder("slagate.upstream.connections.open", u, UpstreamConnections::open).tags(tags)
                    .description("Connections to the server open now").register(registry));
        }
        gauges.add(Gauge.builder("slagate.requests.in.flight", inFlight, AtomicInteger::get).tag("gateway", gw)
                .description("Requests accepted and not yet answered").register(registry));
        gauges.add(Gauge.builder("slagate.allocation.version", queues, q -> q.caps().allocation().version()).tag("gateway", gw)
                .description("Version of the allocation in force (0: the static one)").register(registry));
    }

    /** Removes this configuration's gauges from the registry, so that the next one can register its own. */
    public void retireGauges() {
        gauges.forEach(registry::remove);
        gauges.clear();
    }

    /** The gateway's totals since start, whatever its configuration meanwhile. */
    public Totals totals() {
        return totals;
    }

    /** Per server: its window, its failed exchanges, the connections held to it. */
    public ServerMeters servers() {
        return servers;
    }

    /** Requests of class {@code c} received so far (by this configuration's metrics). */
    public long arrivedCount(int c) {
        return (long) arrivals[c].count();
    }

    public long faulted(FaultReason reason) {
        long n = 0;
        for (Counter[] row : faults) {
            n += (long) row[reason.ordinal()].count();
        }
        return n;
    }

    public long completed(int c) {
        return (long) completions[c].count();
    }

    /** Closes the current reporting interval of every class (called every reporting interval). */
    public void rotate() {
        servers.rotate();
        double[] percentiles = measuredPercentileSeconds.clone();
        for (int c = 0; c < windows.length; c++) {
            windows[c].rotate();
            if (serviceQuantile[c] != null) {
                serviceQuantile[c].rotate();
            }
            if (responseWindow[c] != null) {
                org.HdrHistogram.Histogram h = responseWindow[c].rotate();
                percentiles[c] = h.getTotalCount() == 0 ? Double.NaN
                        : h.highestEquivalentValue(h.getValueAtPercentile(goalPercentile[c])) / 1e6;
            }
        }
        measuredPercentileSeconds = percentiles;
    }

    /**
     * The class's service time beyond which lies at most {@value #DEADLINE_LATE_WORK} of the servers' work
     * over the window (the largest seen, with fewer samples; 0 before any): the time a request admitted
     * now must still have before its deadline (deadline-aware admission, {@link ServiceTimeQuantile}).
     */
    public long predictedServiceNanos(int classIndex) {
        return serviceQuantile[classIndex] == null ? 0 : serviceQuantile[classIndex].nanos();
    }

    /** The share of the servers' work that may lie beyond the admission margin: late answers stay well under 1% of it. */
    static final double DEADLINE_LATE_WORK = 0.001;

    /** A client's X-Request-Deadline that did not parse (ignored; the class's deadline applies). */
    public void badDeadlineHeader() {
        badDeadlineHeaders.increment();
    }

    public List<FlowStats> flowStats(QueueManager queues) {
        List<FlowStats> out = new ArrayList<>(windows.length);
        double[] percentiles = measuredPercentileSeconds;
        for (int c = 0; c < windows.length; c++) {
            out.add(windows[c].summary(classNames[c], intervalSeconds, queues.counts().waiting(c), queues.counts().executing(c),
                    percentiles[c], goalNanos[c] >= 0));
        }
        return out;
    }
}
