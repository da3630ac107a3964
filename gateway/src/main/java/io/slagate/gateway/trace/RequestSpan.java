package io.slagate.gateway.trace;

import java.util.concurrent.ThreadLocalRandom;

/**
 * A traced request's identities: its trace, the client's span it continues (0: it started the trace), its
 * own span at the gateway, and the span of its call to a server, which the server sees as its parent.
 * Only sampled requests get one; the timings are read from the exchange when it ends.
 */
public final class RequestSpan {
    final long traceHi;
    final long traceLo;
    final long parentId;
    final long spanId;
    final long queueSpanId;
    final long upstreamSpanId;
    private final String upstreamTraceparent;

    RequestSpan(long traceHi, long traceLo, long parentId) {
        this.traceHi = traceHi;
        this.traceLo = traceLo;
        this.parentId = parentId;
        ThreadLocalRandom r = ThreadLocalRandom.current();
        this.spanId = nonZero(r);
        this.queueSpanId = nonZero(r);
        this.upstreamSpanId = nonZero(r);
        this.upstreamTraceparent = TraceParent.header(traceHi, traceLo, upstreamSpanId);
    }

    static long nonZero(ThreadLocalRandom r) {
        long v;
        do {
            v = r.nextLong();
        } while (v == 0);
        return v;
    }

    /** The {@code traceparent} the server is sent: this trace, the upstream call as the parent, sampled. */
    public String upstreamTraceparent() {
        return upstreamTraceparent;
    }

    /** The trace id, 32 lowercase hex digits. */
    public String traceId() {
        StringBuilder b = new StringBuilder(32);
        TraceParent.hex(b, traceHi);
        TraceParent.hex(b, traceLo);
        return b.toString();
    }
}
