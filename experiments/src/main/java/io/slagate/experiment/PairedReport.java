package io.slagate.experiment;

import io.slagate.experiment.paper.GapNoise;
import io.slagate.experiment.twin.PolicyComparison;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** PAIRED.md and the closing line of {@link PairedDifferentiation}: the paired gaps, every run, the twin's choices. */
final class PairedReport {
    private static final String[] PHASES = {"Φ_A", "Φ_B", "Φ_C", "Φ_D"};

    private final PolicyComparison.Outcome twin;
    private final int best;
    private final int[] oracle;
    private final Duration phase;
    private final double scale;
    private final List<PairedDifferentiation.Run[]> pairs;
    private final List<PairedDifferentiation.Run> confirm;

    PairedReport(PolicyComparison.Outcome twin, int best, int[] oracle, Duration phase, double scale,
                 List<PairedDifferentiation.Run[]> pairs, List<PairedDifferentiation.Run> confirm) {
        this.twin = twin;
        this.best = best;
        this.oracle = oracle;
        this.phase = phase;
        this.scale = scale;
        this.pairs = pairs;
        this.confirm = confirm;
    }

    /** Per pair, the controller's score less the other policy's ({@code 1}: (a), {@code 2}: (b)). */
    double[] gaps(int other) {
        return pairs.stream().mapToDouble(p -> p[0].score() - p[other].score()).toArray();
    }

    String closingLine() {
        double[] a = GapNoise.meanWithInterval(gaps(1));
        double[] b = GapNoise.meanWithInterval(gaps(2));
        return String.format(Locale.ROOT, "B paired pairs %d gap-to-best-static mean %.3f ci95 %.3f..%.3f gap-to-phase-oracle mean %.3f "
                + "ci95 %.3f..%.3f", pairs.size(), a[0], a[0] - a[1], a[0] + a[1], b[0], b[0] - b[1], b[0] + b[1]);
    }

    StringBuilder markdown(String command) {
        StringBuilder md = ResultsFile.header("Experiment B — the controller against static splits, paired", command);
        md.append(String.format(Locale.ROOT, """
                Scale %.3f; phases of %d s (%.0f paper-seconds, %.0f control cycles); N_s = 10; τ_P = 2, τ_B = 3 paper-seconds; \
                min combining; weight resolution 1; the controller as shipped. Each pair is one seed of the load generator, run \
                three times on a fresh gateway each: the controller, (a) the best single static split for the whole run and (b) \
                the phase oracle, a static schedule switching to each phase's best split as the load enters the phase. The order \
                within a pair alternates (controller first, then last). A run's score is the mean over the phases of the utility \
                (eq. 7, the worse class's target less its mean response time, paper-seconds) over each phase's last %.0f%%, as the \
                twin measures.

                The static splits are the twin's (`bin/slagate simulate --experiment B --seeds %d` at this phase length): (a) %s \
                (twin score %.3f); (b) %s.

                `%s`

                """, scale, phase.toSeconds(), phase.toNanos() / 1e9 / scale, phase.toNanos() / 1e9 / scale / 5,
                PairedDifferentiation.MEASURED * 100, twin.seeds(), PairedDifferentiation.split(best), mean(twin.staticScore()[twin.best()]),
                PairedDifferentiation.schedule(oracle), closingLine()));
        md.append("Each gap is the controller's score less the static policy's on the same seed; its interval is Student's t over the ")
                .append("pairs. A lower bound above 0 says the controller beats that policy on this system; an interval across 0 ")
                .append("says the pairs cannot tell.\n\n");
        runsTable(md);
        confirmation(md);
        twinTable(md);
        return md;
    }

    private void runsTable(StringBuilder md) {
        md.append("## Every run\n\n| pair | seed | policy | order | U Φ_A | U Φ_B | U Φ_C | U Φ_D | score | gap to it |\n")
                .append("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (int i = 0; i < pairs.size(); i++) {
            PairedDifferentiation.Run[] p = pairs.get(i);
            for (int which = 0; which < 3; which++) {
                int order = i % 2 == 0 ? which + 1 : 3 - which;
                String gap = which == 0 ? "" : String.format(Locale.ROOT, "%+.3f", p[0].score() - p[which].score());
                md.append(row(i + 1, p[which], order, gap));
            }
        }
        md.append('\n');
    }

    private static String row(int pair, PairedDifferentiation.Run r, int order, String gap) {
        double[] u = r.phaseUtility();
        return String.format(Locale.ROOT, "| %d | %d | %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %s |%n", pair, r.seed(), r.policy(),
                order, u[0], u[1], u[2], u[3], r.score(), gap);
    }

    /** (a)'s neighbours on the first pair's seed beside (a) itself there: does the real system agree with the twin's choice? */
    private void confirmation(StringBuilder md) {
        if (confirm.isEmpty() || pairs.isEmpty()) {
            return;
        }
        PairedDifferentiation.Run a = pairs.get(0)[1];
        md.append("## The twin's choice re-measured\n\n(a)'s neighbouring splits, each once on the first pair's seed, beside (a) ")
                .append("on that seed. One run's utility scatters by 0.06–0.16 here (`GapNoise`), so a neighbour within that of (a) ")
                .append("does not contradict the twin; one far above it would.\n\n")
                .append("| split | U Φ_A | U Φ_B | U Φ_C | U Φ_D | score | (a) − it |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        md.append(confirmRow(a, a));
        for (PairedDifferentiation.Run r : confirm) {
            md.append(confirmRow(r, a));
        }
        md.append('\n');
    }

    private String confirmRow(PairedDifferentiation.Run r, PairedDifferentiation.Run a) {
        double[] u = r.phaseUtility();
        String name = r == a ? PairedDifferentiation.split(best) + " (a)" : r.policy();
        return String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %+.3f |%n", name, u[0], u[1], u[2], u[3], r.score(),
                a.score() - r.score());
    }

    /** The twin's static sweep that chose (a) and (b): per split, the mean utility of each phase and the score. */
    private void twinTable(StringBuilder md) {
        md.append(String.format(Locale.ROOT, "## The twin's sweep (%d seeds)%n%n| split | U Φ_A | U Φ_B | U Φ_C | U Φ_D | score |%n"
                + "| --- | ---: | ---: | ---: | ---: | ---: |%n", twin.seeds()));
        for (int j = 0; j < twin.staticPhase().length; j++) {
            double[] u = twin.staticPhase()[j];
            md.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f |%n",
                    PairedDifferentiation.split((int) Math.round(twin.scenario().candidates().get(j)[0])), u[0], u[1], u[2], u[3],
                    mean(twin.staticScore()[j])));
        }
        md.append(String.format(Locale.ROOT, "%nThe controller in the twin: %s.%n", twin.line()));
        for (int k = 0; k < PHASES.length && k < oracle.length; k++) {
            md.append(k == 0 ? "\nPhase oracle: " : ", ").append(PHASES[k]).append(' ').append(PairedDifferentiation.split(oracle[k]));
        }
        md.append(".\n");
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x / v.length;
        }
        return s;
    }
}
