package io.slagate.load.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProcessorSharingTest {
    @Test
    void eachRequestGetsAWholeProcessorUpToTheProcessors_thenAnEqualShare() {
        assertEquals(1, ProcessorSharing.rate(4, 1), 1e-12);
        assertEquals(1, ProcessorSharing.rate(4, 4), 1e-12);
        assertEquals(0.5, ProcessorSharing.rate(4, 8), 1e-12);
        assertEquals(0.1, ProcessorSharing.rate(1, 10), 1e-12);
    }

    @Test
    void requestsSharingOneProcessor_allEnd_andNoneIsLeftCounted() throws Exception {
        ProcessorSharing ps = new ProcessorSharing(200_000);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Thread t = new Thread(() -> ps.perform(2_000_000, 1));
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(0, ps.executing());
    }

    @Test
    void theKnobRefusesANegativeCount() {
        ServerKnobs k = new ServerKnobs(0, 0);
        k.processors(3);
        assertEquals(3, k.processors());
        assertThrows(IllegalArgumentException.class, () -> k.processors(-1));
    }
}
