package io.slagate.rm;

import io.slagate.bus.ControlBus;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.ConfigMessage;
import io.slagate.bus.message.ControlMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.SlagateConfig;
import io.slagate.rm.tune.OnlineTuner;
import io.slagate.rm.tune.TuningPartition;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resource manager as a running component: one thread that takes the bus's messages, runs a cycle every control
 * cycle Γ and sends heartbeats, each handed to {@link ManagerCore}, so the decision logic needs no locks. Everyone
 * else reads {@link #status()}. The allocation version starts at the wall-clock millisecond, so a restarted
 * manager's versions are newer than its predecessor's and gateways accept them.
 */
public final class ControlLoop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControlLoop.class);

    private final String id;
    private final ControlBus bus;
    private final Overrides overrides;
    private final ScheduledExecutorService loop;
    private final ManagerCore core;
    private boolean soleManager;
    private ScheduledFuture<?> timer; // set by start(), then on the loop thread only
    private ScheduledFuture<?> beats; // likewise

    public ControlLoop(String id, SlagateConfig config, ControlBus bus, Overrides overrides, MeterRegistry registry) {
        this(id, config, bus, overrides, registry, System::nanoTime);
    }

    ControlLoop(String id, SlagateConfig config, ControlBus bus, Overrides overrides, MeterRegistry registry,
                LongSupplier nanoClock) {
        this.id = id;
        this.bus = bus;
        bus.whileLost("no allocation is published until it is back; every gateway keeps the one in force");
        this.overrides = overrides;
        this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "slagate-rm-" + id);
            t.setDaemon(true);
            return t;
        });
        this.core = new ManagerCore(id, config, bus, overrides, registry, nanoClock, loop,
                cycle -> loop.execute(() -> scheduleCycles(cycle)));
        subscribe();
    }

    /** What this manager listens to; every message is handled on the loop thread. */
    private void subscribe() {
        bus.subscribeWithSender(Topics.STATS, (m, account) -> {
            if (m instanceof StatsMessage s) {
                run(() -> core.onStats(s, account));
            }
        });
        bus.subscribeWithSender(Topics.CONFIG, (m, account) -> {
            if (m instanceof ConfigMessage c) {
                run(() -> core.onConfig(c, account));
            }
        });
        bus.subscribeWithSender(Topics.CONTROL, (m, account) -> {
            if (m instanceof ControlMessage c) {
                run(() -> core.onControl(c, account));
            }
        });
        // each role's heartbeats on its own topic (the broker decides who may publish there); a heartbeat
        // that claims another role than its topic's is dropped
        bus.subscribeWithSender(Topics.HEARTBEAT_GATEWAY, (m, account) -> {
            if (m instanceof HeartbeatMessage h && "gateway".equals(h.role())) {
                run(() -> core.onGatewayHeartbeat(h, account));
            }
        });
        bus.subscribeWithSender(Topics.HEARTBEAT_RESOURCE_MANAGER, (m, account) -> {
            if (m instanceof HeartbeatMessage h && "resource-manager".equals(h.role()) && !id.equals(h.componentId())) {
                run(() -> core.onPeerHeartbeat(h, account));
            } else if (m instanceof HeartbeatMessage h && id.equals(h.componentId()) && HeartbeatMessage.JOIN.equals(h.event())) {
                run(() -> {
                    long window = core.standing().ownJoinHeard();
                    if (window >= 0) { // decided when the listening ends
                        loop.schedule(core::decideStanding, window, TimeUnit.NANOSECONDS);
                    }
                });
            }
        });
        bus.subscribe(Topics.ALLOCATION, m -> {
            if (m instanceof AllocationMessage a) {
                run(() -> core.onAllocationSeen(a));
            }
        });
    }

    /** (Re)starts the cycle timer with period {@code cycle}, and the heartbeats: the control cycle Γ may change at run time. */
    private void scheduleCycles(Duration cycle) {
        if (timer != null) {
            timer.cancel(false);
            beats.cancel(false);
        }
        long ms = cycle.toMillis();
        timer = loop.scheduleAtFixedRate(core::cycle, ms, ms, TimeUnit.MILLISECONDS);
        core.standing().cycleChanged(cycle);
        long beat = Standing.heartbeatInterval(cycle).toMillis();
        beats = loop.scheduleAtFixedRate(core::beat, 0, beat, TimeUnit.MILLISECONDS);
    }

    /**
     * This manager is the only one its bus can have (an in-VM broker that listens on no network): it
     * need not listen for an active one before it decides, so its first allocation is not delayed.
     */
    public ControlLoop soleManager() {
        soleManager = true;
        return this;
    }

    /** Where the classes' error budgets stand, for {@code controller.errorBudget} (the SLA store's reader, set before start). */
    public ControlLoop budgetSource(BudgetSource source) {
        loop.execute(() -> core.budgetSource(source));
        return this;
    }

    public ControlLoop start() {
        core.started();
        SlagateConfig config = core.config();
        long listen = Standing.listenWindow(config.controller().cycle(), soleManager);
        loop.execute(() -> {
            core.standing().start(listen); // on the loop, ahead of the own join that starts the listening
            scheduleCycles(core.config().controller().cycle());
        });
        bus.onConnected(() -> bus.publish(Topics.HEARTBEAT_RESOURCE_MANAGER, core.heartbeat(HeartbeatMessage.JOIN)));
        LOG.info("resource manager {} started: cycle {}, combining {}, model {}, resolution {}; once on the bus, listening {} ms"
                + " for an active manager",
                id, config.controller().cycle(), config.controller().combining().name().toLowerCase(),
                config.controller().model(), config.controller().resolution(), listen / 1_000_000);
        return this;
    }

    /** What the manager shows of itself as of its last cycle or message handled. */
    public ControlStatus status() {
        return core.status();
    }

    /** The decisions' logic, for tests that drive it from their own thread before {@link #start()}. */
    ManagerCore core() {
        return core;
    }

    /** The first (or only) partition's tuner, or null when controller.tuning is not configured or before the first cycle. */
    public OnlineTuner tuner() {
        return core.tuning().first();
    }

    /** The tuning partitions, in the configuration's order; empty before the first cycle. */
    public List<TuningPartition> tuningPartitions() {
        return core.tuning().partitions();
    }

    public Overrides overrides() {
        return overrides;
    }

    private void run(Runnable r) {
        try {
            loop.execute(() -> {
                try {
                    r.run();
                } catch (RuntimeException e) {
                    LOG.error("resource manager: handling a bus message failed", e);
                }
            });
        } catch (RejectedExecutionException e) {
            // closing
        }
    }

    /**
     * An operator's command from this process (an embedding program, an experiment), run on the loop's thread as one
     * from the bus would be; returns when it has been carried out.
     */
    public void command(ControlMessage c) throws Exception {
        loop.submit(() -> core.onControl(c, "local")).get();
    }

    /**
     * Puts a tuning partition's knobs on {@code values} (in its knobs' order), on the loop's thread, with its tuner
     * stopped or not; for an experiment that compares configurations side by side after tuning.
     */
    public void putTuned(String partition, double[] values) throws Exception {
        loop.submit(() -> {
            core.tuning().partition(partition).tuner().restore(values);
            return null;
        }).get();
    }

    /** The gateways the manager counts as live, asked on its thread. */
    public List<String> liveGateways() throws Exception {
        return loop.submit(core::liveGateways).get();
    }

    @Override
    public void close() {
        bus.publish(Topics.HEARTBEAT_RESOURCE_MANAGER, core.heartbeat(HeartbeatMessage.LEAVE));
        loop.shutdownNow();
    }
}
