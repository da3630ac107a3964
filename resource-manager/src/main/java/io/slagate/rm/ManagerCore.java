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
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resource manager's handling of its inputs, on one thread: statistics and heartbeats feed {@link ResourceManager},
 * a configuration or an operator's override changes what it decides with, and every control cycle Γ it decides and
 * publishes the allocation and the decision. A gateway that joins (or reconnects) gets the last allocation at once.
 * After each input and each cycle it takes a {@link ControlStatus}, the only thing other threads read. Which thread
 * runs it, and when, is {@link ControlLoop}'s business.
 */
final class ManagerCore {
    private static final Logger LOG = LoggerFactory.getLogger(ManagerCore.class);

    private final String id;
    private final ControlBus bus;
    private final Overrides overrides;
    private final LongSupplier nanoClock;
    /** Whether the manager runs on its own timer (until then a caller's thread drives the cycles). */
    private volatile boolean started;
    private final Consumer<Duration> reschedule;
    private SlagateConfig config;
    private ResourceManager rm;
    private final Standing standing;
    private final Membership membership;
    private final ManagerMetrics metrics;
    private final AllocationFanOut fanOut;
    private final SurgeCycles surges = new SurgeCycles();
    private final PoolMoves poolMoves = new PoolMoves();
    private final Tuning tuning;
    private long maxVersionSeen;
    private long cycles;
    private DecisionMessage lastDecision;
    private AllocationMessage lastAllocation;
    private Map<String, String> forecastErrors = Map.of();
    private volatile ControlStatus status;

    /**
     * @param reschedule runs the cycles every Γ from now on, for a Γ that changed
     */
    ManagerCore(String id, SlagateConfig config, ControlBus bus, Overrides overrides, MeterRegistry registry, LongSupplier nanoClock,
                ScheduledExecutorService loop, Consumer<Duration> reschedule) {
        this.id = id;
        this.config = config;
        this.bus = bus;
        this.overrides = overrides;
        this.nanoClock = nanoClock;
        this.reschedule = reschedule;
        this.rm = new ResourceManager(id, config, overrides, System.currentTimeMillis());
        this.membership = new Membership(id, new GatewayRoster(config.controller().maxGateways(), config.bus().gatewayAccounts(),
                config.bus().user()), () -> this.config.controller().maxGateways(), bus::publish, nanoClock);
        this.standing = new Standing(id, config.controller().cycle(), nanoClock, this::cycle);
        this.metrics = new ManagerMetrics(id, registry, this);
        this.fanOut = new AllocationFanOut(bus, metrics, loop, this::cycle);
        this.tuning = new Tuning(id, overrides, () -> this.config, this::applyController);
        publishStatus();
    }

    /** The manager runs on its own timer from now on. */
    void budgetSource(BudgetSource source) {
        rm.budgetSource(source);
    }

    void started() {
        started = true;
    }

    ControlStatus status() {
        return status;
    }

    SlagateConfig config() {
        return config;
    }

    Tuning tuning() {
        return tuning;
    }

    Standing standing() {
        return standing;
    }

    /** Statistics count only from a gateway that joined, sent with the account it joined with. */
    void onStats(StatsMessage s, String account) {
        if (membership.believeStats(s.gatewayId(), account)
                && membership.plausible(s, config.classes().size(), config.servers().size())) {
            Set<String> changed = rm.onStats(s, nanoClock.getAsLong());
            // a surge or a detected change: a cycle now, unless one ran within min(1 s, Γ/4)
            if (started && surges.admit(s.flashCrowd(), changed, s.gatewayId(), nanoClock.getAsLong(),
                    config.controller().cycle())) {
                cycle();
            }
        }
        publishStatus();
    }

