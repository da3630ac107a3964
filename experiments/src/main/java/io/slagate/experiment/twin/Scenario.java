package io.slagate.experiment.twin;

import io.slagate.config.Combining;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import java.util.List;

/**
 * A question put to the twin: a configuration, a workload and a plant, the static weights an operator could hold
 * instead of the controller ({@code candidates}, one weight per class), and the part of each phase that is
 * measured (its last {@code measuredFraction}: the start of a phase belongs to the change, not to the phase).
 */
public record Scenario(String name, SlagateConfig config, Workload load, List<TwinRun.ServerSpec> plant, List<double[]> candidates,
                       double measuredFraction) {
    public Scenario {
        candidates = List.copyOf(candidates);
        if (!(measuredFraction > 0 && measuredFraction <= 1)) {
            throw new IllegalArgumentException("the measured part of a phase must be in (0, 1]: " + measuredFraction);
        }
    }

    public long measuredFrom(int phase) {
        long start = load.startNanos(phase), end = load.startNanos(phase + 1);
        return end - Math.round((end - start) * measuredFraction);
    }

    /**
     * The utility of phase {@code phase} as the paper's experiments measure it: each class's target less its mean
     * response time over the measured part (eq. 7 with φ = α = β = 1), combined as the controller combines classes
     * (min: the worst-off class; sum). A class with clients and not one answer there scores minus the phase's length.
     */
    public double utility(Completions done, int phase) {
        long from = measuredFrom(phase), to = load.startNanos(phase + 1);
        Workload.Phase p = load.phases().get(phase);
        boolean min = config.controller().combining() == Combining.MIN;
        double u = min ? Double.POSITIVE_INFINITY : 0;
        for (int c = 0; c < load.classes().size(); c++) {
            if (p.population()[c] == 0 && p.rate()[c] == 0 || Double.isNaN(targetSeconds(c))) {
                continue;
            }
            Completions.Span s = done.span(c, from, to);
            double uc = s.answered() == 0 ? -p.seconds() : targetSeconds(c) - s.meanSeconds();
            u = min ? Math.min(u, uc) : u + uc;
        }
        return u == Double.POSITIVE_INFINITY ? 0 : u;
    }

    /** The load's class {@code c}'s goal in seconds: its mean target, else its percentile goal's threshold. */
    public double targetSeconds(int c) {
        TrafficClassConfig cls = config.classes().get(config.classIndex(load.classes().get(c).className()));
        java.time.Duration goal = cls.target() != null ? cls.target() : cls.percentileGoal() != null ? cls.percentileGoal().target() : null;
        return goal == null ? Double.NaN : goal.toNanos() / 1e9; // a discretionary class has none
    }

    /** The run's score: the mean of its phases' utilities. */
    public double score(Completions done) {
        double s = 0;
        int n = load.phases().size();
        for (int k = 0; k < n; k++) {
            s += utility(done, k) / n;
        }
        return s;
    }
}
