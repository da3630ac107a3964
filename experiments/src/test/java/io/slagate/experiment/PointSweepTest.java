package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PointSweepTest {
    private static PointSweep.Run run(String name, double u) {
        return new PointSweep.Run(name, 0, 0, u, 5, 0);
    }

    /**
     * The (15, 20) sweep whose second static round read below FCFS: per round the ratios were 0.70, −5.94 and 1.48 (a
     * mean of −1.25); on the rounds' means the controller wins 0.982 of the oracle's 0.423 over FCFS.
     */
    @Test
    void theCapture_isTheControllersMeanGainOverTheOraclesMeanGain() {
        PointSweep.Result r = new PointSweep.Result(15, 20, run("fcfs", -1.867), run("best static", -1.444),
                Map.of("auto", run("auto", -0.885)), List.of());
        assertEquals((-0.885 + 1.867) / (-1.444 + 1.867), r.capture("auto"), 1e-12);
        assertEquals(2.32, r.capture("auto"), 0.005);
    }

    @Test
    void whereBetterWeightsHardlyWinOverFcfs_theCaptureIsNotANumber() {
        PointSweep.Result r = new PointSweep.Result(5, 5, run("fcfs", 0.90), run("best static", 0.95),
                Map.of("auto", run("auto", 0.97)), List.of());
        assertTrue(Double.isNaN(r.capture("auto")));
    }
}
