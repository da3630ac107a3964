package io.slagate.console;

import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.config.TuningSettings;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console owns the configuration file, so it is the one that makes the tuner's work durable. When a
 * decision says the tuner's best configuration changed (a promotion, a revert, an operator's start from a new best),
 * it is written back as the partition's {@code best} (validated, atomic, the previous file kept as {@code .bak}) and
 * audited as the resource manager's; a restart then starts tuning from it. Decisions come only from the resource
 * manager's bus account (the broker's authorization), so nothing else can write here.
 */
final class TuningWriteBack implements Consumer<BusMessage> {
    private static final Logger LOG = LoggerFactory.getLogger(TuningWriteBack.class);
    private final ConfigEditor editor;
    private final AuditLog audit;
    /** Per partition, what was last written, or found in the file. */
    private final Map<String, Map<String, Double>> written = new HashMap<>();

    TuningWriteBack(ConfigEditor editor, AuditLog audit) {
        this.editor = editor;
        this.audit = audit;
    }

    @Override
    public synchronized void accept(BusMessage m) {
        if (!(m instanceof DecisionMessage d) || editor.yaml() == null) {
            return; // no file to write to
        }
        for (DecisionMessage.TuningStatus t : d.tuning()) {
            writeBack(d.managerId(), t);
        }
    }

    private void writeBack(String manager, DecisionMessage.TuningStatus t) {
        if (t.best().isEmpty() || t.best().size() != t.knobs().size()) {
            return; // nothing measured yet
        }
        Map<String, Double> best = new LinkedHashMap<>();
        for (int i = 0; i < t.knobs().size(); i++) {
            best.put(t.knobs().get(i), t.best().get(i));
        }
        if (!written.containsKey(t.partition())) {
            editor.config().controller().tuning().stream().filter(s -> s.partition().equals(t.partition())).findFirst()
                    .ifPresent(s -> written.put(t.partition(), s.best()));
        }
        if (best.equals(written.get(t.partition()))) {
            return;
        }
        written.put(t.partition(), best); // once, even if refused: a refused value is not retried at every cycle
        String what = TuningSettings.DEFAULT.equals(t.partition()) ? best.toString() : t.partition() + " " + best;
        try {
            editor.putTuningBest(t.partition(), best);
            audit.record("resource-manager " + manager, "tuning-best", what, "bus");
            LOG.info("tuning: the best configuration {} is written back to the configuration file", what);
        } catch (IOException | RuntimeException e) {
            LOG.warn("tuning: the best configuration {} could not be written back: {}", what, e.getMessage());
        }
    }
}
