package io.slagate.rm;

import io.slagate.bus.message.ControlMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.config.ControllerSettings;
import io.slagate.config.SlagateConfig;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The online tuners of {@code controller.tuning}, one per partition (Active Harmony's parameter
 * partitioning): built at the first cycle (their knobs need the servers' URLs), fed each side's
 * measured utility every cycle, commanded by the operator, and described in each decision. The
 * control loop's thread only.
 */
final class Tuning {
    private static final Logger LOG = LoggerFactory.getLogger(Tuning.class);

    private final String id;
    private final Overrides overrides;
    private final Supplier<SlagateConfig> config;
    private final Consumer<UnaryOperator<ControllerSettings>> applyController;
    /** One tuner per partition, in the file's order. */
    private final Map<String, io.slagate.rm.tune.TuningPartition> tuning = new java.util.LinkedHashMap<>();

    /**
     * @param config          the configuration in force (servers as moved)
     * @param applyController how an interleaved partition's trial changes the controller's settings
     */
    Tuning(String id, Overrides overrides, Supplier<SlagateConfig> config, Consumer<UnaryOperator<ControllerSettings>> applyController) {
        this.id = id;
        this.overrides = overrides;
        this.config = config;
        this.applyController = applyController;
    }

    boolean isEmpty() {
        return tuning.isEmpty();
    }

    /** The first (or only) partition's tuner, or null when controller.tuning is not configured or before the first cycle. */
    io.slagate.rm.tune.OnlineTuner first() {
        return tuning.values().stream().findFirst().map(io.slagate.rm.tune.TuningPartition::tuner).orElse(null);
    }

    /** The tuning partitions, in the configuration's order; empty before the first cycle. */
    List<io.slagate.rm.tune.TuningPartition> partitions() {
        return List.copyOf(tuning.values());
    }

    io.slagate.rm.tune.TuningPartition partition(String name) {
        io.slagate.rm.tune.TuningPartition p = tuning.get(name);
        if (p == null) {
            throw new IllegalArgumentException("no tuning partition " + name + "; partitions: " + tuning.keySet());
        }
        return p;
    }


    /** Each partition's tuner, built at its first cycle (its knobs need the servers' URLs), fed each side's utility. */
    void tick(long now, ResourceManager rm) {
        if (config.get().controller().tuning().isEmpty()) {
            return;
        }
        if (tuning.isEmpty()) {
            for (io.slagate.config.TuningSettings t : config.get().controller().tuning()) {
                java.util.Random random = new java.util.Random(java.util.Objects.hash(id, t.partition()));
                io.slagate.rm.tune.OnlineTuner tuner = t.interleaved()
                        ? new io.slagate.rm.tune.InterleavedTuner(t, controllerKnobs(t), random, rm.windowCycles())
                        : new io.slagate.rm.tune.Tuner(t, side(t, t.safePool()), side(t, t.experimentalPool()), random,
                                rm.windowCycles());
                if (!t.best().isEmpty()) {
                    double[] best = t.knobs().stream().mapToDouble(k -> t.best().get(k.name())).toArray();
                    try {
                        tuner.restore(best);
                    } catch (io.slagate.rm.tune.Tunable.KnobException e) {
                        LOG.warn("tuning {}: the best configuration written back ({}) could not be applied: {}; tuning starts from "
                                + "where the servers are", t.partition(), t.best(), e.getMessage());
                    }
                }
                if (t.interleaved()) {
                    LOG.warn("tuning {}: {} over the controller's {} with NO safe side (interleaved: true): each trial runs on all "
                            + "traffic for {} between two periods of the best configuration", t.partition(), t.strategy(),
                            t.knobs().stream().map(io.slagate.config.TuningSettings.Knob::name).toList(), t.period());
                } else {
                    LOG.info("tuning {}: {} over {} with {} of each class's requests on the experimental pool {} (safe pool {})",
                            t.partition(), t.strategy(), t.knobs().stream().map(io.slagate.config.TuningSettings.Knob::name).toList(),
                            t.share(), t.experimentalPool(), t.safePool());
                }
                tuning.put(t.partition(), new io.slagate.rm.tune.TuningPartition(t, tuner));
            }
        }
        for (io.slagate.rm.tune.TuningPartition p : tuning.values()) {
            if (p.settings().interleaved()) {
                p.tick(now, rm.measuredUtility(config.get().classes().stream().map(io.slagate.config.TrafficClassConfig::name).toList()),
                        Double.NaN);
            } else {
                p.tick(now, rm.measuredUtility(p.safeClasses()), rm.measuredUtility(p.trialClasses()));
            }
        }
    }

    /** An operator starts, stops or reverts one partition's tuner, or every one's: true when a new decision should carry the state. */
    boolean command(String command, String partition, String who, long now) {
        if (tuning.isEmpty()) {
            LOG.warn("{} from {} ignored: {}", command, who, config.get().controller().tuning().isEmpty()
                    ? "controller.tuning is not configured" : "the tuner starts at the first control cycle");
            return false;
        }
        List<io.slagate.rm.tune.TuningPartition> targets;
        if (partition == null) {
            targets = List.copyOf(tuning.values());
        } else if (tuning.containsKey(partition)) {
            targets = List.of(tuning.get(partition));
        } else {
            LOG.warn("{} from {} refused: no tuning partition {}; partitions: {}", command, who,
                    partition.length() > 64 ? partition.substring(0, 64) + "…" : partition, tuning.keySet());
            return false;
        }
        for (io.slagate.rm.tune.TuningPartition p : targets) {
            io.slagate.rm.tune.OnlineTuner tuner = p.tuner();
            switch (command) {
                case ControlMessage.TUNING_START -> tuner.start(now);
                case ControlMessage.TUNING_STOP -> tuner.stop();
                default -> {
                    if (!tuner.revert()) {
                        LOG.warn("tuning-revert of {} from {} not done: nothing measured before tuning yet, or a side refused it "
                                + "(see above)", p.name(), who);
                        continue;
                    }
                }
            }
            LOG.info("tuning {}: {} by {}; state {}", p.name(), command, who, tuner.state());
        }
        return true;
    }

    /** Each partition's state for the decision (empty without controller.tuning or before its first cycle). */
    List<DecisionMessage.TuningStatus> status() {
        List<DecisionMessage.TuningStatus> out = new java.util.ArrayList<>();
        for (io.slagate.rm.tune.TuningPartition p : tuning.values()) {
            io.slagate.rm.tune.OnlineTuner t = p.tuner();
            List<DecisionMessage.TuningTrial> trials = new java.util.ArrayList<>();
            for (io.slagate.rm.tune.Tuner.Trial x : t.trials()) {
                trials.add(new DecisionMessage.TuningTrial(x.number(), boxed(x.values()), x.experimental(), x.safe(), x.outcome()));
            }
            double[] sides = p.sides();
            out.add(new DecisionMessage.TuningStatus(p.name(), t.state().name().toLowerCase(java.util.Locale.ROOT),
                    p.settings().knobs().stream().map(io.slagate.config.TuningSettings.Knob::name).toList(),
                    boxed(t.bestValues()), t.baselineUtility(), sides[0], sides[1], trials));
        }
        return out;
    }

    private static List<Double> boxed(double[] v) {
        return java.util.Arrays.stream(v).boxed().toList();
    }

    /** The first partition's safe and experimental side's utilities at the last cycle (NaN without tuning or traffic). */
    double[] sideUtilities() {
        io.slagate.rm.tune.TuningPartition p = tuning.values().stream().findFirst().orElse(null);
        return p == null ? new double[] {Double.NaN, Double.NaN} : p.sides();
    }

    private io.slagate.rm.tune.KnobSet side(io.slagate.config.TuningSettings t, String pool) {
        List<io.slagate.config.ServerConfig> servers = config.get().servers().stream().filter(s -> s.pool().equals(pool)).toList();
        List<io.slagate.rm.tune.Tunable> knobs = new java.util.ArrayList<>();
        for (io.slagate.config.TuningSettings.Knob k : t.knobs()) {
            if (k.name().equals("queueTimeout")) { // the side's classes at the gateways, not its servers
                List<String> classes = config.get().classes().stream().filter(c -> c.pool().equals(pool))
                        .map(io.slagate.config.TrafficClassConfig::name).toList();
                knobs.add(new io.slagate.rm.tune.QueueTimeoutKnob(classes, overrides,
                        name -> {
                            int c = config.get().classIndex(name);
                            return c < 0 ? Math.round(1000 * k.max()) : config.get().classes().get(c).queueTimeout().toMillis();
                        }, k.min(), k.max()));
                continue;
            }
            List<io.slagate.rm.tune.Tunable> perServer = new java.util.ArrayList<>();
            for (io.slagate.config.ServerConfig sc : servers) {
                perServer.add(k.name().equals("concurrency")
                        ? new io.slagate.rm.tune.ConcurrencyKnob(sc.id(), overrides, sc::concurrency, k.min(), k.max())
                        : new io.slagate.rm.tune.HttpKnob(k.name(), java.net.URI.create(sc.url().toString().replaceAll("/+$", "") + k.path()),
                                k.min(), k.max(), k.integer(), k.timeout()));
            }
            knobs.add(new io.slagate.rm.tune.SideKnob(perServer));
        }
        return new io.slagate.rm.tune.KnobSet(knobs);
    }

    /** An interleaved partition's knobs: the controller's own settings, changed in force from the next cycle. */
    private io.slagate.rm.tune.KnobSet controllerKnobs(io.slagate.config.TuningSettings t) {
        List<io.slagate.rm.tune.Tunable> knobs = new java.util.ArrayList<>();
        for (io.slagate.config.TuningSettings.Knob k : t.knobs()) {
            if (k.name().equals("window")) {
                knobs.add(new io.slagate.rm.tune.WindowKnob(overrides, () -> config.get().gateway().stats().window().toMillis(), k.min(), k.max()));
                continue;
            }
            knobs.add(new io.slagate.rm.tune.ControllerKnob(k.name(), k.min(), k.max(), k.integer(), k.choices(),
                    () -> config.get().controller(), applyController));
        }
        return new io.slagate.rm.tune.KnobSet(knobs);
    }
}
