package io.slagate.load;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/** One client class's live state: how many clients it should have, and what they measured. */
final class ClassState {
    static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(1);

    final int index;
    final LoadSpec.ClassSpec spec;
    /** Clients (closed loop) or requests/s (open loop) the current phase asks for. */
    volatile double load;
    final AtomicInteger clients = new AtomicInteger();
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();
    final AtomicLong sent = new AtomicLong();
    final AtomicLong answered = new AtomicLong();
    final LongAdder intervalErrors = new LongAdder();
    final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    /** Latencies of successful requests in µs; the sampler takes an interval histogram every second. */
    final Recorder recorder = new Recorder(HIGHEST_MICROS, 3);
    /** Everything after the warm-up, merged by the sampler. */
    final Histogram total = new Histogram(HIGHEST_MICROS, 3);
    long countedErrors;

    ClassState(int index, LoadSpec.ClassSpec spec) {
        this.index = index;
        this.spec = spec;
    }

    void started() {
        sent.incrementAndGet();
        int n = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(n, Math::max);
    }

    void succeeded(long latencyNanos) {
        recorder.recordValue(Math.min(HIGHEST_MICROS, Math.max(1, latencyNanos / 1000)));
        inFlight.decrementAndGet();
        answered.incrementAndGet();
    }

    void failed(String kind) {
        errors.computeIfAbsent(kind, k -> new LongAdder()).increment();
        intervalErrors.increment();
        inFlight.decrementAndGet();
        answered.incrementAndGet();
    }
}
