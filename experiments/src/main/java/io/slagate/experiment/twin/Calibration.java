package io.slagate.experiment.twin;

import java.util.Locale;

/**
 * The twin's side of its calibration against the real system, on the loads the real experiments ran: experiment B
 * with its full phases (150 s at scale 0.05: 3000 paper-seconds) under the controller, per phase and class; and
 * experiment C's grid under FCFS (no controller: the plant and the gateway's queueing alone), each point 360
 * paper-seconds (18 s at scale 0.05) of which the last 260 measured, as the real run measures it.
 */
public final class Calibration {
    public static final double B_REAL_PHASE_SECONDS = 3000;

    private Calibration() {
    }

    public static String report(int seeds, int threads) {
        StringBuilder b = new StringBuilder();
        PolicyComparison.Outcome o = PolicyComparison.run(TwinExperiments.b(B_REAL_PHASE_SECONDS), seeds, 1, threads);
        b.append(String.format(Locale.ROOT, "B, phases of %.0f paper-seconds, last %.0f%% measured, %d seeds, under the controller:%n",
                B_REAL_PHASE_SECONDS, 100 * TwinExperiments.MEASURED, seeds));
        b.append(TwinReport.controllerClasses(o));
        b.append(String.format(Locale.ROOT, "%nC under fcfs, utility min(2 − t_P, 3 − t_B), %d seeds:%n", seeds));
        b.append(TwinReport.gridTable(7, (lp, lb) -> {
            Scenario sc = TwinExperiments.c(lp, lb, 360, "fcfs", 260.0 / 360);
            double u = 0;
            for (int seed = 1; seed <= seeds; seed++) {
                u += sc.score(TwinRun.run(sc.config(), sc.load(), sc.plant(), TwinRun.Held.of(5, 5), seed).completions()) / seeds;
            }
            return String.format(Locale.ROOT, "%.2f", u);
        }));
        return b.toString();
    }
}
