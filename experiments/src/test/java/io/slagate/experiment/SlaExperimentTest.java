package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The sla experiment's arithmetic on runs whose answer is known. */
class SlaExperimentTest {
    @Test
    void rise_isTheQuietCustomersMeanP95AgainstTheirMeanAlone() {
        assertEquals(0.5, SlaExperiment.rise(new double[] {150, 150}, new double[] {100, 100}), 1e-12);
        assertEquals(-0.25, SlaExperiment.rise(new double[] {60, 90}, new double[] {100, 100}), 1e-12);
    }

    @Test
    void theBaselinesTimeout_isTheSweepsBestOnGoodput_theShorterOnATie() {
        List<LateWork.Run> sweep = List.of(run(80), run(95), run(97), run(97), run(60));
        assertEquals(2, LateWork.bestOnGoodput(sweep));
        assertEquals(0, LateWork.bestOnGoodput(List.of(run(50), run(50))));
    }

    @Test
    void theGatewaysRefusals_areItsDeadlineAndQueueTimeoutFaults_notAServersFailure() {
        assertTrue(LateWork.isRefusal("deadline-exceeded"));
        assertTrue(LateWork.isRefusal("queue-timeout"));
        assertFalse(LateWork.isRefusal("server-failed"));
        assertFalse(LateWork.isRefusal(null));
        assertEquals("1200, 2400, 4800", LateWork.deadlinesMs());
    }

    private static LateWork.Run run(double goodput) {
        return new LateWork.Run(100, 90, 0, 10, 0, 0, 0, goodput);
    }
}
