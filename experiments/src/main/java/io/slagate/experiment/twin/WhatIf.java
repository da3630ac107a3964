package io.slagate.experiment.twin;

import io.slagate.config.SimulatedLoad;
import io.slagate.config.ServerConfig;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.sched.Allocation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An operator's what-if: their configuration and a load file become a twin scenario; the controller, their
 * configured static weights and the best static weights a sweep finds run on the same seeds, and each class's
 * response times, target attainment and utility are summed over the measured part of every phase.
 */
public final class WhatIf {
    /** The share of each phase measured (the rest belongs to the change before it). */
    static final double MEASURED = 0.6;
    /** Static weight splits swept for two classes: 10% to 90% of N_g to the first. */
    private static final int SPLITS = 9;

    /** Per class, under one policy, over every seed's measured spans. */
    public record ClassFigures(String className, long answered, double meanSeconds, double p95Seconds, double attainment,
                               double utility) {
    }

    /** @param policy "controller", "configured" or "best static" with its weights */
    public record PolicyFigures(String policy, List<ClassFigures> classes) {
    }

    private WhatIf() {
    }

    public static Scenario scenario(SlagateConfig config, SimulatedLoad spec) {
        List<Workload.ClassLoad> classes = new ArrayList<>();
        List<String> names = new ArrayList<>(spec.classes().keySet());
        names.sort((a, b) -> Integer.compare(config.classIndex(a), config.classIndex(b)));
        for (String name : names) {
            SimulatedLoad.ClassLoad c = spec.classes().get(name);
            classes.add(new Workload.ClassLoad(name, c.customer(), demand(c.think()), demand(c.work())));
        }
        List<Workload.Phase> phases = new ArrayList<>();
        for (SimulatedLoad.Phase p : spec.phases()) {
            int[] clients = new int[names.size()];
            double[] rates = new double[names.size()];
            for (int c = 0; c < names.size(); c++) {
                clients[c] = p.clients().getOrDefault(names.get(c), 0);
                rates[c] = p.rates().getOrDefault(names.get(c), 0.0);
            }
            phases.add(new Workload.Phase(p.name(), p.seconds(), clients, rates));
        }
        List<TwinRun.ServerSpec> plant = new ArrayList<>();
        for (ServerConfig s : config.servers()) {
            SimulatedLoad.ServerLoad l = spec.servers().get(s.id());
            plant.add(l == null ? TwinRun.ServerSpec.of(PlantServer.Discipline.DELAY, 1)
                    : new TwinRun.ServerSpec(PlantServer.Discipline.valueOf(l.discipline().toUpperCase(java.util.Locale.ROOT)),
                    l.processors(), l.speed(), l.slowAtSeconds(), l.slowSpeed()));
        }
        return new Scenario("what-if", config, new Workload(classes, phases), plant, candidates(config), MEASURED);
    }

    /** The configured weights first, then the sweep: splits of N_g for two classes, a coarse grid for more. */
    static List<double[]> candidates(SlagateConfig config) {
        double[] configured = Allocation.fromConfig(config).weights();
        List<double[]> out = new ArrayList<>();
        out.add(configured);
        int k = configured.length;
        double total = Arrays.stream(Allocation.fromConfig(config).caps()).sum();
        if (k == 2) {
            for (int i = 1; i <= SPLITS; i++) {
                double first = Math.max(1, Math.round(total * i / (SPLITS + 1.0)));
                out.add(new double[] {first, Math.max(1, total - first)});
            }
        } else if (k <= 4) {
            double[] levels = {1, 2, 4, 8};
            for (int n = 0; n < Math.pow(levels.length, k); n++) {
                double[] w = new double[k];
                for (int c = 0, rest = n; c < k; c++, rest /= levels.length) {
                    w[c] = levels[rest % levels.length];
                }
                out.add(w);
            }
        }
        return out;
    }

    /** The figures of one policy over seeds {@code 1..seeds}. */
    public static PolicyFigures figures(Scenario sc, String name, TwinRun.Policy policy, int seeds) {
        int n = sc.load().classes().size();
        long[] answered = new long[n], within = new long[n];
        double[] sum = new double[n], p95 = new double[n];
        int[] p95Spans = new int[n];
        for (int seed = 1; seed <= seeds; seed++) {
            Completions done = TwinRun.run(sc.config(), sc.load(), sc.plant(), policy, seed).completions();
            for (int k = 0; k < sc.load().phases().size(); k++) {
                long from = sc.measuredFrom(k), to = sc.load().startNanos(k + 1);
                for (int c = 0; c < n; c++) {
                    Completions.Span s = done.span(c, from, to);
                    if (s.answered() == 0) {
                        continue;
                    }
                    answered[c] += s.answered();
                    sum[c] += s.meanSeconds() * s.answered();
                    p95[c] += s.p95Seconds();
                    p95Spans[c]++;
                    within[c] += done.within(c, from, to, sc.targetSeconds(c));
                }
            }
        }
        List<ClassFigures> out = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            double mean = answered[c] == 0 ? Double.NaN : sum[c] / answered[c];
            out.add(new ClassFigures(sc.load().classes().get(c).className(), answered[c], mean,
                    p95Spans[c] == 0 ? Double.NaN : p95[c] / p95Spans[c], answered[c] == 0 ? Double.NaN : within[c] / (double) answered[c],
                    sc.targetSeconds(c) - mean));
        }
        return new PolicyFigures(name, out);
    }

    private static Demand demand(SimulatedLoad.Time t) {
        return switch (t.type()) {
            case "lognormal" -> Demand.lognormal(t.meanSeconds(), t.cv());
            case "bimodal" -> Demand.bimodal(t.p(), t.meanSeconds(), t.longMeanSeconds());
            case "fixed" -> Demand.fixed(t.meanSeconds());
            default -> Demand.exponential(t.meanSeconds());
        };
    }
}
