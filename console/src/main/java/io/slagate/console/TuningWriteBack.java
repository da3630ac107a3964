package io.slagate.console;

import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.DecisionMessage;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 18: the console owns the configuration file, so it is the one that makes the tuner's work durable. When a
 * decision says the tuner's best configuration changed (a promotion, a revert, an operator's start from a new best),
 * it is written back as {@code controller.tuning.best} (validated, atomic, the previous file kept as {@code .bak}) and
 * audited as the resource manager's; a restart then starts tuning from it. Decisions come only from the resource
 * manager's bus account (the broker's authorization), so nothing else can write here.
 */
final class TuningWriteBack implements Consumer<BusMessage> {
    private static final Logger LOG = LoggerFactory.getLogger(TuningWriteBack.class);
    private final ConfigEditor editor;
    private final AuditLog audit;
    /** What was last written, or found in the file (null: not looked yet). */
    private Map<String, Double> written;

    TuningWriteBack(ConfigEditor editor, AuditLog audit) {
        this.editor = editor;
        this.audit = audit;
    }

    @Override
    public synchronized void accept(BusMessage m) {
        if (!(m instanceof DecisionMessage d) || d.tuning() == null) {
            return;
        }
        DecisionMessage.TuningStatus t = d.tuning();
        if (t.best().isEmpty() || t.best().size() != t.knobs().size() || editor.yaml() == null) {
            return; // nothing measured yet, or no file to write to
        }
        Map<String, Double> best = new LinkedHashMap<>();
        for (int i = 0; i < t.knobs().size(); i++) {
            best.put(t.knobs().get(i), t.best().get(i));
        }
        if (written == null && editor.config().controller().tuning() != null) {
            written = editor.config().controller().tuning().best();
        }
        if (best.equals(written)) {
            return;
        }
        written = best; // once, even if refused: a refused value is not retried at every cycle
        try {
            editor.putTuningBest(best);
            audit.record("resource-manager " + d.managerId(), "tuning-best", best.toString(), "bus");
            LOG.info("tuning: the best configuration {} is written back to the configuration file", best);
        } catch (java.io.IOException | RuntimeException e) {
            LOG.warn("tuning: the best configuration {} could not be written back: {}", best, e.getMessage());
        }
    }
}
