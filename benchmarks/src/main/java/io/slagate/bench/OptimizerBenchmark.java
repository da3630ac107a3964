package io.slagate.bench;

import io.slagate.config.Combining;
import io.slagate.config.utility.UtilityFunction;
import io.slagate.config.utility.UtilityFunctions;
import io.slagate.rm.model.ClosedPopulationModel;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.model.MM1Model;
import io.slagate.rm.model.ModelCorrection;
import io.slagate.rm.optimize.AllocationOptimizer;
import io.slagate.rm.optimize.AllocationProblem;
import io.slagate.rm.optimize.Solution;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Solve time of one pool's allocation problem with K flows and N units: K/2 gateways × 2 classes
 * (targets 0.2 s and 0.5 s, eq. 7 with α = β = 1), each flow an M/M/1 prediction (eq. 8–9) from a
 * seeded random observation at utilization 0.3–0.9 of an equal share. Sum combining, so that both
 * the DP and the greedy path apply and can be compared on the same problem.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class OptimizerBenchmark {
    @Param({"4", "20", "100", "500"})
    public int flows;

    @Param({"10", "100", "1000", "10000"})
    public int units;

    /** The response-time model: the paper's M/M/1, or the closed population model as the resource manager uses it. */
    @Param({"mm1"})
    public String model;

    private AllocationProblem problem;

    @Setup
    public void setup() {
        problem = model.equals("closed") ? closedProblem(flows, units, Combining.SUM, 42) : problem(flows, units, Combining.SUM, 42);
    }

    /**
     * The same shape of problem with each flow a closed population (S = Z, as in the paper's experiments)
     * of 1 to 2 times its equal share in clients, predicted as the resource manager predicts: through
     * {@link ModelCorrection} (the measured level plus the model's change), so that calibrating the
     * population and the corrected predictions are in the measured time.
     */
    public static AllocationProblem closedProblem(int k, int n, Combining combining, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        ClosedPopulationModel closed = new ClosedPopulationModel();
        ModelCorrection correction = new ModelCorrection(4);
        UtilityFunction[] u = {
                UtilityFunctions.create("pacifici", 0.2, Map.of()),
                UtilityFunctions.create("pacifici", 0.5, Map.of()),
        };
        double s = 0.1;
        double share = (double) n / k;
        int[] classOf = new int[k];
        AllocationProblem.FlowValue[] value = new AllocationProblem.FlowValue[k];
        for (int f = 0; f < k; f++) {
            int c = f % 2;
            classOf[f] = c;
            double clients = Math.max(1, Math.round(rnd.nextDouble(1.0, 2.0) * share));
            double r = ClosedPopulationModel.responseSeconds(new ClosedPopulationModel.Population(clients, s, s), share);
            double x = clients / (r + s);
            FlowObservation o = new FlowObservation(x, r, share, x, s);
            UtilityFunction uc = u[c];
            String key = "flow" + f;
            value[f] = units -> uc.utility(correction.predict(key, closed, o, units));
        }
        int min = Math.min(1, n / k);
        return new AllocationProblem(2, classOf, value, n, min, combining, true);
    }

    /** The benchmark's problem; public so that the runner can check DP = greedy on it. */
    public static AllocationProblem problem(int k, int n, Combining combining, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        MM1Model model = new MM1Model();
        UtilityFunction[] u = {
                UtilityFunctions.create("pacifici", 0.2, Map.of()),
                UtilityFunctions.create("pacifici", 0.5, Map.of()),
        };
        double mu = 10; // per slot
        double share = (double) n / k;
        int[] classOf = new int[k];
        AllocationProblem.FlowValue[] value = new AllocationProblem.FlowValue[k];
        for (int f = 0; f < k; f++) {
            int c = f % 2;
            classOf[f] = c;
            double lambda = rnd.nextDouble(0.3, 0.9) * mu * share;
            FlowObservation o = new FlowObservation(lambda, 1 / (mu - lambda / share), share);
            UtilityFunction uc = u[c];
            value[f] = units -> uc.utility(model.predictSeconds(o, units));
        }
        int min = Math.min(1, n / k); // as the resource manager does when N < K
        return new AllocationProblem(2, classOf, value, n, min, combining, true);
    }

    @Benchmark
    public Solution dp() {
        // the closed model calibrates each flow's population once per decision: a fresh problem (and model) per
        // solve keeps that calibration in the measured time, as it is in every control cycle
        return AllocationOptimizer.dynamicProgramming(model.equals("closed") ? closedProblem(flows, units, Combining.SUM, 42) : problem);
    }

    @Benchmark
    public Solution greedy() {
        return AllocationOptimizer.greedy(problem);
    }
}
