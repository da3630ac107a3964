package io.slagate.gateway;

import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.gateway.control.FlashCrowdWatch;
import io.slagate.gateway.control.LocalLimits;
import io.slagate.gateway.quota.Quotas;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a gateway does on its timer: the queue-timeout sweep, the end of each reporting interval (the statistics
 * window moves, the quotas' interval ends, the listeners report), the locality remap, the flash-crowd watch and the
 * local limit. One thread; a task that fails is logged and runs again.
 */
public final class GatewayTimers {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayTimers.class);

    private final ScheduledExecutorService timer;
    private final Generations generations;
    private final Quotas quotas;
    private final LongSupplier nanoClock;
    private final List<Runnable> reportListeners = new CopyOnWriteArrayList<>();
    private final FlashCrowdWatch flashCrowd = new FlashCrowdWatch();
    private final LocalLimits localLimits = new LocalLimits();

    GatewayTimers(ScheduledExecutorService timer, Generations generations, Quotas quotas, LongSupplier nanoClock) {
        this.timer = timer;
        this.generations = generations;
        this.quotas = quotas;
        this.nanoClock = nanoClock;
    }

    /** The gateway's timer thread, named for gateway {@code id}. */
    static ScheduledExecutorService executor(String id) {
        ScheduledThreadPoolExecutor stpe = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "slagate-" + id + "-timer");
            t.setDaemon(true);
            return t;
        });
        // SOAP/JMS schedules a timeout per request and cancels it on the reply: drop cancelled ones at once
        stpe.setRemoveOnCancelPolicy(true);
        return stpe;
    }

    /** Schedules every task at the pace {@code config} sets (its first configuration's: a reload keeps the pace). */
    void start(SlagateConfig config) {
        // from the first configuration's queue timeouts; a later one with shorter timeouts is swept at
        // this pace (at most every 100 ms) all the same
        long sweep = sweepIntervalMillis(config.classes());
        timer.scheduleAtFixedRate(guarded("queue-timeout sweep", generations::expireOverdue), sweep, sweep, TimeUnit.MILLISECONDS);
        long interval = config.gateway().stats().reportingInterval().toMillis();
        timer.scheduleAtFixedRate(guarded("statistics window", this::endReportingInterval), interval, interval, TimeUnit.MILLISECONDS);
        long remap = config.gateway().locality().remapInterval().toMillis();
        // every generation's queues: a new configuration's pools are remapped from its own first interval
        timer.scheduleAtFixedRate(guarded("locality remap", () -> generations.current().queues().pools().remapLocality()), remap, remap,
                TimeUnit.MILLISECONDS);
        if (config.gateway().flashCrowd() != null) {
            timer.scheduleAtFixedRate(guarded("flash-crowd watch", () -> {
                Generations.Generation g = generations.current();
                flashCrowd.tick(g.config(), g.metrics(), g.queues(), nanoClock.getAsLong());
            }), FlashCrowdWatch.TICK_MILLIS, FlashCrowdWatch.TICK_MILLIS, TimeUnit.MILLISECONDS);
        }
        if (config.gateway().localLimit()) {
            timer.scheduleAtFixedRate(guarded("local limit", () -> {
                Generations.Generation g = generations.current();
                localLimits.tick(g.config(), g.metrics(), g.queues());
            }), LocalLimits.TICK_MILLIS, LocalLimits.TICK_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    FlashCrowdWatch flashCrowd() {
        return flashCrowd;
    }

    void addFlashCrowdListener(Consumer<String> listener) {
        flashCrowd.addListener(listener);
    }

    void addReportListener(Runnable listener) {
        reportListeners.add(listener);
    }

    /** The listeners report now, on the timer (a server left or rejoined the rotation: the manager should know at once). */
    void reportSoon() {
        try {
            timer.execute(this::report);
        } catch (RejectedExecutionException stopping) {
            // the gateway is stopping
        }
    }

    /** Every reporting interval: close the window's current slot, then let the listeners (the stats publisher) read it. */
    private void endReportingInterval() {
        Generations.Generation g = generations.current();
        g.metrics().rotate();
        quotas.endInterval(g.config().gateway().stats().reportingInterval().toNanos() / 1e9, nanoClock.getAsLong());
        report();
    }

    private void report() {
        for (Runnable r : reportListeners) {
            guarded("report listener", r).run();
        }
    }

    static Runnable guarded(String what, Runnable r) {
        return () -> {
            try {
                r.run();
            } catch (Throwable t) {
                LOG.error("{} failed; will run again", what, t); // never let a timer task die silently
            }
        };
    }

    /** How often waiting requests are checked against their queue timeouts and deadlines. */
    public static long sweepIntervalMillis(List<TrafficClassConfig> classes) {
        long min = classes.stream().mapToLong(c -> Math.min(c.queueTimeout().toMillis(),
                c.deadline() == null ? Long.MAX_VALUE : c.deadline().toMillis())).min().orElse(1000);
        return Math.max(5, Math.min(100, min / 20));
    }
}
