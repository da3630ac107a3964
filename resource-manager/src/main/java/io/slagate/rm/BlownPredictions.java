package io.slagate.rm;

import io.slagate.util.LogLimiter;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Says a prediction that missed by over 10× at WARN, at most every 10 s, with what led to it and the model's name. */
final class BlownPredictions implements Consumer<Supplier<String>> {
    private static final Logger LOG = LoggerFactory.getLogger(BlownPredictions.class);
    private final String model;
    private final LogLimiter warnings = new LogLimiter(Duration.ofSeconds(10));

    BlownPredictions(String model) {
        this.model = model;
    }

    @Override
    public void accept(Supplier<String> what) {
        if (warnings.allow()) {
            LOG.warn("{} — the {} model is wrong here", what.get(), model);
        }
    }
}
