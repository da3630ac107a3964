package io.slagate.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What to run: the classes of clients, the schedule, and where the results go.
 *
 * @param target      the gateway's (or a server's) base URL, e.g. http://127.0.0.1:8080
 * @param servicePath the SOAP endpoint's path, e.g. /services/StockUtility
 * @param statsUrl    the gateway's admin {@code /stats} URL, read every second for weights and queues; null for none
 * @param classes     the client classes, in the order of the phases' numbers
 * @param phases      the schedule: per phase a duration and, per class, clients (closed loop) or requests/s (open loop)
 * @param openLoop    Poisson arrivals instead of closed-loop clients
 * @param thinkMean   mean exponential think time of a closed-loop client
 * @param warmup      the first part of the run not counted in the summary
 * @param seed        seed of every random stream (think times, arrivals, start offsets)
 * @param timeout     a request's whole timeout
 * @param out         directory for results (CSV, JSON, charts); null to write nothing
 */
public record LoadSpec(String target, String servicePath, String statsUrl, List<ClassSpec> classes, List<Phase> phases,
                       boolean openLoop, Duration thinkMean, Duration warmup, long seed, Duration timeout, Path out) {
    public LoadSpec {
        classes = List.copyOf(classes);
        phases = List.copyOf(phases);
        if (classes.isEmpty()) {
            throw new IllegalArgumentException("at least one client class is needed");
        }
        if (phases.isEmpty()) {
            throw new IllegalArgumentException("at least one phase is needed");
        }
        for (Phase p : phases) {
            if (p.load().size() != classes.size()) {
                throw new IllegalArgumentException("phase " + p + " gives " + p.load().size() + " numbers for "
                        + classes.size() + " classes");
            }
        }
    }

    /**
     * One class of clients: the HTTP metadata that drives classification at the gateway.
     *
     * @param name      the class's name in results (usually the traffic class it should map to)
     * @param operation the SOAP operation, sent as SOAPAction {@code urn:OPERATION}
     * @param user      HTTP Basic user name (the customer), or null
     * @param soap12    SOAP 1.2 (action in the Content-Type) instead of 1.1
     * @param target    the class's response-time target, drawn on the charts; null if unknown
     */
    public record ClassSpec(String name, String operation, String user, boolean soap12, Duration target) {
    }

    /** A phase: its length and per class the clients (closed loop) or the arrival rate in requests/s (open loop). */
    public record Phase(Duration duration, List<Double> load) {
        public Phase {
            load = List.copyOf(load);
        }
    }

    public Duration totalDuration() {
        Duration d = Duration.ZERO;
        for (Phase p : phases) {
            d = d.plus(p.duration());
        }
        return d;
    }
}
