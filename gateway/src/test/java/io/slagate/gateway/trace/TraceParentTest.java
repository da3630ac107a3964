package io.slagate.gateway.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.slagate.config.TracingSettings;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The W3C trace context as the gateway reads it, hostile values included, and the ratio sampler on the trace id. */
class TraceParentTest {
    private static final String VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void aValidContext_isReadWithItsIdsAndDecision() {
        TraceParent p = TraceParent.parse(VALID);
        assertEquals(0x4bf92f3577b34da6L, p.traceHi());
        assertEquals(0xa3ce929d0e0e4736L, p.traceLo());
        assertEquals(0x00f067aa0ba902b7L, p.parentId());
        assertTrue(p.sampled());
        assertFalse(TraceParent.parse(VALID.substring(0, 53) + "00").sampled());
        assertTrue(TraceParent.parse(VALID.substring(0, 53) + "03").sampled(), "other flags beside sampled");
        assertTrue(TraceParent.parse("01" + VALID.substring(2) + "-what-comes-later").sampled(), "a later version's extra fields");
        assertEquals(VALID.replace("00f067aa0ba902b7", "0000000000000abc"), TraceParent.header(p.traceHi(), p.traceLo(), 0xabc));
    }

    @Test
    void malformedContexts_areNone() {
        String[] hostile = {
            null, "", "00", VALID.toUpperCase(), VALID + "-", VALID + "x", VALID.substring(0, 54),
            "ff" + VALID.substring(2), "0g" + VALID.substring(2),
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01", // all-zero trace id
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", // all-zero parent
            "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0x",
            "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "01" + VALID.substring(2) + "x", // a later version's extra must follow a dash
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\u0000",
        };
        for (String h : hostile) {
            assertNull(TraceParent.parse(h), String.valueOf(h));
        }
    }

    /** Over 100,000 random trace ids the ratio sampler keeps its share (±1%); 0 keeps none and 1 every one. */
    @Test
    void theRatioSampler_keepsItsShareOfTraceIds() {
        SpanExporter exporter = new SpanExporter(new TracingSettings(URI.create("http://127.0.0.1:1/v1/traces"), 0.1, "t", Duration.ofSeconds(1), 10, java.util.Map.of()),
                "gw", System::nanoTime, new SimpleMeterRegistry());
        java.util.SplittableRandom r = new java.util.SplittableRandom(5);
        for (double share : new double[] {0, 0.1, 0.5, 1}) {
            Tracer t = new Tracer(share, exporter);
            int kept = 0;
            for (int i = 0; i < 100_000; i++) {
                kept += t.sampled(r.nextLong()) ? 1 : 0;
            }
            assertEquals(share, kept / 100_000.0, 0.01, "share " + share);
        }
        Tracer none = new Tracer(0, exporter);
        assertNull(none.start(null), "no decision, share 0: not traced");
        assertNull(none.start(VALID.substring(0, 53) + "00"), "the client decided no");
        RequestSpan followed = none.start(VALID);
        assertEquals("4bf92f3577b34da6a3ce929d0e0e4736", followed.traceId(), "the client decided yes: its trace goes on");
        assertTrue(followed.upstreamTraceparent().startsWith("00-4bf92f3577b34da6a3ce929d0e0e4736-"));
        assertFalse(followed.upstreamTraceparent().contains("00f067aa0ba902b7"), "the server's parent is the gateway's call, not the client");
        assertEquals(TraceParent.LENGTH, followed.upstreamTraceparent().length());
        assertTrue(new Tracer(1, exporter).start("garbage") != null, "a malformed context starts a trace of its own");
    }
}
