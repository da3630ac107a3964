package io.slagate.rm;

import io.slagate.bus.ControlBus;
import io.slagate.bus.GatewayRoster;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.AllocationVersions;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.ConfigMessage;
import io.slagate.bus.message.ControlMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.Senders;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.ConfigException;
import io.slagate.config.ConfigLoader;
import io.slagate.config.ControllerSettings;
import io.slagate.config.SlagateConfig;
import io.slagate.rm.tune.OnlineTuner;
import io.slagate.rm.tune.TuningPartition;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resource manager as a running component: it feeds {@link ResourceManager} from the bus
 * (statistics and heartbeats), runs a step every control cycle Γ and publishes the allocation and
 * the decision. Everything touching the ResourceManager runs on one thread, so the decision logic
 * needs no locks. A gateway that joins (or reconnects) gets the last allocation at once. The
 * allocation version starts at the wall-clock millisecond, so a restarted manager's versions are
 * newer than its predecessor's and gateways accept them.
 */
public final class ControlLoop implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControlLoop.class);

    private final String id;
    private volatile SlagateConfig config;
    private final ControlBus bus;
    private ResourceManager rm; // loop thread only
    private final Overrides overrides;
    private final LongSupplier nanoClock;
    private final ScheduledExecutorService loop;
    private volatile boolean started;
    private ScheduledFuture<?> timer; // set by start(), then on the loop thread only
    private ScheduledFuture<?> beats; // likewise

    private final AtomicLong cycles = new AtomicLong();
    private final Standing standing; // loop thread only, but for active()
    private volatile boolean soleManager;
    private long maxVersionSeen; // loop thread only
    private final Membership membership; // loop thread only, but for its count
    private volatile DecisionMessage lastDecision;
    private volatile AllocationMessage lastAllocation;
    private final ManagerMetrics metrics;
    private final AllocationFanOut fanOut;
    private final SurgeCycles surges = new SurgeCycles(); // loop thread only, but for its count
    private final PoolMoves poolMoves = new PoolMoves(); // loop thread only, but for its counters and log
    private final Tuning tuning;
    private volatile Map<String, String> forecastErrors = Map.of();

    public ControlLoop(String id, SlagateConfig config, ControlBus bus, Overrides overrides, MeterRegistry registry) {
        this(id, config, bus, overrides, registry, System::nanoTime);
    }

    ControlLoop(String id, SlagateConfig config, ControlBus bus, Overrides overrides, MeterRegistry registry,
                LongSupplier nanoClock) {
        this.id = id;
        this.config = config;
        this.bus = bus;
        bus.whileLost("no allocation is published until it is back; every gateway keeps the one in force");
        this.overrides = overrides;
        this.nanoClock = nanoClock;
        this.rm = new ResourceManager(id, config, overrides, System.currentTimeMillis());
        this.membership = new Membership(id, new GatewayRoster(config.controller().maxGateways(), config.bus().gatewayAccounts(),
                config.bus().user()), () -> this.config.controller().maxGateways(), bus::publish, nanoClock);
        this.standing = new Standing(id, config.controller().cycle(), nanoClock, this::cycle);
        this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "slagate-rm-" + id);
            t.setDaemon(true);
            return t;
        });
        this.metrics = new ManagerMetrics(id, registry, this);
        this.fanOut = new AllocationFanOut(bus, metrics, loop, this::cycle);
        this.tuning = new Tuning(id, overrides, () -> this.config, this::applyController);
        subscribe();
    }

    /** What this manager listens to; every message is handled on the loop thread. */
    private void subscribe() {
        bus.subscribeWithSender(Topics.STATS, (m, account) -> {
            if (m instanceof StatsMessage s) {
                run(() -> onStats(s, account));
            }
        });
        bus.subscribeWithSender(Topics.CONFIG, (m, account) -> {
            if (m instanceof ConfigMessage c) {
                run(() -> onConfig(c, account));
            }
        });
        bus.subscribeWithSender(Topics.CONTROL, (m, account) -> {
            if (m instanceof ControlMessage c) {
                run(() -> onControl(c, account));
            }
        });
        // each role's heartbeats on its own topic (the broker decides who may publish there); a heartbeat
        // that claims another role than its topic's is dropped
        bus.subscribeWithSender(Topics.HEARTBEAT_GATEWAY, (m, account) -> {
            if (m instanceof HeartbeatMessage h && "gateway".equals(h.role())) {
                run(() -> onGatewayHeartbeat(h, account));
            }
        });
        bus.subscribeWithSender(Topics.HEARTBEAT_RESOURCE_MANAGER, (m, account) -> {
            if (m instanceof HeartbeatMessage h && "resource-manager".equals(h.role()) && !id.equals(h.componentId())) {
                run(() -> standing.peerHeard(h, account));
            } else if (m instanceof HeartbeatMessage h && id.equals(h.componentId()) && HeartbeatMessage.JOIN.equals(h.event())) {
                run(() -> {
                    long window = standing.ownJoinHeard();
                    if (window >= 0) {
                        loop.schedule(standing::update, window, TimeUnit.NANOSECONDS); // decided when the listening ends
                    }
                });
            }
        });
        bus.subscribe(Topics.ALLOCATION, m -> {
            if (m instanceof AllocationMessage a) {
                run(() -> {
                    if (AllocationVersions.plausible(a.version(), System.currentTimeMillis())) {
                        maxVersionSeen = Math.max(maxVersionSeen, a.version());
                    } else {
                        membership.refused("allocation v" + a.version() + " runs ahead of the clock (a forgery or a broken sender)");
                    }
                });
            }
        });
    }

    /** Whether this manager is the active one, which alone publishes allocations ({@link Standing}). */
    public boolean isActive() {
        return standing.active();
    }

    /** One heartbeat: announce this manager (active or not), then re-decide. */
    private void beat() {
        bus.publish(Topics.HEARTBEAT_RESOURCE_MANAGER, new HeartbeatMessage(BusMessage.SCHEMA, id, "resource-manager",
                standing.beatEvent(), System.currentTimeMillis(), rm.version()));
        standing.update();
    }

    /** (Re)starts the cycle timer with period {@code cycle}, and the heartbeats: the control cycle Γ may change at run time. */
    private void scheduleCycles(Duration cycle) {
        if (timer != null) {
            timer.cancel(false);
            beats.cancel(false);
        }
        long ms = cycle.toMillis();
        timer = loop.scheduleAtFixedRate(this::cycle, ms, ms, TimeUnit.MILLISECONDS);
        standing.cycleChanged(cycle);
        long beat = Standing.heartbeatInterval(cycle).toMillis();
        beats = loop.scheduleAtFixedRate(this::beat, 0, beat, TimeUnit.MILLISECONDS);
    }

    /**
     * This manager is the only one its bus can have (an in-VM broker that listens on no network): it
     * need not listen for an active one before it decides, so its first allocation is not delayed.
     */
    public ControlLoop soleManager() {
        soleManager = true;
        return this;
    }

    public ControlLoop start() {
        started = true;
        long listen = Standing.listenWindow(config.controller().cycle(), soleManager);
        loop.execute(() -> {
            standing.start(listen); // on the loop, ahead of the own join that starts the listening
            scheduleCycles(config.controller().cycle());
        });
        bus.onConnected(() -> bus.publish(Topics.HEARTBEAT_RESOURCE_MANAGER, new HeartbeatMessage(BusMessage.SCHEMA, id,
                "resource-manager", HeartbeatMessage.JOIN, System.currentTimeMillis(), rm.version())));
        LOG.info("resource manager {} started: cycle {}, combining {}, model {}, resolution {}; once on the bus, listening {} ms"
                + " for an active manager",
                id, config.controller().cycle(), config.controller().combining().name().toLowerCase(),
                config.controller().model(), config.controller().resolution(), listen / 1_000_000);
        return this;
    }

    /** Statistics count only from a gateway that joined, sent with the account it joined with. */
    void onStats(StatsMessage s, String account) {
        if (!membership.believeStats(s.gatewayId(), account)
                || !membership.plausible(s, config.classes().size(), config.servers().size())) {
            return;
        }
        Set<String> changed = rm.onStats(s, nanoClock.getAsLong());
        // a surge or a detected change: a cycle now, unless one ran within min(1 s, Γ/4)
        if (started && surges.admit(s.flashCrowd(), changed, s.gatewayId(), nanoClock.getAsLong(), config.controller().cycle())) {
            cycle();
        }
    }

    /** Bus messages this manager did not believe (unjoined or impersonated gateways, a full roster, implausible versions). */
    public long refusedMessages() {
        return membership.refusedMessages();
    }

    /** A gateway's heartbeat: one that joins gets an allocation at once (the last one if it covers it, else a new decision). */
    void onGatewayHeartbeat(HeartbeatMessage h, String account) {
        switch (membership.onHeartbeat(h, account)) {
            case RESUMED -> rm.onJoin(h.componentId(), nanoClock.getAsLong());
            case JOINED -> {
                rm.onJoin(h.componentId(), nanoClock.getAsLong());
                if (!standing.activeNow(started)) {
                    return;
                }
                AllocationMessage last = rm.lastAllocation();
                if (last != null && last.gateways().containsKey(h.componentId())) {
                    fanOut.publishTo(h.componentId(), last); // at once
                } else {
                    // a gateway the last allocation does not cover: decided with soon (now, when not started: a caller's thread drives)
                    fanOut.joined(started);
                }
            }
            case LEFT -> {
                rm.onLeave(h.componentId());
                LOG.info("gateway {} left; its share goes to the others now", h.componentId());
                cycle();
            }
            case NONE -> {
            }
        }
    }

    /**
     * A configuration changed at the console (targets, utilities, classes): decided with from the
     * next cycle on, which runs at once. One that does not load is logged and ignored.
     */
    void onConfig(ConfigMessage c, String account) {
        String who = Senders.describe(c.user(), account);
        SlagateConfig next;
        try {
            next = ConfigLoader.parseUntrusted(c.yaml(), "configuration from the bus (v" + c.version() + " by " + who + ")");
        } catch (ConfigException e) {
            LOG.warn("ignored a configuration from the bus: {}", e.getMessage());
            return;
        }
        boolean newCycle = !next.controller().cycle().equals(config.controller().cycle());
        SlagateConfig effective = poolMoves.rebase(next); // decisions afresh; moves made stay where still allowed
        rm = rm.reconfigured(effective);
        config = effective;
        membership.setMax(next.controller().maxGateways());
        LOG.info("configuration v{} by {} applied: classes {}, cycle {}, combining {}", c.version(), who,
                next.classes().stream().map(x -> x.name() + "(" + x.goalText() + ")").toList(),
                next.controller().cycle(), next.controller().combining().name().toLowerCase());
        if (newCycle && started) {
            loop.execute(() -> scheduleCycles(next.controller().cycle()));
        }
        cycle();
    }

    public SlagateConfig config() {
        return config;
    }

    /** An operator's override from the console: applied, logged, and a new decision made at once. */
    void onControl(ControlMessage c, String account) {
        String who = Senders.describe(c.user(), account);
        long now = nanoClock.getAsLong();
        if (Tuning.handles(c.command())) {
            if (tuning.command(c.command(), c.partition(), who, now)) {
                cycle(); // a new decision carries the tuners' state at once
            }
            return;
        }
        try {
            if (!OperatorOverrides.apply(c, now, overrides, poolMoves, config)) {
                LOG.warn("unknown control command {} from {}; ignored", c.command(), who);
                return;
            }
        } catch (IllegalArgumentException e) {
            LOG.warn("control command {} from {} refused: {}", c.command(), who, e.getMessage());
            return;
        }
        LOG.info("override by {}: {} gateway={} class={} server={} value={} expires in {} s", who, c.command(),
                c.gatewayId(), c.className(), c.serverId(), c.value(), c.expiresInSeconds() > 0 ? c.expiresInSeconds() : "never");
        cycle();
    }

    /** Per flow, the forecaster in use and each one's recent one-cycle error, as of the last cycle. */
    public Map<String, String> forecastErrors() {
        return forecastErrors;
    }

    /** Corrected response-time predictions so far that were not a positive number (counted, then floored). */
    public long predictionsOutOfRange() {
        return rm.predictionsOutOfRange();
    }

    /** Cycles run at once for a detected change of a flow's load or response time (not on the timer). */
    public long changeCycles() {
        return surges.changeCycles();
    }

    /** Cycles run at once for a flash crowd (not on the timer). */
    public long flashCrowdCycles() {
        return surges.granted();
    }

    /** The servers the operator pinned to their pool. */
    public Set<String> poolPins() {
        return poolMoves.pins();
    }

    /** Moves reverted because the server refused its new pool. */
    public long refusedMoves() {
        return poolMoves.refusedMoves();
    }

    /** Pool reconfiguration: refused moves reverted, then at most one server moved, each applied to the decisions at once. */
    private void reconfigurePools(long now) {
        if (!poolMoves.enabled(config)) {
            return;
        }
        SlagateConfig reverted = poolMoves.revertRefused(rm.refusedPools());
        if (reverted != null) {
            config = reverted;
            rm = rm.reconfigured(config);
        }
        SlagateConfig next = poolMoves.move(now, rm::offeredLoad, () -> rm.serverStates(now));
        if (next != null) {
            config = next;
            rm = rm.reconfigured(config);
        }
    }

    /** The first partition's safe and experimental side's utilities at the last cycle (NaN without tuning or traffic). */
    public double[] sideUtilities() {
        return tuning.sideUtilities();
    }

    /**
     * A tuner's change of the controller's settings, on the loop's thread: the manager decides with them from
     * the next cycle on (what it learned carries over, as for a new configuration), and a new Γ reschedules the cycles.
     * A configuration pushed later by the console replaces them, as it replaces everything.
     */
    private void applyController(UnaryOperator<ControllerSettings> change) {
        Duration before = config.controller().cycle();
        config = poolMoves.change(config, c -> c.withController(change.apply(c.controller())));
        rm = rm.reconfigured(config);
        Duration after = config.controller().cycle();
        if (!after.equals(before) && started) {
            loop.execute(() -> scheduleCycles(after));
        }
    }

    /** The first (or only) partition's tuner, or null when controller.tuning is not configured or before the first cycle. */
    public OnlineTuner tuner() {
        return tuning.first();
    }

    /** The tuning partitions, in the configuration's order; empty before the first cycle. */
    public List<TuningPartition> tuningPartitions() {
        return tuning.partitions();
    }

    /** Servers moved between pools since start. */
    public long poolMoves() {
        return poolMoves.moves();
    }

    /** The pool each server serves now, by id. */
    public Map<String, String> serverPools() {
        return PoolMoves.serverPools(config);
    }

    /** The last pool moves, oldest first. */
    public List<String> poolMoveLog() {
        return poolMoves.log();
    }

    /** One control cycle; never throws (a failure is logged and the next cycle runs). */
    void cycle() {
        long now = nanoClock.getAsLong(), cpu = CycleCpu.threadNanos(); // the cycle's own CPU, published with its decision
        surges.cycled(now);
        try {
            reconfigurePools(now);
            if (standing.activeNow(started)) {
                rm.advanceVersionTo(maxVersionSeen);
            }
            long t0 = System.nanoTime();
            ResourceManager.Decision d = rm.step(nanoClock.getAsLong());
            membership.retain(new HashSet<>(rm.liveGateways())); // expired for silence: must join again
            metrics.cycleSolved(System.nanoTime() - t0);
            cycles.incrementAndGet();
            if (!standing.active()) {
                return; // standing by: decided, not published
            }
            if (d.allocation() != null) {
                lastAllocation = d.allocation();
                fanOut.publish(d.allocation());
            }
            tuning.tick(now, rm::measuredUtility, rm.windowCycles());
            if (d.decision() != null) {
                DecisionMessage decision = (tuning.isEmpty() ? d.decision() : d.decision().withTuning(tuning.status())).withCycleCpuMillis(CycleCpu.millisSince(cpu));
                lastDecision = decision;
                bus.publish(Topics.DECISION, decision);
                metrics.recordFlows(d.decision());
                metrics.recordDeficits(rm.deficits(), rm.refusedFigures());
                metrics.recordLimits(rm.concurrencyLimits());
                forecastErrors = rm.forecastErrors();
            }
        } catch (RuntimeException e) {
            LOG.error("control cycle failed; gateways keep the last allocation", e);
        }
    }

    /** The automatic N_s of a server as of the last cycle, or -1 for a server without {@code concurrency: auto}. */
    public int concurrency(String server) {
        return metrics.concurrency(server);
    }

    /**
     * The servers of the pool's mean size to add for every class to meet its goals, as of the last
     * cycle (−1: more servers would not help; NaN: no cycle has sized this pool yet).
     */
    public double capacityDeficitServers(String pool) {
        return metrics.capacityDeficitServers(pool);
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

    public DecisionMessage lastDecision() {
        return lastDecision;
    }

    public AllocationMessage lastAllocation() {
        return lastAllocation;
    }

    public long cycles() {
        return cycles.get();
    }

    public Overrides overrides() {
        return overrides;
    }

    /**
     * An operator's command from this process (an embedding program, an experiment), run on the loop's thread as one
     * from the bus would be; returns when it has been carried out.
     */
    public void command(ControlMessage c) throws Exception {
        loop.submit(() -> onControl(c, "local")).get();
    }

    /**
     * Puts a tuning partition's knobs on {@code values} (in its knobs' order), on the loop's thread, with its tuner
     * stopped or not; for an experiment that compares configurations side by side after tuning.
     */
    public void putTuned(String partition, double[] values) throws Exception {
        loop.submit(() -> {
            tuning.partition(partition).tuner().restore(values);
            return null;
        }).get();
    }

    public List<String> liveGateways() throws Exception {
        return loop.submit(rm::liveGateways).get();
    }

    @Override
    public void close() {
        bus.publish(Topics.HEARTBEAT_RESOURCE_MANAGER, new HeartbeatMessage(BusMessage.SCHEMA, id, "resource-manager",
                HeartbeatMessage.LEAVE, System.currentTimeMillis(), rm.version()));
        loop.shutdownNow();
    }
}
