package io.slagate.experiment.twin;

import io.slagate.config.SlagateConfig;
import io.slagate.experiment.paper.ExperimentSetup;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The paper's experiments as twin scenarios, in paper-seconds (the twin needs no scale): one server whose
 * N_s = 10 slots are its only limit, Premium (τ = 2 s) and Basic (τ = 3 s), exponential think and service times of
 * mean 1 s, statistics every 5 s over 30 s, a 5 s control cycle, min combining; the static candidates are every
 * split of the 10 slots' weight at the controller's resolution of 1, from 1:9 to 9:1.
 */
public final class TwinExperiments {
    /** Experiment B's phases Φ_A..Φ_D: (premium, basic) clients. */
    static final int[][] B_MIXES = {{5, 5}, {20, 20}, {5, 20}, {20, 5}};
    /** A phase of the real experiment B run with --short: 25 s at scale 0.05. */
    public static final double B_PHASE_SECONDS = 500;
    /** The part of each phase measured: the rest belongs to the change. */
    static final double MEASURED = 0.6;
    private static final int SLOTS = 10;

    private TwinExperiments() {
    }

    public static SlagateConfig config() {
        return config("wrr", "");
    }

    /**
     * The set-up with the gateway's scheduler {@code scheduler} (wrr, fcfs or priority) and more controller settings
     * ({@code controllerKeys}, e.g. {@code "minGain: 0.1, damping: 0.3"}; empty: the defaults).
     */
    public static SlagateConfig config(String scheduler, String controllerKeys) {
        return new ExperimentSetup(1.0, SLOTS, scheduler, 1).config(List.of("http://127.0.0.1:9"), String.valueOf(SLOTS), "",
                controllerKeys.isBlank() ? "" : ", " + controllerKeys);
    }

    /** Experiment B: the four mixes one after the other, {@code phaseSeconds} each. */
    public static Scenario b(double phaseSeconds) {
        return b(phaseSeconds, "");
    }

    /** Experiment B with more controller settings (see {@link #config(String, String)}). */
    public static Scenario b(double phaseSeconds, String controllerKeys) {
        List<Workload.Phase> phases = new ArrayList<>();
        String[] names = {"Φ_A", "Φ_B", "Φ_C", "Φ_D"};
        for (int k = 0; k < B_MIXES.length; k++) {
            phases.add(Workload.Phase.closed(names[k], phaseSeconds, B_MIXES[k]));
        }
        return scenario("B", phases, config("wrr", controllerKeys), MEASURED);
    }

    /** One point of experiment C's grid: {@code premium} and {@code basic} clients for {@code seconds}. */
    public static Scenario c(int premium, int basic, double seconds) {
        return c(premium, basic, seconds, "");
    }

    /** The same with more controller settings (see {@link #config(String, String)}). */
    public static Scenario c(int premium, int basic, double seconds, String controllerKeys) {
        return scenario("C(" + premium + "," + basic + ")", List.of(Workload.Phase.closed("(" + premium + "," + basic + ")", seconds,
                premium, basic)), config("wrr", controllerKeys), MEASURED);
    }

    /**
     * Experiment C's set-up with Basic an open Poisson stream at {@code basicRate} per second in place of its clients,
     * beside {@code premium} closed clients, for {@code seconds}.
     */
    public static Scenario cOpenBasic(int premium, double basicRate, double seconds, String controllerKeys) {
        return scenario(String.format(Locale.ROOT, "C(%d,%.1f/s)", premium, basicRate), List.of(new Workload.Phase(
                String.format(Locale.ROOT, "(%d,%.1f/s)", premium, basicRate), seconds, new int[] {premium, 0},
                new double[] {0, basicRate})), config("wrr", controllerKeys), MEASURED);
    }

    /** One point of experiment C as the real run measures it: {@code measured} of each phase, the scheduler given. */
    public static Scenario c(int premium, int basic, double seconds, String scheduler, double measured) {
        return scenario("C(" + premium + "," + basic + ")", List.of(Workload.Phase.closed("(" + premium + "," + basic + ")", seconds,
                premium, basic)), config(scheduler, ""), measured);
    }

    /** Experiment B's set-up with phases of one's own (premium and basic, closed or open). */
    static Scenario b(String name, List<Workload.Phase> phases) {
        return scenario(name, phases, config("wrr", ""), MEASURED);
    }

    private static Scenario scenario(String name, List<Workload.Phase> phases, SlagateConfig config, double measured) {
        Workload load = new Workload(List.of(
                new Workload.ClassLoad("premium", ExperimentSetup.PREMIUM_USER, Demand.exponential(1), Demand.exponential(1)),
                new Workload.ClassLoad("basic", ExperimentSetup.BASIC_USER, Demand.exponential(1), Demand.exponential(1))), phases);
        List<double[]> candidates = new ArrayList<>();
        for (int w = 1; w < SLOTS; w++) {
            candidates.add(new double[] {w, SLOTS - w});
        }
        return new Scenario(name, config, load, List.of(TwinRun.ServerSpec.of(PlantServer.Discipline.DELAY, 1)), candidates, measured);
    }
}
