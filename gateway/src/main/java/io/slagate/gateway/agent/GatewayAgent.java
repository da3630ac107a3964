package io.slagate.gateway.agent;

import io.slagate.bus.ControlBus;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.RosterMessage;
import io.slagate.bus.message.AllocationVersions;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.ConfigMessage;
import io.slagate.bus.message.CredentialsMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.GatewayAllocation;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.Senders;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.ConfigException;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.auth.Authenticator;
import io.slagate.gateway.auth.CredentialsVersion;
import io.slagate.gateway.sched.Allocation;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.stats.FlowStats;
import io.slagate.gateway.stats.GatewayMetrics;
import io.slagate.gateway.stats.SlaTallies;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's side of the control loop: the stats publisher and the control listener of
 * DESIGN.md. Every reporting interval it publishes the windowed statistics of each class and an
 * {@code alive} heartbeat; on every (re)connection a {@code join} heartbeat, to which the resource
 * manager answers with the current allocation; on close a {@code leave}. An allocation is applied
 * when it is newer than the one in force, as one atomic swap; while the bus is down the gateway
 * keeps serving with what it has.
 */
public final class GatewayAgent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayAgent.class);

    private final Gateway gateway;
    private final ControlBus bus;
    private final String id;
    private final AtomicLong sequence = new AtomicLong();
    /** The SLA rows of the reports: under the gateway's lock, as the reports are made. */
    private final SlaTallies slaTallies;
    private final AtomicLong applied = new AtomicLong();
    private final AtomicLong lastAppliedMillis = new AtomicLong();
    private final AtomicLong refusedAllocations = new AtomicLong();
    private final StartupAdmission startup;

    public GatewayAgent(Gateway gateway, ControlBus bus) {
        this.gateway = gateway;
        this.bus = bus;
        this.id = gateway.config().gateway().id();
        this.slaTallies = new SlaTallies(gateway.sla());
        // the static allocation only once the bus answered: connected (the credentials accepted), or unreachable;
        // never while a refusal of the credentials may still be on its way
        this.startup = new StartupAdmission(gateway, System::nanoTime,
                () -> bus.refusal() == null && (bus.isConnected() || bus.lastError() != null));
        // each topic carries one kind of message, and the broker decides which roles may write it: an
        // allocation arriving on the configuration topic (which consoles may write) is not believed; each gateway
        // has its own allocation topic, carrying its own part only
        bus.subscribe(Topics.allocationFor(id), m -> {
            if (m instanceof AllocationMessage a) {
                apply(a);
            } else if (m instanceof RosterMessage r && id.equals(r.gatewayId())) {
                onRosterRefusal(r);
            }
        });
        bus.subscribe(Topics.HEARTBEAT_RESOURCE_MANAGER, m -> {
            if (m instanceof HeartbeatMessage h && "resource-manager".equals(h.role())) {
                startup.managerHeard();
            }
            if (m instanceof HeartbeatMessage h && "resource-manager".equals(h.role()) && HeartbeatMessage.JOIN.equals(h.event())) {
                // a (re)started manager knows no gateway yet: join it, and report now rather than at the next interval
                heartbeat(HeartbeatMessage.JOIN);
                bus.publish(Topics.STATS, statsMessage());
            }
        });
        bus.subscribeWithSender(Topics.CONFIG, (m, account) -> {
            if (m instanceof ConfigMessage c) {
                onConfig(c, account);
            }
        });
        listenForCredentials();
        bus.onConnected(() -> heartbeat(HeartbeatMessage.JOIN));
        bus.onRefused(gateway.readiness()::refused);
        bus.whileLost("the last allocation stays in force; requests keep flowing under it");
        gateway.addReportListener(this::report);
        // a surge is reported at once, naming the class, so the manager runs a cycle now rather than at its next
        gateway.addFlashCrowdListener(cls -> bus.publish(Topics.STATS, statsMessage().withFlashCrowd(cls)));
        MeterRegistry r = gateway.registry();
        Gauge.builder("slagate.bus.connected", bus, b -> b.isConnected() ? 1 : 0).tag("gateway", id)
                .description("1 while the gateway is connected to the control bus").register(r);
        Gauge.builder("slagate.bus.dropped", bus, ControlBus::dropped).tag("gateway", id)
                .description("Bus messages not sent (bus down or behind)").register(r);
        Gauge.builder("slagate.bus.malformed", bus, ControlBus::malformed).tag("gateway", id)
                .description("Bus messages received that could not be decoded and were skipped").register(r);
        Gauge.builder("slagate.bus.refused", this, GatewayAgent::refusedAllocations).tag("gateway", id)
                .description("Bus messages refused as implausible (allocation versions ahead of the clock)").register(r);
        FunctionCounter.builder("slagate.bus.roster.refused", rosterRefusals, AtomicLong::get).tag("gateway", id)
                .description("Joins of this gateway a resource manager refused (bus.gatewayAccounts); /ready says why").register(r);
        FunctionCounter.builder("slagate.bus.roster.impersonations", impersonations, AtomicLong::get).tag("gateway", id)
                .description("Joins under this gateway's id from another bus account, refused by a resource manager").register(r);
        Gauge.builder("slagate.allocation.age", this, a -> a.allocationAgeSeconds()).tag("gateway", id)
                .baseUnit("seconds").description("Seconds since the last allocation was applied (NaN: none yet)").register(r);
    }

    /**
     * A manager refused a join for this gateway's id: this gateway's own (its bus account), and it says why until an
     * allocation comes; or another account's, trying to take this id, which is worth a warning and a count.
     */
    private void onRosterRefusal(RosterMessage r) {
        String own = gateway.config().bus().user();
        if (Objects.equals(own, r.account())) {
            rosterRefusals.incrementAndGet();
            String why = "resource manager " + r.managerId() + " refused this gateway's join (bus account " + own + "): " + r.reason();
            LOG.warn("{}; it runs on its last or startup allocation until a manager admits it", why);
            refusedJoin = true;
            gateway.readiness().awaitAllocation(why);
        } else {
            impersonations.incrementAndGet();
            LOG.warn("bus account {} tried to join as this gateway ({}); resource manager {} refused it: {}", r.account(), id,
                    r.managerId(), r.reason());
        }
    }

    private volatile boolean refusedJoin;
    private final AtomicLong rosterRefusals = new AtomicLong();
    private final AtomicLong impersonations = new AtomicLong();

    /** Joins of this gateway refused by a manager, and joins under this gateway's id from other accounts refused. */
    public long[] rosterRefusals() {
        return new long[] {rosterRefusals.get(), impersonations.get()};
    }

    private void onConfig(ConfigMessage c, String account) {
        String who = Senders.describe(c.user(), account);
        SlagateConfig next;
        try {
            next = ConfigLoader.parseUntrusted(c.yaml(), "configuration v" + c.version() + " from the bus by " + who);
        } catch (ConfigException e) {
            LOG.warn("ignored a configuration from the bus: {}", e.getMessage());
            return;
        }
        if (gateway.reconfigure(next)) {
            LOG.info("configuration v{} by {} applied", c.version(), who);
        } else {
            LOG.warn("configuration v{} by {} changes gateway settings (listeners, TLS, timeouts, statistics); gateway {}"
                    + " applies that on its next restart", c.version(), who, id);
        }
    }

    /** Customers' credentials from a console, starting from the version kept beside this gateway's files. */
    private void listenForCredentials() {
        if (gateway.authenticator() != null) {
            credentialsVersion.set(CredentialsVersion.read(gateway.authenticator().settings()).version());
        }
        bus.subscribeWithSender(Topics.CREDENTIALS, (m, account) -> {
            if (m instanceof CredentialsMessage c) {
                onCredentials(c, account);
            }
        });
    }

    /**
     * A console changed the customers' credentials (or repeats the current ones for a gateway that is behind): this
     * gateway's files take a newer version, it holds from the next request, and the next heartbeat (sent at once)
     * says so. An older version is logged and dropped; the same one again needs nothing.
     */
    private void onCredentials(CredentialsMessage c, String account) {
        Authenticator auth = gateway.authenticator();
        if (auth == null) {
            return;
        }
        String who = Senders.describe(c.user(), account);
        long held = credentialsVersion.get();
        if (c.version() <= held) {
            if (c.version() < held) {
                LOG.info("customer credentials v{} by {} not applied: v{} is in force", c.version(), who, held);
            }
            return;
        }
        // a version from far ahead of the clock would make every later real change look old
        if (!AllocationVersions.plausible(c.version(), System.currentTimeMillis())) {
            LOG.warn("customer credentials v{} by {} refused: the version runs ahead of this clock", c.version(), who);
            return;
        }
        try {
            boolean changed = auth.replaceFiles(c.htpasswd(), c.apiKeys());
            // kept beside the files: after a restart an older version is still refused
            new CredentialsVersion(c.version(), CredentialsVersion.digestOf(c.htpasswd(), c.apiKeys())).write(auth.settings());
            credentialsVersion.set(c.version());
            LOG.info("customer credentials v{} by {} {}", c.version(), who, changed ? "in force" : "in force already (the same files)");
            heartbeat(HeartbeatMessage.ALIVE); // the console waits on it
        } catch (IOException | RuntimeException e) {
            LOG.warn("customer credentials v{} by {} could not be written ({}); the credentials held (v{}) stay in force",
                    c.version(), who, e.toString(), held);
        }
    }

    /**
     * The credentials version this gateway applies: the one kept beside its files, 0 until one comes from the bus (-1 when
     * it authenticates nobody).
     */
    private final AtomicLong credentialsVersion = new AtomicLong();

    /** The credentials version in force, as the heartbeat reports it. */
    public long credentialsVersion() {
        return gateway.authenticator() == null ? -1 : credentialsVersion.get();
    }

    /** The manager's capacity line per pool, as {@code /stats} shows it. */
    private static List<Map<String, Object>> capacityView(AllocationMessage a) {
        List<Map<String, Object>> pools = new ArrayList<>();
        for (DecisionMessage.PoolCapacity c : a.capacity()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("pool", c.pool());
            m.put("haveSlots", c.haveSlots());
            m.put("neededSlots", c.neededSlots());
            m.put("servers", c.servers());
            m.put("neededByClass", new TreeMap<>(c.neededByClass()));
            pools.add(m);
        }
        return pools;
    }

    /**
     * Applies the part of {@code a} meant for this gateway, if newer than the allocation in force.
     * Holds the gateway's lock so that the classes and servers cannot change meanwhile.
     */
    public boolean apply(AllocationMessage a) {
        synchronized (gateway) {
            return applyLocked(a, gateway.config());
        }
    }

    private boolean applyLocked(AllocationMessage a, SlagateConfig config) {
        GatewayAllocation mine = a.gateways().get(id);
        QueueManager q = gateway.queues();
        Allocation current = q.caps().allocation();
        if (mine == null || a.version() <= current.version()) {
            return false;
        }
        if (!AllocationVersions.plausible(a.version(), System.currentTimeMillis())) {
            refusedAllocations.incrementAndGet();
            LOG.warn("allocation v{} refused: it runs more than {} ms ahead of this clock (a forgery or a broken sender);"
                    + " the allocation in force (v{}) stays", a.version(), AllocationVersions.MAX_AHEAD_MILLIS,
                    current.version());
            return false;
        }
        Allocation next = AllocationShare.of(a, mine, config, current);
        long[] timeouts = AllocationShare.queueTimeouts(a, config);
        long[] before = q.timeouts().set(timeouts);
        for (int c = 0; c < timeouts.length; c++) {
            if (before[c] != q.timeouts().nanos(c)) {
                LOG.info("class {}: queue timeout {} ms -> {} ms ({}; requests already waiting keep theirs)", config.classes().get(c).name(),
                        before[c] / 1_000_000, q.timeouts().nanos(c) / 1_000_000,
                        timeouts[c] > 0 ? "set by resource manager " + a.managerId() + "'s tuner" : "configured");
            }
        }
        applyWindow(a);
        gateway.quotas().applyShares(mine.quotas(), a.gateways().size());
        gateway.capacity(capacityView(a));
        q.pools().assignPools(a.serverPools()); // before the caps computed for the servers' new pools
        gateway.setAllocation(next);
        startup.allocated();
        if (refusedJoin) {
            refusedJoin = false; // a manager admitted it since: /ready no longer gives the refusal
            gateway.readiness().allocationInForce();
        }
        applied.incrementAndGet();
        lastAppliedMillis.set(System.currentTimeMillis());
        LOG.debug("applied {}", next);
        return true;
    }

    private void applyWindow(AllocationMessage a) {
        GatewayMetrics m = gateway.metrics();
        int before = m.windowIntervals();
        int after = m.windowIntervals(AllocationShare.windowIntervals(a, m));
        if (after != before) {
            LOG.info("statistics window {} s -> {} s ({})", before * m.intervalSeconds(), after * m.intervalSeconds(),
                    a.statsWindowMillis() > 0 ? "set by resource manager " + a.managerId() + "'s tuner" : "configured");
        }
    }

    /** The report of one reporting interval, of one configuration (the lock keeps it from changing meanwhile). */
    public StatsMessage statsMessage() {
        synchronized (gateway) {
            return statsMessage(gateway.config());
        }
    }

    private StatsMessage statsMessage(SlagateConfig config) {
        return StatsReport.of(id, sequence.incrementAndGet(), System.currentTimeMillis(), config, gateway.queues(), gateway.metrics(),
                gateway.flowStats(), gateway.quotas().lastDemand()).withSla(slaTallies.next());
    }

    private void report() {
        startup.checkTimeout();
        bus.publish(Topics.STATS, statsMessage());
        heartbeat(HeartbeatMessage.ALIVE);
    }

    private void heartbeat(String event) {
        bus.publish(Topics.HEARTBEAT_GATEWAY, new HeartbeatMessage(BusMessage.SCHEMA, id, "gateway", event,
                System.currentTimeMillis(), gateway.queues().caps().allocation().version(), credentialsVersion()));
    }

    public long allocationsApplied() {
        return applied.get();
    }

    /** Allocations refused because their version was implausible. */
    public long refusedAllocations() {
        return refusedAllocations.get();
    }

    private double allocationAgeSeconds() {
        long t = lastAppliedMillis.get();
        return t == 0 ? Double.NaN : (System.currentTimeMillis() - t) / 1000.0;
    }

    /** Announces the leave (its share goes to the others at once); the bus itself belongs to the caller. */
    @Override
    public void close() {
        heartbeat(HeartbeatMessage.LEAVE);
        LOG.info("gateway {} left the control plane (its share goes to the other gateways at the next cycle)", id);
    }
}
