package io.slagate.experiment.twin;

import io.slagate.bus.message.DecisionMessage;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.sched.Allocation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import io.slagate.rm.BudgetSource;

/**
 * One run of the twin: a workload against one gateway and its servers, under one policy, from one seed. The
 * gateway reports every reporting interval; under the controller its reports reach the manager at once and
 * the manager's cycles (half a cycle out of step with the reports, as two unsynchronised timers would be)
 * set its weights and caps; under a static policy the weights are held, phase by phase.
 */
public final class TwinRun {
    /** How the weights are set. */
    public sealed interface Policy permits Controlled, Held {
    }

    /** The resource manager decides. */
    public record Controlled() implements Policy {
    }

    /** Per phase the class weights held from its start (one entry: the same for the whole run). */
    public record Held(List<double[]> weights) implements Policy {
        public static Held of(double... weights) {
            return new Held(List.of(weights));
        }

        double[] at(int phase) {
            return weights.get(Math.min(phase, weights.size() - 1));
        }
    }

    /**
     * One server of the plant.
     *
     * @param slowAtSeconds when it slows down (negative: never), to {@code slowSpeed}
     */
    public record ServerSpec(PlantServer.Discipline discipline, int processors, double speed, double slowAtSeconds,
                             double slowSpeed) {
        public static ServerSpec of(PlantServer.Discipline discipline, int processors) {
            return new ServerSpec(discipline, processors, 1, -1, 1);
        }
    }

    /** The weights in force after a control cycle. */
    public record WeightPoint(long atNanos, double[] weights) {
    }

    /**
     * @param predictionsOutOfRange the manager's predicted response times, of flows with arrivals, that were not a finite,
     *                              non-negative number
     */
    public record Result(Completions completions, List<WeightPoint> weights, long predictionsOutOfRange, long cycles) {
    }

    private TwinRun() {
    }

    public static Result run(SlagateConfig config, Workload load, List<ServerSpec> plant, Policy policy, long seed) {
        return run(config, load, plant, policy, seed, null);
    }

    /**
     * As above, the controller told where the classes' error budgets stand by {@code budgets}, made from the run's
     * answers and its clock (null: not told).
     */
    public static Result run(SlagateConfig config, Workload load, List<ServerSpec> plant, Policy policy, long seed,
                             BiFunction<Completions, VirtualTime, BudgetSource> budgets) {
        VirtualTime time = new VirtualTime();
        PlantServer[] servers = new PlantServer[plant.size()];
        for (int s = 0; s < servers.length; s++) {
            ServerSpec spec = plant.get(s);
            PlantServer server = new PlantServer(time, spec.discipline(), spec.processors());
            if (spec.speed() != 1) {
                server.speed(spec.speed());
            }
            if (spec.slowAtSeconds() >= 0) {
                time.at(VirtualTime.nanos(spec.slowAtSeconds()), () -> server.speed(spec.slowSpeed()));
            }
            servers[s] = server;
        }
        TwinGateway gateway = new TwinGateway(config.gateway().id(), config, time, servers);
        Completions done = new Completions(load.classes().size());
        int[] classIndex = new int[load.classes().size()];
        for (int c = 0; c < classIndex.length; c++) {
            classIndex[c] = config.classIndex(load.classes().get(c).className());
            if (classIndex[c] < 0) {
                throw new IllegalArgumentException("the load names class " + load.classes().get(c).className()
                        + ", which the configuration does not have");
            }
        }
        new Clients(time, gateway, load, classIndex, done, seed);
        List<WeightPoint> weights = new ArrayList<>();
        long[] outOfRange = {0};
        TwinManager manager = null;
        if (policy instanceof Controlled) {
            manager = new TwinManager(config, time, config.controller().cycle().toNanos() / 2);
            manager.join(gateway);
            if (budgets != null) {
                manager.budgetSource(budgets.apply(done, time));
            }
            manager.onDecision(d -> {
                weights.add(new WeightPoint(time.now(), gateway.queues().caps().allocation().weights()));
                outOfRange[0] += outOfRange(d);
            });
        } else {
            Held held = (Held) policy;
            int[] caps = Allocation.fromConfig(config).caps();
            for (int k = 0; k < load.phases().size(); k++) {
                double[] w = held.at(k);
                long version = k + 1;
                time.at(load.startNanos(k), () -> gateway.hold(new Allocation(version, w.clone(), caps.clone())));
            }
        }
        TwinManager m = manager;
        long interval = config.gateway().stats().reportingInterval().toNanos();
        time.every(interval, interval, () -> {
            var report = gateway.report();
            if (m != null) {
                m.onStats(report);
            }
        });
        time.runUntil(load.endNanos());
        return new Result(done, weights, outOfRange[0], m == null ? 0 : m.cycles());
    }

    private static long outOfRange(DecisionMessage d) {
        return d.flows().stream().filter(f -> f.arrivalRate() > 0 && (!(f.predictedSeconds() >= 0) || Double.isInfinite(f.predictedSeconds())))
                .count();
    }
}
