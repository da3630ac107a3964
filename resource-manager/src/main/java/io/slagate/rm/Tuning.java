package io.slagate.rm;

import io.slagate.bus.message.ControlMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.config.ControllerSettings;
import io.slagate.config.ServerConfig;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.config.TuningSettings;
import io.slagate.rm.tune.ConcurrencyKnob;
import io.slagate.rm.tune.ControllerKnob;
import io.slagate.rm.tune.HttpKnob;
import io.slagate.rm.tune.InterleavedTuner;
import io.slagate.rm.tune.KnobSet;
import io.slagate.rm.tune.OnlineTuner;
import io.slagate.rm.tune.QueueTimeoutKnob;
import io.slagate.rm.tune.SideKnob;
import io.slagate.rm.tune.Tunable;
import io.slagate.rm.tune.Tuner;
import io.slagate.rm.tune.TuningPartition;
import io.slagate.rm.tune.WindowKnob;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.ToDoubleFunction;
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
    private final Map<String, TuningPartition> tuning = new LinkedHashMap<>();

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
    OnlineTuner first() {
        return tuning.values().stream().findFirst().map(TuningPartition::tuner).orElse(null);
    }

    /** The tuning partitions, in the configuration's order; empty before the first cycle. */
    List<TuningPartition> partitions() {
        return List.copyOf(tuning.values());
    }

    TuningPartition partition(String name) {
        TuningPartition p = tuning.get(name);
        if (p == null) {
            throw new IllegalArgumentException("no tuning partition " + name + "; partitions: " + tuning.keySet());
        }
        return p;
    }


    /** Each partition's tuner, built at its first cycle (its knobs need the servers' URLs), fed each side's utility. */
    /**
     * @param utility      the measured utility of a set of classes now ({@link ResourceManager#measuredUtility})
     * @param windowCycles control cycles a statistics window spans
     */
    void tick(long now, ToDoubleFunction<Collection<String>> utility, int windowCycles) {
        if (config.get().controller().tuning().isEmpty()) {
            return;
        }
        if (tuning.isEmpty()) {
            for (TuningSettings t : config.get().controller().tuning()) {
                Random random = new Random(Objects.hash(id, t.partition()));
                OnlineTuner tuner = t.interleaved()
                        ? new InterleavedTuner(t, controllerKnobs(t), random, windowCycles)
                        : new Tuner(t, side(t, t.safePool()), side(t, t.experimentalPool()), random,
                                windowCycles);
                if (!t.best().isEmpty()) {
                    double[] best = t.knobs().stream().mapToDouble(k -> t.best().get(k.name())).toArray();
                    try {
                        tuner.restore(best);
                    } catch (Tunable.KnobException e) {
                        LOG.warn("tuning {}: the best configuration written back ({}) could not be applied: {}; tuning starts from "
                                + "where the servers are", t.partition(), t.best(), e.getMessage());
                    }
                }
                if (t.interleaved()) {
                    LOG.warn("tuning {}: {} over the controller's {} with NO safe side (interleaved: true): each trial runs on all "
                            + "traffic for {} between two periods of the best configuration", t.partition(), t.strategy(),
                            t.knobs().stream().map(TuningSettings.Knob::name).toList(), t.period());
                } else {
                    LOG.info("tuning {}: {} over {} with {} of each class's requests on the experimental pool {} (safe pool {})",
                            t.partition(), t.strategy(), t.knobs().stream().map(TuningSettings.Knob::name).toList(),
                            t.share(), t.experimentalPool(), t.safePool());
                }
                tuning.put(t.partition(), new TuningPartition(t, tuner));
            }
        }
        for (TuningPartition p : tuning.values()) {
            if (p.settings().interleaved()) {
                p.tick(now, utility.applyAsDouble(config.get().classes().stream().map(TrafficClassConfig::name).toList()),
                        Double.NaN);
            } else {
                p.tick(now, utility.applyAsDouble(p.safeClasses()), utility.applyAsDouble(p.trialClasses()));
            }
        }
    }

    /** Whether {@code command} is one of the tuners' (start, stop, revert). */
    static boolean handles(String command) {
        return ControlMessage.TUNING_START.equals(command) || ControlMessage.TUNING_STOP.equals(command)
                || ControlMessage.TUNING_REVERT.equals(command);
    }

    /** An operator starts, stops or reverts one partition's tuner, or every one's: true when a new decision should carry the state. */
    boolean command(String command, String partition, String who, long now) {
        if (tuning.isEmpty()) {
            LOG.warn("{} from {} ignored: {}", command, who, config.get().controller().tuning().isEmpty()
                    ? "controller.tuning is not configured" : "the tuner starts at the first control cycle");
            return false;
        }
        List<TuningPartition> targets;
        if (partition == null) {
            targets = List.copyOf(tuning.values());
        } else if (tuning.containsKey(partition)) {
            targets = List.of(tuning.get(partition));
        } else {
            LOG.warn("{} from {} refused: no tuning partition {}; partitions: {}", command, who,
                    partition.length() > 64 ? partition.substring(0, 64) + "…" : partition, tuning.keySet());
            return false;
        }
        for (TuningPartition p : targets) {
            OnlineTuner tuner = p.tuner();
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
        List<DecisionMessage.TuningStatus> out = new ArrayList<>();
        for (TuningPartition p : tuning.values()) {
            OnlineTuner t = p.tuner();
            List<DecisionMessage.TuningTrial> trials = new ArrayList<>();
            for (Tuner.Trial x : t.trials()) {
                trials.add(new DecisionMessage.TuningTrial(x.number(), boxed(x.values()), x.experimental(), x.safe(), x.outcome()));
            }
            double[] sides = p.sides();
            out.add(new DecisionMessage.TuningStatus(p.name(), t.state().name().toLowerCase(Locale.ROOT),
                    p.settings().knobs().stream().map(TuningSettings.Knob::name).toList(),
                    boxed(t.bestValues()), t.baselineUtility(), sides[0], sides[1], trials));
        }
        return out;
    }

    private static List<Double> boxed(double[] v) {
        return Arrays.stream(v).boxed().toList();
    }

    /** The first partition's safe and experimental side's utilities at the last cycle (NaN without tuning or traffic). */
    double[] sideUtilities() {
        TuningPartition p = tuning.values().stream().findFirst().orElse(null);
        return p == null ? new double[] {Double.NaN, Double.NaN} : p.sides();
    }

    private KnobSet side(TuningSettings t, String pool) {
        List<ServerConfig> servers = config.get().servers().stream().filter(s -> s.pool().equals(pool)).toList();
        List<Tunable> knobs = new ArrayList<>();
        for (TuningSettings.Knob k : t.knobs()) {
            if (k.name().equals("queueTimeout")) { // the side's classes at the gateways, not its servers
                List<String> classes = config.get().classes().stream().filter(c -> c.pool().equals(pool))
                        .map(TrafficClassConfig::name).toList();
                knobs.add(new QueueTimeoutKnob(classes, overrides,
                        name -> {
                            int c = config.get().classIndex(name);
                            return c < 0 ? Math.round(1000 * k.max()) : config.get().classes().get(c).queueTimeout().toMillis();
                        }, k.min(), k.max()));
                continue;
            }
            List<Tunable> perServer = new ArrayList<>();
            for (ServerConfig sc : servers) {
                perServer.add(k.name().equals("concurrency")
                        ? new ConcurrencyKnob(sc.id(), overrides, sc::concurrency, k.min(), k.max())
                        : new HttpKnob(k.name(), URI.create(sc.url().toString().replaceAll("/+$", "") + k.path()),
                                k.min(), k.max(), k.integer(), k.timeout()));
            }
            knobs.add(new SideKnob(perServer));
        }
        return new KnobSet(knobs);
    }

    /** An interleaved partition's knobs: the controller's own settings, changed in force from the next cycle. */
    private KnobSet controllerKnobs(TuningSettings t) {
        List<Tunable> knobs = new ArrayList<>();
        for (TuningSettings.Knob k : t.knobs()) {
            if (k.name().equals("window")) {
                knobs.add(new WindowKnob(overrides, () -> config.get().gateway().stats().window().toMillis(), k.min(), k.max()));
                continue;
            }
            knobs.add(new ControllerKnob(k.name(), k.min(), k.max(), k.integer(), k.choices(),
                    () -> config.get().controller(), applyController));
        }
        return new KnobSet(knobs);
    }
}
