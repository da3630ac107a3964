package io.slagate.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import io.slagate.load.service.ServiceTime;
import io.slagate.load.service.StockUtility;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The synthetic service's worker pool (the sleep-bound backend): never more requests executing than workers. */
class WorkerPoolTest {
    @AfterEach
    void restore() {
        StockUtility.configure(ServiceTime.paper(0.02, 0.1));
    }

    @Test
    void aPoolOfThree_runsThreeAtOnce_neverMore() throws Exception {
        StockUtility.configure(ServiceTime.of(Duration.ofMillis(5), 0).withWorkers(3));
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Thread t = new Thread(() -> {
                StockUtility s = new StockUtility();
                for (int k = 0; k < 20; k++) {
                    s.getQuote("X");
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        // 12 callers, 240 requests: the pool was full at some point, and never over
        assertEquals(3, StockUtility.peakExecuting());
    }
}
