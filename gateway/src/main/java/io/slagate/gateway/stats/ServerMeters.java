package io.slagate.gateway.stats;

import io.slagate.config.SlagateConfig;
import io.slagate.gateway.stats.GatewayMetrics.ServerError;
import io.slagate.gateway.stats.GatewayMetrics.UpstreamConnections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What a gateway measures of each server: its completions and service times over the statistics window (the
 * manager's view of its knee), its answers per local-limit tick, the exchanges it failed, and the connections the
 * gateway holds to it.
 */
public final class ServerMeters {
    /** Per server: completions and service times over the window. */
    private final SlidingWindow[] windows;
    /** Per server: answers and their service time since the last local-limit tick (read and reset by the tick). */
    private final LongAdder[] tickAnswers;
    private final LongAdder[] tickNanos;
    private final Counter[][] errors;
    private final Map<Integer, UpstreamConnections> upstream = new ConcurrentHashMap<>();
    private final double intervalSeconds;

    ServerMeters(SlagateConfig config, MeterRegistry registry, int intervals, double intervalSeconds) {
        this.intervalSeconds = intervalSeconds;
        int n = config.servers().size();
        windows = new SlidingWindow[n];
        tickAnswers = new LongAdder[n];
        tickNanos = new LongAdder[n];
        errors = new Counter[n][ServerError.values().length];
        String gw = config.gateway().id();
        for (int s = 0; s < n; s++) {
            windows[s] = new SlidingWindow(intervals);
            if (config.gateway().localLimit()) {
                tickAnswers[s] = new LongAdder();
                tickNanos[s] = new LongAdder();
            }
            for (ServerError e : ServerError.values()) {
                errors[s][e.ordinal()] = Counter.builder("slagate.server.errors").tag("gateway", gw)
                        .tag("server", config.servers().get(s).id()).tag("kind", e.name().toLowerCase())
                        .description("Failed exchanges with the server").register(registry);
            }
        }
    }

    /** Server {@code s}'s connection counters, registered with the gauges. */
    public void upstreamConnections(int s, UpstreamConnections c) {
        upstream.put(s, c);
    }

    Map<Integer, UpstreamConnections> upstream() {
        return upstream;
    }

    /** A request the server answered completely, after {@code serviceNanos} from dispatch. */
    public void completed(int s, long serviceNanos) {
        windows[s].served(serviceNanos);
        if (tickAnswers[s] != null) {
            tickAnswers[s].increment();
            tickNanos[s].add(serviceNanos);
        }
    }

    /** The server's answers since the last call and their mean service time (s; NaN without any); resets. Local limit only. */
    public double[] tick(int s) {
        if (tickAnswers[s] == null) {
            return new double[] {0, Double.NaN};
        }
        long n = tickAnswers[s].sumThenReset();
        long nanos = tickNanos[s].sumThenReset();
        return new double[] {n, n > 0 ? nanos / 1e9 / n : Double.NaN};
    }

    /** The server's throughput (answers/s) and mean service time (s) over the window; NaN service time without answers. */
    public double[] window(int s) {
        FlowStats f = windows[s].summary("", intervalSeconds, 0, 0, Double.NaN, false);
        return new double[] {f.throughput(), f.throughput() > 0 ? f.meanServiceSeconds() : Double.NaN};
    }

    public void error(int s, ServerError kind) {
        errors[s][kind.ordinal()].increment();
    }

    /** Failed exchanges of one kind charged to a server so far. */
    public long errors(int s, ServerError kind) {
        return (long) errors[s][kind.ordinal()].count();
    }

    void span(int intervals) {
        for (SlidingWindow w : windows) {
            w.span(intervals);
        }
    }

    void rotate() {
        for (SlidingWindow w : windows) {
            w.rotate();
        }
    }
}
