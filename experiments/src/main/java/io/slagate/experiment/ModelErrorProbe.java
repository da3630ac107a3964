package io.slagate.experiment;

import io.slagate.bus.message.DecisionMessage;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The controller's own model error while an experiment measures: each decision the resource manager
 * publishes after {@code fromMillis} counts once (by its version), and the figure is the mean over
 * those decisions and their flows of |predicted − measured| / measured as the manager computed it.
 */
final class ModelErrorProbe implements AutoCloseable {
    private final Map<Long, Double> perDecision = new HashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "model-error-probe");
        t.setDaemon(true);
        return t;
    });

    ModelErrorProbe(Supplier<DecisionMessage> decisions, long fromMillis) {
        timer.scheduleWithFixedDelay(() -> {
            DecisionMessage d = decisions.get();
            if (d == null || d.timestampMillis() < fromMillis) {
                return;
            }
            double sum = 0;
            int n = 0;
            for (DecisionMessage.FlowDecision f : d.flows()) {
                if (Double.isFinite(f.modelError())) {
                    sum += f.modelError();
                    n++;
                }
            }
            if (n > 0) {
                synchronized (perDecision) {
                    perDecision.put(d.version(), sum / n);
                }
            }
        }, 100, 100, TimeUnit.MILLISECONDS);
    }

    /** The mean model error over the decisions seen, or NaN when none carried one. */
    double meanError() {
        synchronized (perDecision) {
            return perDecision.values().stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        }
    }

    /** The median over the decisions seen (robust to the few where a model's prediction blew up), or NaN. */
    double medianError() {
        synchronized (perDecision) {
            double[] v = perDecision.values().stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return v.length == 0 ? Double.NaN : v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        }
    }

    /** How many decisions the mean is over. */
    int decisions() {
        synchronized (perDecision) {
            return perDecision.size();
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
