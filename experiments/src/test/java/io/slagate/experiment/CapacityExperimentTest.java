package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The capacity experiment's scoring on runs whose answer is known. */
class CapacityExperimentTest {
    private static CapacityExperiment.Step step(int servers, double premium, double basic, Double... signal) {
        return new CapacityExperiment.Step(servers, 20, "", List.of(signal), premium, basic);
    }

    /** A run whose high steps end on {@code servers}, its signal flipping {@code flaps} times in one step. */
    private static CapacityExperiment.Run run(int number, int servers, int flaps) {
        List<CapacityExperiment.Step> steps = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            List<Double> readings = new ArrayList<>(List.of(0.0));
            for (int f = 0; i == 4 && f < flaps; f++) {
                readings.add(f % 2 == 0 ? 1.0 : 0.0);
            }
            steps.add(new CapacityExperiment.Step(i < 4 ? 1 : servers, 20, "", readings, 1, 1));
        }
        steps.add(step(1, 1, 1, 0.0));
        return new CapacityExperiment.Run(number, steps, 1, true, true, 0, true);
    }

    @Test
    void minimal_isTheFewestServersThatMetBothTargets() {
        List<CapacityExperiment.Step> sweep = List.of(step(1, 5.0, 6.0), step(2, 1.9, 3.5), step(3, 1.2, 2.0), step(4, 1.0, 1.5),
                step(5, 2.5, 1.0));
        assertEquals(3, CapacityExperiment.minimal(sweep), "2 misses basic's target; 5, a noisy miss, does not undo 3");
        assertEquals(6, CapacityExperiment.minimal(List.of(step(1, 5.0, 6.0))), "none met: beyond the largest tried");
    }

    @Test
    void line_scoresEachRunsCountAgainstTheMinimum_andSumsFlapsBothWays() {
        List<CapacityExperiment.Run> runs = List.of(run(1, 2, 0), run(2, 3, 2), run(3, 1, 1), run(4, 2, 0));
        assertEquals("capacity runs 4 exact 2 over-ask 1 under-ask 1 flaps 3 (minimal 2)", CapacityExperiment.line(runs, 2));
    }
}
