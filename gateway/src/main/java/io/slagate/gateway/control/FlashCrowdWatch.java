package io.slagate.gateway.control;

import io.slagate.config.FlashCrowdSettings;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.stats.GatewayMetrics;
import io.slagate.util.Recent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's flash-crowd defence, ticked every {@value #TICK_MILLIS} ms on the gateway's timer:
 * each class's arrivals over the last second against its usual rate ({@link FlashCrowdDetector}).
 * A surge is logged, shown in {@code /stats}, told to the listeners (the agent reports it to the
 * resource manager at once) and, with {@code protect}, the class is held to its share while it
 * lasts. A new configuration's classes are learned afresh.
 */
public final class FlashCrowdWatch {
    private static final Logger LOG = LoggerFactory.getLogger(FlashCrowdWatch.class);
    public static final long TICK_MILLIS = 250;
    private static final int EVENTS_KEPT = 20;

    private volatile FlashCrowdDetector detector;
    /** The queues the detector was built for: a new configuration's are new queues. */
    private volatile QueueManager detectorOf;
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    /** The last events, newest last, for {@code /stats}. */
    private final Recent<Map<String, Object>> events = new Recent<>(EVENTS_KEPT);

    /** Called with the class's name when a class's arrivals surge. */
    public void addListener(Consumer<String> listener) {
        listeners.add(listener);
    }

    /** One tick over the configuration in force: its classes' arrivals so far at {@code nowNanos}. */
    public void tick(SlagateConfig config, GatewayMetrics metrics, QueueManager queues, long nowNanos) {
        FlashCrowdSettings fc = config.gateway().flashCrowd();
        if (fc == null) {
            return;
        }
        int n = config.classes().size();
        if (detectorOf != queues) {
            detector = new FlashCrowdDetector(n, fc.factor(), fc.minRate(), fc.maxDuration());
            detectorOf = queues;
        }
        long[] arrived = new long[n];
        for (int c = 0; c < n; c++) {
            arrived[c] = metrics.arrivedCount(c);
        }
        for (FlashCrowdDetector.Event e : detector.tick(nowNanos, arrived)) {
            String cls = config.classes().get(e.classIndex()).name();
            log(e, cls, fc);
            if (fc.protect()) {
                queues.protectAgainst(e.classIndex(), e.raised());
            }
            record(e, cls);
            if (e.raised()) {
                for (Consumer<String> l : listeners) {
                    try {
                        l.accept(cls);
                    } catch (RuntimeException x) {
                        LOG.warn("flash-crowd listener failed", x);
                    }
                }
            }
        }
    }

    private static void log(FlashCrowdDetector.Event e, String cls, FlashCrowdSettings fc) {
        if (e.raised()) {
            LOG.warn("flash crowd: class {} arrives at {} req/s, {} times its usual {} req/s; {}the resource manager is asked"
                    + " for a control cycle now", cls, Math.round(e.rate()), Math.round(e.rate() / Math.max(e.usual(), fc.minRate())),
                    Math.round(e.usual()), fc.protect() ? "it is held to its share of the allocation in force while it lasts; " : "");
        } else {
            LOG.info("flash crowd of class {} over: {} req/s now (usual {} req/s){}", cls, Math.round(e.rate()), Math.round(e.usual()),
                    fc.protect() ? "; its share is no longer capped" : "");
        }
    }

    private void record(FlashCrowdDetector.Event e, String cls) {
        Map<String, Object> ev = new LinkedHashMap<>();
        ev.put("timestampMillis", System.currentTimeMillis());
        ev.put("class", cls);
        ev.put("event", e.raised() ? "raised" : "over");
        ev.put("rate", Math.round(e.rate() * 10) / 10.0);
        ev.put("usualRate", Math.round(e.usual() * 10) / 10.0);
        events.add(ev);
    }

    /** For {@code /stats}: the classes alarmed now (of {@code queues}' configuration) and the last events. */
    public Map<String, Object> view(SlagateConfig config, QueueManager queues) {
        List<String> alarmed = new ArrayList<>();
        FlashCrowdDetector d = detector;
        for (int c = 0; d != null && detectorOf == queues && c < config.classes().size(); c++) {
            if (d.alarmed(c)) {
                alarmed.add(config.classes().get(c).name());
            }
        }
        Map<String, Object> fc = new LinkedHashMap<>();
        fc.put("alarmed", alarmed);
        fc.put("events", events.oldestFirst());
        return fc;
    }
}
