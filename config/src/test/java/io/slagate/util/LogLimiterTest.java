package io.slagate.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LogLimiterTest {
    @Test
    void allowsTheFirstAtOnce_thenOncePerPeriod() {
        AtomicLong clock = new AtomicLong(1_000);
        LogLimiter limiter = new LogLimiter(Duration.ofSeconds(10), clock::get);
        assertTrue(limiter.allow());
        assertFalse(limiter.allow());
        clock.addAndGet(TimeUnit.SECONDS.toNanos(10) - 1);
        assertFalse(limiter.allow(), "one nanosecond short of the period");
        clock.addAndGet(1);
        assertTrue(limiter.allow());
        assertFalse(limiter.allow());
    }

    @Test
    void ofManyThreadsAskingAtOnce_oneIsLetThrough() throws Exception {
        LogLimiter limiter = new LogLimiter(Duration.ofHours(1), () -> 42); // a frozen clock: one period, never over
        AtomicInteger allowed = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        for (int i = 0; i < 8; i++) {
            pool.execute(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                for (int k = 0; k < 1000; k++) {
                    if (limiter.allow()) {
                        allowed.incrementAndGet();
                    }
                }
            });
        }
        go.countDown();
        pool.shutdown();
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        assertEquals(1, allowed.get());
    }
}
