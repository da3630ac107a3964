package io.slagate.gateway.trace;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Which requests are traced: a client's own sampling decision (a valid {@code traceparent}) is followed; a
 * request without one starts a trace, sampled when its trace id falls in the configured share (the decision
 * rides on the id, as OpenTelemetry's ratio sampler's does, so every hop that samples by ratio agrees).
 * An unsampled request costs a parse of its header and, without one, a random id: no span, no allocation.
 */
public final class Tracer {
    private final long threshold;
    private final boolean all;
    private final SpanExporter exporter;

    /** @param sampling the share of requests without a decision that are traced, in [0, 1] */
    public Tracer(double sampling, SpanExporter exporter) {
        this.all = sampling >= 1;
        this.threshold = (long) (sampling * 0x1p63);
        this.exporter = exporter;
    }

    /** The spans of a request that came with {@code traceparent} (null: none), or null when it is not traced. */
    public RequestSpan start(String traceparent) {
        TraceParent p = TraceParent.parse(traceparent);
        if (p != null) {
            return p.sampled() ? new RequestSpan(p.traceHi(), p.traceLo(), p.parentId()) : null;
        }
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long lo = RequestSpan.nonZero(r);
        return sampled(lo) ? new RequestSpan(r.nextLong(), lo, 0) : null;
    }

    /** Whether a trace whose id ends in {@code traceLo} is in the sampled share: its low 63 bits below the share of 2^63. */
    boolean sampled(long traceLo) {
        return all || (traceLo >>> 1) < threshold;
    }

    /** A traced request ended: its spans go out with the next export. */
    public void finished(FinishedRequest r) {
        exporter.add(r);
    }
}
