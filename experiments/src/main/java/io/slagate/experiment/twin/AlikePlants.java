package io.slagate.experiment.twin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What the manager can know by the third cycle after experiment B's change to Φ_D, shown by a second plant: the same
 * run until one reporting interval after the change, when Basic's five clients give way to an open stream at the rate
 * they send at while they do not queue (five clients over 1 s of think and 1 s of service: 2.5 per second). Until then
 * the two runs are one run, sample for sample (common random numbers), and so are the manager's reports up to the one
 * at the end of that interval, which is the last it has at the third cycle (cycles sit half an interval after reports;
 * the first after the change sees none of it). Whatever the manager decides by then it decides in both plants alike,
 * while the split that is best after the change differs: Basic's clients, not queueing at the split in force, show
 * their rate but not whether a smaller share slows them down (five clients wait longer and send less) or floods them
 * (an open stream keeps sending).
 *
 * @param closed     experiment B as it is
 * @param open       the same but for Φ_D's open Basic
 * @param alike      seeds in which every split decided before the second report after the change (on the first
 *                   interval of Φ_D at most) was the same in both plants
 * @param onFirstInterval seeds in which the {@value #CYCLES}rd cycle after the change came before that report (the report
 *                   closing the first interval showed the change and got a cycle at once)
 * @param band       candidates within the settling band of Φ_D (closed), by index; {@code openBand} of the open plant's
 * @param settled    seeds whose split was in the band within {@value #CYCLES} cycles (closed); {@code openSettled} open
 */
public record AlikePlants(PolicyComparison.Outcome closed, PolicyComparison.Outcome open, int alike, int onFirstInterval,
                          boolean[] band, boolean[] openBand, int settled, int openSettled) {
    /** The cycles after the change that see no report later than the one closing the interval the change began. */
    public static final int CYCLES = 3;
    /** Basic's open stream in the second plant: the rate its five clients send at without queueing. */
    static final double OPEN_RATE = 5 / (1.0 + 1.0);
    private static final int D = 3;

    public static AlikePlants compare(int seeds, long firstSeed, int threads) {
        double seconds = TwinExperiments.B_PHASE_SECONDS;
        Scenario closed = TwinExperiments.b(seconds);
        double interval = closed.config().gateway().stats().reportingInterval().toNanos() / 1e9;
        List<Workload.Phase> phases = new ArrayList<>(closed.load().phases().subList(0, D));
        phases.add(Workload.Phase.closed("Φ_D", interval, TwinExperiments.B_MIXES[D]));
        phases.add(new Workload.Phase("Φ_D open", seconds - interval, new int[] {TwinExperiments.B_MIXES[D][0], 0},
                new double[] {0, OPEN_RATE}));
        Scenario open = TwinExperiments.b("B, Φ_D's Basic open", phases);
        PolicyComparison.Outcome c = PolicyComparison.run(closed, seeds, firstSeed, threads);
        PolicyComparison.Outcome o = PolicyComparison.run(open, seeds, firstSeed, threads);
        boolean[] band = PolicyComparison.band(c.staticPhase(), D);
        boolean[] openBand = PolicyComparison.band(o.staticPhase(), D + 1);
        long change = closed.load().startNanos(D);
        long secondReport = change + 2 * Math.round(interval * 1e9);
        int alike = 0, onFirst = 0, settled = 0, openSettled = 0;
        for (int i = 0; i < seeds; i++) {
            List<TwinRun.WeightPoint> a = after(c.weightSeries().get(i), change), b = after(o.weightSeries().get(i), change);
            alike += same(before(a, secondReport), before(b, secondReport)) ? 1 : 0;
            onFirst += a.get(CYCLES - 1).atNanos() < secondReport ? 1 : 0;
            settled += within(closed, a.subList(0, CYCLES), band) ? 1 : 0;
            openSettled += within(open, b.subList(0, CYCLES), openBand) ? 1 : 0;
        }
        return new AlikePlants(c, o, alike, onFirst, band, openBand, settled, openSettled);
    }

    /** The splits decided after {@code change}. */
    private static List<TwinRun.WeightPoint> after(List<TwinRun.WeightPoint> series, long change) {
        return series.stream().filter(p -> p.atNanos() > change).toList();
    }

    /** Those decided before {@code nanos}: on no report later than the one before it. */
    private static List<TwinRun.WeightPoint> before(List<TwinRun.WeightPoint> points, long nanos) {
        return points.stream().filter(p -> p.atNanos() < nanos).toList();
    }

    private static boolean same(List<TwinRun.WeightPoint> a, List<TwinRun.WeightPoint> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).atNanos() != b.get(i).atNanos() || !Arrays.equals(a.get(i).weights(), b.get(i).weights())) {
                return false;
            }
        }
        return true;
    }

    private static boolean within(Scenario sc, List<TwinRun.WeightPoint> points, boolean[] band) {
        return points.stream().anyMatch(p -> band[PolicyComparison.nearest(sc.candidates(), p.weights())]);
    }

    /** Whether the two bands share no split. */
    public boolean disjoint() {
        for (int j = 0; j < band.length; j++) {
            if (band[j] && openBand[j]) {
                return false;
            }
        }
        return true;
    }

    public String report() {
        Scenario sc = closed.scenario();
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "Φ_D of experiment B beside a plant alike until the second report after the change:"
                + " Basic's five clients give way to an open stream at %.1f/s, their own rate, one reporting interval after it;"
                + " %d seeds%n", OPEN_RATE, closed.seeds()));
        b.append("split    Φ_D (closed)   Φ_D (Basic open)   utility over the last 60% of the phase, the split held throughout\n");
        for (int j = 0; j < sc.candidates().size(); j++) {
            b.append(String.format(Locale.ROOT, "%-8s %8.3f%s %14.3f%s%n", TwinReport.weights(sc.candidates().get(j)),
                    closed.staticPhase()[j][D], band[j] ? " *" : "  ", open.staticPhase()[j][D + 1], openBand[j] ? " *" : "  "));
        }
        b.append(String.format(Locale.ROOT, "the controller  %8.3f   %14.3f%n", closed.controllerPhase()[D], open.controllerPhase()[D + 1]));
        b.append("* within the settling band (1% of the phase's range of its best)\n");
        b.append(line()).append('\n');
        return b.toString();
    }

    /** The summary line. */
    public String line() {
        return String.format(Locale.ROOT, "twin alike seeds %d splits-alike-before-second-report %d cycle-%d-on-first-interval %d"
                        + " bands-disjoint %s settled-by-cycle-%d closed %d open %d", closed.seeds(), alike, CYCLES, onFirstInterval,
                disjoint(), CYCLES, settled, openSettled);
    }
}