    /** A gateway's heartbeat: one that joins gets an allocation at once (the last one if it covers it, else a new decision). */
    void onGatewayHeartbeat(HeartbeatMessage h, String account) {
        switch (membership.onHeartbeat(h, account)) {
            case RESUMED -> rm.onJoin(h.componentId(), nanoClock.getAsLong());
            case JOINED -> {
                rm.onJoin(h.componentId(), nanoClock.getAsLong());
                if (standing.activeNow(started)) {
                    AllocationMessage last = rm.lastAllocation();
                    if (last != null && last.gateways().containsKey(h.componentId())) {
                        fanOut.publishTo(h.componentId(), last); // at once
                    } else {
                        // a gateway the last allocation does not cover: decided with soon (now, when not started: a caller's thread drives)
                        fanOut.joined(started);
                    }
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
        publishStatus();
    }

    /** Another manager's heartbeat ({@link Standing}). */
    void onPeerHeartbeat(HeartbeatMessage h, String account) {
        standing.peerHeard(h, account);
        publishStatus();
    }

    /** Decides whether this manager is the active one now, as when its listening for an active one ends. */
    void decideStanding() {
        standing.update();
        publishStatus();
    }

    /** An allocation on the bus, this manager's or another's: a newer version than any seen is the floor for its own. */
    void onAllocationSeen(AllocationMessage a) {
        if (AllocationVersions.plausible(a.version(), System.currentTimeMillis())) {
            maxVersionSeen = Math.max(maxVersionSeen, a.version());
        } else {
            membership.refused("allocation v" + a.version() + " runs ahead of the clock (a forgery or a broken sender)");
        }
        publishStatus();
    }

    /** One heartbeat: announce this manager (active or not), then re-decide whether it is the active one. */
    void beat() {
        bus.publish(Topics.HEARTBEAT_RESOURCE_MANAGER, heartbeat(standing.beatEvent()));
        standing.update();
        publishStatus();
    }

    HeartbeatMessage heartbeat(String event) {
        return new HeartbeatMessage(BusMessage.SCHEMA, id, "resource-manager", event, System.currentTimeMillis(), rm.version());
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
            reschedule.accept(next.controller().cycle());
        }
        cycle();
    }

    /** An operator's override from the console: applied, logged, and a new decision made at once. */
    void onControl(ControlMessage c, String account) {
        String who = Senders.describe(c.user(), account);
        long now = nanoClock.getAsLong();
        if (Tuning.handles(c.command())) {
            if (tuning.command(c.command(), c.partition(), who, now)) {
                cycle(); // a new decision carries the tuners' state at once
            }
            publishStatus();
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

    /**
     * A tuner's change of the controller's settings: the manager decides with them from the next cycle on (what it
     * learned carries over, as for a new configuration), and a new Γ reschedules the cycles. A configuration pushed
     * later by the console replaces them, as it replaces everything.
     */
    private void applyController(UnaryOperator<ControllerSettings> change) {
        Duration before = config.controller().cycle();
        config = poolMoves.change(config, c -> c.withController(change.apply(c.controller())));
        rm = rm.reconfigured(config);
        Duration after = config.controller().cycle();
        if (!after.equals(before) && started) {
            reschedule.accept(after);
        }
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
            cycles++;
            if (standing.active()) { // standing by: decided, not published
                publish(d, now, cpu);
            }
        } catch (RuntimeException e) {
            LOG.error("control cycle failed; gateways keep the last allocation", e);
        } finally {
            publishStatus();
        }
    }

    private void publish(ResourceManager.Decision d, long now, long cpu) {
        if (d.allocation() != null) {
            lastAllocation = d.allocation();
            fanOut.publish(d.allocation());
        }
        tuning.tick(now, rm::measuredUtility, rm.windowCycles());
        if (d.decision() != null) {
            DecisionMessage decision = (tuning.isEmpty() ? d.decision() : d.decision().withTuning(tuning.status()))
                    .withCycleCpuMillis(CycleCpu.millisSince(cpu));
            lastDecision = decision;
            bus.publish(Topics.DECISION, decision);
            metrics.recordFlows(d.decision());
            metrics.recordDeficits(rm.deficits(), rm.refusedFigures());
            metrics.recordLimits(rm.concurrencyLimits());
            forecastErrors = rm.forecastErrors();
        }
    }

    /** The gateways the manager counts as live now. */
    java.util.List<String> liveGateways() {
        return rm.liveGateways();
    }

    private void publishStatus() {
        status = new ControlStatus(cycles, standing.active(), config, lastDecision, lastAllocation,
                new ControlStatus.Counts(surges.changeCycles(), surges.granted(), rm.predictionsOutOfRange(), membership.refusedMessages()),
                new ControlStatus.Pools(poolMoves.pins(), poolMoves.moves(), poolMoves.refusedMoves(),
                        poolMoves.log()),
                new ControlStatus.Figures(forecastErrors, tuning.sideUtilities(), metrics.concurrencies(), metrics.deficitServers()));
    }
}
