package io.slagate.rm;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.slagate.bus.ControlBus;
import io.slagate.bus.GatewayRoster;
import io.slagate.config.SlagateConfig;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.AllocationVersions;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.ControlMessage;
import io.slagate.bus.message.ConfigMessage;
import io.slagate.config.ConfigException;
import io.slagate.config.ConfigLoader;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
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
    private java.util.concurrent.ScheduledFuture<?> timer; // set by start(), then on the loop thread only
    private java.util.concurrent.ScheduledFuture<?> beats; // likewise

    private final AtomicLong cycles = new AtomicLong();
    /** A peer manager is live for this many heartbeat intervals after its last beat. */
    static final int PEER_EXPIRY_BEATS = 3;
    private final Election election; // loop thread only
    private volatile long listenNanos;
    private volatile boolean soleManager;
    private long maxVersionSeen; // loop thread only
    private final GatewayRoster roster; // loop thread only
    private final java.util.concurrent.atomic.AtomicLong refusedMessages = new java.util.concurrent.atomic.AtomicLong();
    private long lastRefusedWarn = System.nanoTime() - 10_000_000_000L; // loop thread only
    private volatile boolean active;
    private volatile DecisionMessage lastDecision;
    private volatile AllocationMessage lastAllocation;
    private final Timer solveTimer;
    private final Counter cycleCounter;
    private final Map<String, double[]> flowGauges = new ConcurrentHashMap<>();
    private final Map<String, double[]> deficitGauges = new ConcurrentHashMap<>();
    private final MeterRegistry registry;

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
        this.registry = registry;
        this.rm = new ResourceManager(id, config, overrides, System.currentTimeMillis());
        this.roster = new GatewayRoster(config.controller().maxGateways(), config.bus().gatewayAccounts(), config.bus().user());
        this.election = new Election(id, PEER_EXPIRY_BEATS * heartbeatInterval(config.controller().cycle()).toNanos());
        this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "slagate-rm-" + id);
            t.setDaemon(true);
            return t;
        });
        solveTimer = Timer.builder("slagate.rm.solve").tag("manager", id)
                .description("Time to compute one allocation (all pools)").register(registry);
        cycleCounter = Counter.builder("slagate.rm.cycles").tag("manager", id).register(registry);
        Gauge.builder("slagate.rm.utility", this, c -> c.lastDecision == null ? Double.NaN : c.lastDecision.clusterUtility())
                .tag("manager", id).description("Cluster utility of the last decision (eq. 2)").register(registry);
        Gauge.builder("slagate.rm.version", this, c -> c.lastAllocation == null ? 0 : c.lastAllocation.version())
                .tag("manager", id).description("Version of the last allocation published").register(registry);
        Gauge.builder("slagate.rm.pool.moves", this, c -> c.poolMoves()).tag("manager", id)
                .description("Servers moved between pools since start").register(registry);
        Gauge.builder("slagate.rm.pool.moves.refused", this, c -> c.refusedMoves()).tag("manager", id)
                .description("Pool moves reverted because the server refused the new pool's requests").register(registry);
        Gauge.builder("slagate.rm.gateways", this, c -> c.lastAllocation == null ? 0 : c.lastAllocation.gateways().size())
                .tag("manager", id).description("Gateways in the last allocation").register(registry);
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
        bus.subscribe(Topics.HEARTBEAT_RESOURCE_MANAGER, m -> {
            if (m instanceof HeartbeatMessage h && "resource-manager".equals(h.role()) && !id.equals(h.componentId())) {
                run(() -> onPeerHeartbeat(h));
            } else if (m instanceof HeartbeatMessage h && id.equals(h.componentId()) && HeartbeatMessage.JOIN.equals(h.event())) {
                // its own join came back: the bus delivers to it now, so the listening starts (once); a peer that
                // beats every interval is heard within it, however long connecting and subscribing took
                run(() -> {
                    if (election.awaitingBus()) {
                        election.listen(nanoClock.getAsLong(), listenNanos);
                        updateActive();
                        loop.schedule(this::updateActive, listenNanos, TimeUnit.NANOSECONDS); // decided when it ends
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
                        refused("allocation v" + a.version() + " runs ahead of the clock (a forgery or a broken sender)");
                    }
                });
            }
        });
    }

    /**
     * Active or standby. Several managers may run (one per host, say); each announces itself every
     * heartbeat interval, saying whether it is active, and only the active one publishes
     * allocations. A manager that starts listens for 1.5 to 2 intervals before it may become active,
     * and never preempts a live active one; see {@link Election} for the rules. A standby keeps
     * deciding (so its state is warm) and takes over at once when the active one leaves, or within
     * {@value #PEER_EXPIRY_BEATS} + 1 intervals when it falls silent; its first allocation is decided
     * at once and numbered above every version it has seen, so gateways accept it.
     */
    public boolean isActive() {
        return active;
    }

    /**
     * The managers' heartbeat interval: min(Γ, 1 s). Takeover and a new manager's listening are
     * counted in intervals, so a long control cycle does not slow them.
     */
    static java.time.Duration heartbeatInterval(java.time.Duration cycle) {
        return cycle.compareTo(java.time.Duration.ofSeconds(1)) < 0 ? cycle : java.time.Duration.ofSeconds(1);
    }

    private void onPeerHeartbeat(HeartbeatMessage h) {
        if (HeartbeatMessage.LEAVE.equals(h.event())) {
            election.left(h.componentId());
        } else {
            election.heard(h.componentId(), HeartbeatMessage.ACTIVE.equals(h.event()), nanoClock.getAsLong());
        }
        updateActive();
    }

    /** Re-decides active or standby; a manager that has just become active decides and publishes at once. */
    private void updateActive() {
        boolean was = active;
        boolean wasListening = election.listening();
        active = election.update(nanoClock.getAsLong());
        if (active != was || wasListening && !election.listening()) {
            if (active) {
                LOG.info("resource manager {} is now active", id);
                cycle();
            } else {
                LOG.info("resource manager {} stands by: {} is active", id, election.deferringTo());
            }
        }
    }

    /** Whether active now; a manager driven by hand, not started, has no heartbeats to decide it by. */
    private boolean activeNow() {
        if (!started) {
            active = election.update(nanoClock.getAsLong());
        }
        return active;
    }

    /** One heartbeat: announce this manager (active or not), then re-decide. */
    private void beat() {
        bus.publish(Topics.HEARTBEAT_RESOURCE_MANAGER, new HeartbeatMessage(BusMessage.SCHEMA, id, "resource-manager",
                active ? HeartbeatMessage.ACTIVE : HeartbeatMessage.ALIVE, System.currentTimeMillis(), rm.version()));
        updateActive();
    }

    /** (Re)starts the cycle timer with period {@code cycle}, and the heartbeats: the control cycle Γ may change at run time. */
    private void scheduleCycles(java.time.Duration cycle) {
        if (timer != null) {
            timer.cancel(false);
            beats.cancel(false);
        }
        long ms = cycle.toMillis();
        timer = loop.scheduleAtFixedRate(this::cycle, ms, ms, TimeUnit.MILLISECONDS);
        long beat = heartbeatInterval(cycle).toMillis();
        election.expireAfter(PEER_EXPIRY_BEATS * beat * 1_000_000L);
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
        long beat = heartbeatInterval(config.controller().cycle()).toNanos();
        long listen = soleManager ? 0 : beat * 3 / 2 + java.util.concurrent.ThreadLocalRandom.current().nextLong(beat / 2 + 1);
        loop.execute(() -> {
            election.awaitBus();
            scheduleCycles(config.controller().cycle());
        });
        listenNanos = listen;
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
        GatewayRoster.Refusal r = roster.check(s.gatewayId(), account);
        if (r != null) {
            refused("statistics of gateway " + s.gatewayId() + " from bus account " + account + ": " + r);
            return;
        }
        rm.onStats(s, nanoClock.getAsLong());
        if (s.flashCrowd() != null && started) {
            onFlashCrowd(s);
        }
    }

    /** A message about gateways that was not believed: counted, and logged at most every 10 s. */
    private void refused(String what) {
        long n = refusedMessages.incrementAndGet();
        long now = System.nanoTime();
        if (now - lastRefusedWarn >= 10_000_000_000L) {
            lastRefusedWarn = now;
            LOG.warn("resource manager {}: ignored {} ({} ignored so far)", id, what, n);
        }
    }

    /** Bus messages this manager did not believe (unjoined or impersonated gateways, a full roster, implausible versions). */
    public long refusedMessages() {
        return refusedMessages.get();
    }

    /**
     * Gateway membership: a join, or an alive beat from a gateway this manager does not know (it was
     * expired for silence, or this manager started after it joined), admits the gateway to the roster,
     * bound to the sender's account; statistics never do.
     */
    void onGatewayHeartbeat(HeartbeatMessage h, String account) {
        boolean alive = HeartbeatMessage.ALIVE.equals(h.event());
        if (HeartbeatMessage.JOIN.equals(h.event()) || alive) {
            boolean known = roster.check(h.componentId(), account) == null;
            GatewayRoster.Refusal r = roster.join(h.componentId(), account);
            if (r != null) {
                refused(h.event() + " of gateway " + h.componentId() + " from bus account " + account + ": " + r
                        + (r == GatewayRoster.Refusal.FULL ? " (controller.maxGateways " + config.controller().maxGateways() + ")" : ""));
                return;
            }
            if (alive && !known) {
                rm.onJoin(h.componentId(), nanoClock.getAsLong());
            }
        } else if (roster.check(h.componentId(), account) != null) {
            refused(h.event() + " of gateway " + h.componentId() + " from bus account " + account);
            return;
        }
        switch (h.event()) {
            case HeartbeatMessage.JOIN -> {
                if (!activeNow()) {
                    rm.onJoin(h.componentId(), nanoClock.getAsLong());
                    return;
                }
                rm.onJoin(h.componentId(), nanoClock.getAsLong());
                AllocationMessage last = rm.lastAllocation();
                if (last != null && last.gateways().containsKey(h.componentId())) {
                    bus.publish(Topics.ALLOCATION, last); // at once: no waiting a cycle
                } else {
                    cycle(); // a gateway the last allocation does not cover: decide now, with it
                }
            }
            case HeartbeatMessage.LEAVE -> {
                rm.onLeave(h.componentId());
                roster.leave(h.componentId());
                LOG.info("gateway {} left; its share goes to the others now", h.componentId());
                cycle();
            }
            default -> {
            }
        }
    }

    /**
     * A configuration changed at the console (targets, utilities, classes): decided with from the
     * next cycle on, which runs at once. One that does not load is logged and ignored.
     */
    void onConfig(ConfigMessage c) {
        onConfig(c, null);
    }

    void onConfig(ConfigMessage c, String account) {
        String who = io.slagate.bus.message.Senders.describe(c.user(), account);
        SlagateConfig next;
        try {
            next = ConfigLoader.parseUntrusted(c.yaml(), "configuration from the bus (v" + c.version() + " by " + who + ")");
        } catch (ConfigException e) {
            LOG.warn("ignored a configuration from the bus: {}", e.getMessage());
            return;
        }
        boolean newCycle = !next.controller().cycle().equals(config.controller().cycle());
        baseConfig = next;
        reconfiguration = null; // new settings, new servers: decisions afresh (moves already made stay where still allowed)
        SlagateConfig effective = withMoves(next);
        rm = rm.reconfigured(effective);
        config = effective;
        roster.setMax(next.controller().maxGateways());
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
    void onControl(ControlMessage c) {
        onControl(c, null);
    }

    void onControl(ControlMessage c, String account) {
        String who = io.slagate.bus.message.Senders.describe(c.user(), account);
        long now = nanoClock.getAsLong();
        long until = c.expiresInSeconds() > 0 ? now + (long) (c.expiresInSeconds() * 1e9) : Long.MAX_VALUE;
        try {
            switch (c.command()) {
                case ControlMessage.PAUSE -> overrides.pause();
                case ControlMessage.RESUME -> overrides.resume();
                case ControlMessage.PIN_WEIGHT -> overrides.pinWeight(c.gatewayId(), c.className(), c.value(), until);
                case ControlMessage.UNPIN_WEIGHT -> overrides.unpinWeight(c.gatewayId(), c.className());
                case ControlMessage.PIN_CAPACITY -> overrides.pinCapacity(c.serverId(), (int) c.value(), until);
                case ControlMessage.UNPIN_CAPACITY -> overrides.unpinCapacity(c.serverId());
                case ControlMessage.PIN_POOL, ControlMessage.UNPIN_POOL -> {
                    boolean known = config.servers().stream().anyMatch(sc -> sc.id().equals(c.serverId()) && sc.movable());
                    if (!known) {
                        throw new IllegalArgumentException("no movable server " + c.serverId());
                    }
                    if (ControlMessage.PIN_POOL.equals(c.command())) {
                        poolPins.add(c.serverId());
                    } else {
                        poolPins.remove(c.serverId());
                    }
                    if (reconfiguration != null) {
                        reconfiguration.pin(c.serverId(), ControlMessage.PIN_POOL.equals(c.command()));
                    }
                }
                case ControlMessage.TUNING_START, ControlMessage.TUNING_STOP, ControlMessage.TUNING_REVERT -> {
                    onTuningControl(c.command(), c.partition(), who, now);
                    return;
                }
                default -> {
                    LOG.warn("unknown control command {} from {}; ignored", c.command(), who);
                    return;
                }
            }
        } catch (IllegalArgumentException e) {
            LOG.warn("control command {} from {} refused: {}", c.command(), who, e.getMessage());
            return;
        }
        LOG.info("override by {}: {} gateway={} class={} server={} value={} expires in {} s", who, c.command(),
                c.gatewayId(), c.className(), c.serverId(), c.value(), c.expiresInSeconds() > 0 ? c.expiresInSeconds() : "never");
        cycle();
    }

    /** One control cycle; never throws (a failure is logged and the next cycle runs). */
    /** When the last cycle began (loop thread only), for the flash-crowd cycles' rate limit. */
    private long lastCycleNanos = Long.MIN_VALUE;
    private final java.util.concurrent.atomic.AtomicLong flashCrowdCycles = new java.util.concurrent.atomic.AtomicLong();

    /**
     * A gateway reported a class's arrivals surging: a cycle now, on the statistics it just sent, instead
     * of at the next Γ. At most one such cycle per min(1 s, Γ/4) after any cycle, so that a gateway cannot keep the
     * manager solving; the report's statistics count in the next cycle all the same.
     */
    private void onFlashCrowd(StatsMessage s) {
        long now = nanoClock.getAsLong();
        long gap = Math.min(1_000_000_000L, config.controller().cycle().toNanos() / 4);
        if (lastCycleNanos != Long.MIN_VALUE && now - lastCycleNanos < gap) {
            LOG.info("flash crowd of class {} reported by gateway {}: a cycle ran {} ms ago; the next one decides",
                    s.flashCrowd(), s.gatewayId(), (now - lastCycleNanos) / 1_000_000);
            return;
        }
        LOG.warn("flash crowd of class {} reported by gateway {}: control cycle now, not at the next {}", s.flashCrowd(),
                s.gatewayId(), config.controller().cycle());
        flashCrowdCycles.incrementAndGet();
        cycle();
    }

    private volatile Map<String, String> forecastErrors = Map.of();

    /** Per flow, the forecaster in use and each one's recent one-cycle error, as of the last cycle. */
    public Map<String, String> forecastErrors() {
        return forecastErrors;
    }

    /** Cycles run at once for a flash crowd (not on the timer). */
    public long flashCrowdCycles() {
        return flashCrowdCycles.get();
    }

    /** The configuration as given (file, console); {@link #config} is it with the servers' pools as moved. */
    private SlagateConfig baseConfig;
    /** Movable servers moved from their configured pool: id → the pool they serve now. */
    private final Map<String, String> moved = new java.util.TreeMap<>();
    private io.slagate.rm.reconfigure.PoolReconfiguration reconfiguration;
    private final java.util.concurrent.atomic.AtomicLong moves = new java.util.concurrent.atomic.AtomicLong();
    /** The last pool moves, for the console (newest last). */
    private final java.util.Deque<String> moveLog = new java.util.concurrent.ConcurrentLinkedDeque<>();

    /** {@code c} with every moved server in the pool it serves now (a moved server whose pools no longer allow it goes home). */
    private SlagateConfig withMoves(SlagateConfig c) {
        if (moved.isEmpty()) {
            return c;
        }
        List<io.slagate.config.ServerConfig> servers = new java.util.ArrayList<>();
        for (io.slagate.config.ServerConfig sc : c.servers()) {
            String to = moved.get(sc.id());
            servers.add(to != null && sc.pools().contains(to) ? sc.inPool(to) : sc);
        }
        moved.keySet().removeIf(id -> c.servers().stream().noneMatch(sc -> sc.id().equals(id) && sc.pools().contains(moved.get(id))));
        return new SlagateConfig(c.source(), c.gateway(), servers, c.classes(), c.classification(), c.allocation(), c.bus(),
                c.controller(), c.console());
    }

    /** Servers the operator pinned to the pool they serve now (kept across a new configuration's reconfiguration). */
    private final java.util.Set<String> poolPins = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** The servers the operator pinned to their pool. */
    public java.util.Set<String> poolPins() {
        return java.util.Set.copyOf(poolPins);
    }

    /** Per moved server, the pool it served before its last move (where a refused move sends it back). */
    private final Map<String, String> movedFrom = new java.util.TreeMap<>();
    private final java.util.concurrent.atomic.AtomicLong refusedMoves = new java.util.concurrent.atomic.AtomicLong();

    /**
     * A gateway reported that a server refused the pool it was moved to (it answered that pool's requests with "no
     * such service", and the gateway moved it back at once): the move is reverted here too, and that server is never
     * moved to that pool again (until the configuration changes).
     */
    private void revertRefusedMoves() {
        Map<String, String> refused = rm.refusedPools();
        for (Map.Entry<String, String> e : refused.entrySet()) {
            String server = e.getKey();
            if (!e.getValue().equals(moved.get(server))) {
                continue; // reverted already, or a report about an older move
            }
            String back = movedFrom.remove(server);
            String home = baseConfig.servers().stream().filter(sc -> sc.id().equals(server)).map(io.slagate.config.ServerConfig::pool)
                    .findFirst().orElse(null);
            if (back == null || back.equals(home)) {
                moved.remove(server);
            } else {
                moved.put(server, back);
            }
            reconfiguration.forbid(server, e.getValue());
            config = withMoves(baseConfig);
            rm = rm.reconfigured(config);
            refusedMoves.incrementAndGet();
            String line = String.format(java.util.Locale.ROOT, "server %s refused pool %s (a gateway saw it answer that pool's "
                    + "requests with no such service): back in pool %s, and never moved there again", server, e.getValue(),
                    back == null ? home : back);
            LOG.warn("pool reconfiguration: {}", line);
            moveLog.addLast(java.time.LocalTime.now().withNano(0) + " " + line);
            while (moveLog.size() > 20) {
                moveLog.pollFirst();
            }
        }
    }

    /** Moves reverted because the server refused its new pool. */
    public long refusedMoves() {
        return refusedMoves.get();
    }

    /** Pool reconfiguration: at most one server moved per decision, every {@code controller.reconfiguration.every}. */
    private void reconfigurePools(long now) {
        if (baseConfig == null) {
            baseConfig = config;
        }
        if (baseConfig.servers().stream().noneMatch(io.slagate.config.ServerConfig::movable)) {
            return;
        }
        if (reconfiguration == null) {
            reconfiguration = new io.slagate.rm.reconfigure.PoolReconfiguration(baseConfig.controller().reconfiguration());
            poolPins.forEach(id -> reconfiguration.pin(id, true));
        }
        revertRefusedMoves();
        if (!reconfiguration.due(now)) {
            return;
        }
        Map<String, Double> offered = rm.offeredLoad();
        io.slagate.rm.reconfigure.PoolReconfiguration.Move m = reconfiguration.decide(now, offered, rm.serverStates(now));
        if (m == null) {
            LOG.debug("pool reconfiguration: no move ({})", reconfiguration.idleReason());
            return;
        }
        movedFrom.put(m.server(), m.from());
        moved.put(m.server(), m.to());
        config = withMoves(baseConfig);
        rm = rm.reconfigured(config);
        moves.incrementAndGet();
        String line = String.format(java.util.Locale.ROOT, "server %s moves from pool %s (offered load %.2f of its slots) to pool %s (%.2f);"
                + " its requests in flight drain in about %.1f s", m.server(), m.from(), m.fromLoad(), m.to(), m.toLoad(), m.drainSeconds());
        LOG.warn("pool reconfiguration: {}", line);
        moveLog.addLast(java.time.LocalTime.now().withNano(0) + " " + line);
        while (moveLog.size() > 20) {
            moveLog.pollFirst();
        }
    }

    /** One tuner per partition of controller.tuning, in the file's order; built at the first cycle. */
    private final Map<String, io.slagate.rm.tune.TuningPartition> tuning = new java.util.LinkedHashMap<>();

    /** Each partition's tuner, built at its first cycle (its knobs need the servers' URLs), fed each side's utility. */
    private void tune(long now) {
        if (config.controller().tuning().isEmpty()) {
            return;
        }
        if (tuning.isEmpty()) {
            for (io.slagate.config.TuningSettings t : config.controller().tuning()) {
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
                p.tick(now, rm.measuredUtility(config.classes().stream().map(io.slagate.config.TrafficClassConfig::name).toList()),
                        Double.NaN);
            } else {
                p.tick(now, rm.measuredUtility(p.safeClasses()), rm.measuredUtility(p.trialClasses()));
            }
        }
    }

    /** An operator starts, stops or reverts one partition's tuner, or every one's; a new decision carries the state at once. */
    private void onTuningControl(String command, String partition, String who, long now) {
        if (tuning.isEmpty()) {
            LOG.warn("{} from {} ignored: {}", command, who, config.controller().tuning().isEmpty()
                    ? "controller.tuning is not configured" : "the tuner starts at the first control cycle");
            return;
        }
        List<io.slagate.rm.tune.TuningPartition> targets;
        if (partition == null) {
            targets = List.copyOf(tuning.values());
        } else if (tuning.containsKey(partition)) {
            targets = List.of(tuning.get(partition));
        } else {
            LOG.warn("{} from {} refused: no tuning partition {}; partitions: {}", command, who,
                    partition.length() > 64 ? partition.substring(0, 64) + "…" : partition, tuning.keySet());
            return;
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
        cycle();
    }

    /** Each partition's state for the decision (empty without controller.tuning or before its first cycle). */
    private List<DecisionMessage.TuningStatus> tuningStatus() {
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
    public double[] sideUtilities() {
        io.slagate.rm.tune.TuningPartition p = tuning.values().stream().findFirst().orElse(null);
        return p == null ? new double[] {Double.NaN, Double.NaN} : p.sides();
    }

    private io.slagate.rm.tune.KnobSet side(io.slagate.config.TuningSettings t, String pool) {
        List<io.slagate.config.ServerConfig> servers = config.servers().stream().filter(s -> s.pool().equals(pool)).toList();
        List<io.slagate.rm.tune.Tunable> knobs = new java.util.ArrayList<>();
        for (io.slagate.config.TuningSettings.Knob k : t.knobs()) {
            if (k.name().equals("queueTimeout")) { // the side's classes at the gateways, not its servers
                List<String> classes = config.classes().stream().filter(c -> c.pool().equals(pool))
                        .map(io.slagate.config.TrafficClassConfig::name).toList();
                knobs.add(new io.slagate.rm.tune.QueueTimeoutKnob(classes, overrides,
                        name -> {
                            int c = config.classIndex(name);
                            return c < 0 ? Math.round(1000 * k.max()) : config.classes().get(c).queueTimeout().toMillis();
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
                knobs.add(new io.slagate.rm.tune.WindowKnob(overrides, () -> config.gateway().stats().window().toMillis(), k.min(), k.max()));
                continue;
            }
            knobs.add(new io.slagate.rm.tune.ControllerKnob(k.name(), k.min(), k.max(), k.integer(), k.choices(),
                    () -> config.controller(), this::applyController));
        }
        return new io.slagate.rm.tune.KnobSet(knobs);
    }

    /**
     * A tuner's change of the controller's settings, on the loop's thread: the manager decides with them from
     * the next cycle on (what it learned carries over, as for a new configuration), and a new Γ reschedules the cycles.
     * A configuration pushed later by the console replaces them, as it replaces everything.
     */
    private void applyController(java.util.function.UnaryOperator<io.slagate.config.ControllerSettings> change) {
        if (baseConfig == null) {
            baseConfig = config;
        }
        java.time.Duration before = config.controller().cycle();
        baseConfig = baseConfig.withController(change.apply(baseConfig.controller()));
        config = withMoves(baseConfig);
        rm = rm.reconfigured(config);
        java.time.Duration after = config.controller().cycle();
        if (!after.equals(before) && started) {
            loop.execute(() -> scheduleCycles(after));
        }
    }

    /** The first (or only) partition's tuner, or null when controller.tuning is not configured or before the first cycle. */
    public io.slagate.rm.tune.OnlineTuner tuner() {
        return tuning.values().stream().findFirst().map(io.slagate.rm.tune.TuningPartition::tuner).orElse(null);
    }

    /** The tuning partitions, in the configuration's order; empty before the first cycle. */
    public List<io.slagate.rm.tune.TuningPartition> tuningPartitions() {
        return List.copyOf(tuning.values());
    }

    /** Servers moved between pools since start. */
    public long poolMoves() {
        return moves.get();
    }

    /** The pool each server serves now, by id. */
    public Map<String, String> serverPools() {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        config.servers().forEach(sc -> out.put(sc.id(), sc.pool()));
        return out;
    }

    /** The last pool moves, oldest first. */
    public List<String> poolMoveLog() {
        return List.copyOf(moveLog);
    }

    void cycle() {
        lastCycleNanos = nanoClock.getAsLong();
        try {
            reconfigurePools(lastCycleNanos);
            if (activeNow()) {
                rm.advanceVersionTo(maxVersionSeen);
            }
            long t0 = System.nanoTime();
            ResourceManager.Decision d = rm.step(nanoClock.getAsLong());
            roster.retain(new java.util.HashSet<>(rm.liveGateways())); // expired for silence: must join again
            solveTimer.record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
            cycleCounter.increment();
            cycles.incrementAndGet();
            if (!active) {
                return; // standing by: decided, not published
            }
            if (d.allocation() != null) {
                lastAllocation = d.allocation();
                bus.publish(Topics.ALLOCATION, d.allocation());
            }
            tune(lastCycleNanos);
            if (d.decision() != null) {
                DecisionMessage decision = tuning.isEmpty() ? d.decision() : d.decision().withTuning(tuningStatus());
                lastDecision = decision;
                bus.publish(Topics.DECISION, decision);
                recordFlows(d.decision());
                recordDeficits(rm.deficits());
                recordLimits(rm.concurrencyLimits());
                forecastErrors = rm.forecastErrors();
            }
        } catch (RuntimeException e) {
            LOG.error("control cycle failed; gateways keep the last allocation", e);
        }
    }

    private final Map<String, double[]> limitGauges = new java.util.concurrent.ConcurrentHashMap<>();

    /** The automatic N_s of each {@code concurrency: auto} server and its knee estimate (NaN until measured). */
    private void recordLimits(Map<String, io.slagate.rm.limit.ConcurrencyLimit> limits) {
        for (Map.Entry<String, io.slagate.rm.limit.ConcurrencyLimit> e : limits.entrySet()) {
            double[] v = limitGauges.computeIfAbsent(e.getKey(), server -> {
                double[] holder = new double[2];
                Gauge.builder("slagate.server.concurrency", holder, h -> h[0]).tag("manager", id).tag("server", server)
                        .description("N_s found by concurrency: auto").register(registry);
                Gauge.builder("slagate.server.knee", holder, h -> h[1]).tag("manager", id).tag("server", server)
                        .description("The knee estimate X_max * S_0 behind it (NaN until measured)").register(registry);
                return holder;
            });
            v[0] = e.getValue().limit();
            v[1] = e.getValue().knee();
        }
    }

    /** The automatic N_s of a server as of the last cycle, or -1 for a server without {@code concurrency: auto}. */
    public int concurrency(String server) {
        double[] v = limitGauges.get(server);
        return v == null ? -1 : (int) v[0];
    }

    /**
     * The servers of the pool's mean size to add for every class to meet its goals, as of the last
     * cycle (−1: more servers would not help; NaN: no cycle has sized this pool yet).
     */
    public double capacityDeficitServers(String pool) {
        double[] v = deficitGauges.get(pool);
        return v == null ? Double.NaN : v[2];
    }

    /** Per pool (and class): slots needed, lacking, and servers to add, for an autoscaler (README, deploy/hpa-capacity-deficit.yaml). */
    private void recordDeficits(Map<String, CapacityDeficit.Result> deficits) {
        for (CapacityDeficit.Result r : deficits.values()) {
            double[] v = deficitGauges.computeIfAbsent(r.pool(), pool -> {
                double[] holder = new double[3];
                Gauge.builder("slagate.capacity.needed.slots", holder, h -> h[0]).tag("manager", id).tag("pool", pool)
                        .description("Slots every class of the pool needs to meet its target at the measured load (NaN: no number of servers can)")
                        .register(registry);
                Gauge.builder("slagate.capacity.deficit.slots", holder, h -> h[1]).tag("manager", id).tag("pool", pool)
                        .description("Slots the pool lacks for every class to meet its target (0: enough)").register(registry);
                Gauge.builder("slagate.capacity.deficit.servers", holder, h -> h[2]).tag("manager", id).tag("pool", pool)
                        .description("Servers of the pool's mean size to add for every class to meet its target (-1: more servers would not help)")
                        .register(registry);
                return holder;
            });
            v[0] = r.neededSlots();
            v[1] = r.deficitSlots();
            v[2] = r.extraServers();
            for (Map.Entry<String, Double> c : r.neededByClass().entrySet()) {
                double[] cv = deficitGauges.computeIfAbsent(r.pool() + "\u0000" + c.getKey(), k -> {
                    double[] holder = new double[1];
                    Gauge.builder("slagate.capacity.needed.class.slots", holder, h -> h[0]).tag("manager", id).tag("pool", r.pool())
                            .tag("class", c.getKey()).description("Slots the class's flows need to meet its target at the measured load")
                            .register(registry);
                    return holder;
                });
                cv[0] = c.getValue();
            }
        }
    }

    private void recordFlows(DecisionMessage d) {
        for (DecisionMessage.FlowDecision f : d.flows()) {
            String key = f.gatewayId() + "\u0000" + f.className();
            double[] v = flowGauges.computeIfAbsent(key, k -> {
                double[] holder = new double[7];
                Gauge.builder("slagate.rm.flow.weight", holder, h -> h[0]).tag("gateway", f.gatewayId())
                        .tag("class", f.className()).description("w_{g,c} decided").register(registry);
                Gauge.builder("slagate.rm.flow.predicted", holder, h -> h[1]).tag("gateway", f.gatewayId())
                        .tag("class", f.className()).baseUnit("seconds").description("Predicted response time t(w)")
                        .register(registry);
                Gauge.builder("slagate.rm.flow.utility", holder, h -> h[2]).tag("gateway", f.gatewayId())
                        .tag("class", f.className()).description("Predicted utility of the flow").register(registry);
                Gauge.builder("slagate.rm.flow.model.error", holder, h -> h[3]).tag("gateway", f.gatewayId())
                        .tag("class", f.className()).description("|predicted - measured| / measured of the last cycle's prediction")
                        .register(registry);
                Gauge.builder("slagate.rm.flow.model.gain", holder, h -> h[4]).tag("gateway", f.gatewayId())
                        .tag("class", f.className()).description("The online correction's gain on the model's predicted change")
                        .register(registry);
                Gauge.builder("slagate.rm.flow.arrival.rate", holder, h -> h[5]).tag("gateway", f.gatewayId())
                        .tag("class", f.className()).description("Arrival rate measured over the gateway's window (req/s)")
                        .register(registry);
                Gauge.builder("slagate.rm.flow.forecast.rate", holder, h -> h[6]).tag("gateway", f.gatewayId())
                        .tag("class", f.className()).description("Arrival rate forecast for the next cycle and used (NaN: none in force)")
                        .register(registry);
                return holder;
            });
            v[0] = f.weight();
            v[1] = f.predictedSeconds();
            v[2] = f.utility();
            v[3] = f.modelError();
            v[4] = f.modelGain();
            v[5] = f.arrivalRate();
            v[6] = f.forecastRate();
        }
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
        } catch (java.util.concurrent.RejectedExecutionException e) {
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
            io.slagate.rm.tune.TuningPartition p = tuning.get(partition);
            if (p == null) {
                throw new IllegalArgumentException("no tuning partition " + partition + "; partitions: " + tuning.keySet());
            }
            p.tuner().restore(values);
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
