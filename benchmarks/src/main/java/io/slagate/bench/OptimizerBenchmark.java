package io.slagate.bench;

import io.slagate.config.Combining;
import io.slagate.config.utility.UtilityFunction;
import io.slagate.config.utility.UtilityFunctions;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.model.MM1Model;
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

    private AllocationProblem problem;

    @Setup
    public void setup() {
        problem = problem(flows, units, Combining.SUM, 42);
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
        return AllocationOptimizer.dynamicProgramming(problem);
    }

    @Benchmark
    public Solution greedy() {
        return AllocationOptimizer.greedy(problem);
    }
}
