package io.slagate.rm;

import io.slagate.bus.GatewayRoster;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.RosterMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
import io.slagate.util.LogLimiter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which gateways the manager believes in, from their heartbeats: a join, or an alive beat from a
 * gateway it does not know (expired for silence, or this manager started after it joined), admits a
 * gateway, bound to the sender's account ({@link GatewayRoster}); statistics never do, and count only
 * from that account. What it does not believe is counted, and logged at most every 10 s. The control
 * loop's thread only, but for the count.
 */
final class Membership {
    private static final Logger LOG = LoggerFactory.getLogger(Membership.class);

    /** What a gateway's heartbeat means for the decisions. */
    enum Change {
        /** Nothing new (an alive beat of a known gateway, or a refused message). */
        NONE,
        /** A gateway joined (again): decide with it now. */
        JOINED,
        /** A gateway not known here beat alive: counted from now on, at the next cycle. */
        RESUMED,
        /** A gateway left: its share goes to the others now. */
        LEFT
    }

    private final String id;
    private final GatewayRoster roster;
    private final IntSupplier maxGateways;
    private final AtomicLong refused = new AtomicLong();
    private final LogLimiter warnings = new LogLimiter(Duration.ofSeconds(10));
    /** Gateways that left, with the account they left from (the most recent {@value #LEFT_KEPT}). */
    private final Map<String, String> left = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > LEFT_KEPT;
        }
    };
    private static final int LEFT_KEPT = 1024;

    /** Where a refused gateway id is told why: publishes a message on a topic. */
    private final BiConsumer<String, BusMessage> notice;
    /** Gateway ids told of a refusal lately, with when (the most recent {@value #LEFT_KEPT}): one notice an id per 10 s. */
    private final Map<String, Long> noticed = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > LEFT_KEPT;
        }
    };
    private final LongSupplier nanoClock;

    Membership(String id, GatewayRoster roster, IntSupplier maxGateways) {
        this(id, roster, maxGateways, (topic, m) -> { }, System::nanoTime);
    }

    /** @param notice publishes a {@link RosterMessage} on a refused gateway id's own topic */
    Membership(String id, GatewayRoster roster, IntSupplier maxGateways, BiConsumer<String, BusMessage> notice, LongSupplier nanoClock) {
        this.id = id;
        this.roster = roster;
        this.maxGateways = maxGateways;
        this.notice = notice;
        this.nanoClock = nanoClock;
    }

    /** Whether {@code gatewayId}'s statistics from {@code account} count: only once it joined, from the account it joined with. */
    boolean believeStats(String gatewayId, String account) {
        GatewayRoster.Refusal r = roster.check(gatewayId, account);
        if (r == GatewayRoster.Refusal.NOT_JOINED && Objects.equals(left.get(gatewayId), account)) {
            // a gateway's last report can cross its leave on the bus: expected, not worth a warning
            refused.incrementAndGet();
            LOG.debug("resource manager {}: statistics of gateway {} after its leave, ignored", id, gatewayId);
            return false;
        }
        if (r != null) {
            refused("statistics of gateway " + gatewayId + " from bus account " + account + ": " + r);
            return false;
        }
        return true;
    }

    /**
     * Whether a report's size is one the configuration allows: no more flows than classes, no more server states
     * than servers. A report past that (a broken or hostile sender) would only cost the cycle; it is refused and counted.
     */
    boolean plausible(StatsMessage s, int classes, int servers) {
        if (s.flows().size() <= classes && s.servers().size() <= servers) {
            return true;
        }
        refused("statistics of gateway " + s.gatewayId() + " claiming " + s.flows().size() + " classes and " + s.servers().size()
                + " servers (the configuration has " + classes + " and " + servers + ")");
        return false;
    }

    Change onHeartbeat(HeartbeatMessage h, String account) {
        String gw = h.componentId();
        boolean alive = HeartbeatMessage.ALIVE.equals(h.event());
        if (HeartbeatMessage.JOIN.equals(h.event()) || alive) {
            boolean known = roster.check(gw, account) == null;
            GatewayRoster.Refusal r = roster.join(gw, account);
            if (r != null) {
                String why = r + (r == GatewayRoster.Refusal.FULL ? " (controller.maxGateways " + maxGateways.getAsInt() + ")" : "");
                refused(h.event() + " of gateway " + gw + " from bus account " + account + ": " + why);
                tell(gw, account, why);
                return Change.NONE;
            }
            left.remove(gw);
            return alive ? (known ? Change.NONE : Change.RESUMED) : Change.JOINED;
        }
        if (roster.check(gw, account) != null) {
            refused(h.event() + " of gateway " + gw + " from bus account " + account);
            return Change.NONE;
        }
        if (HeartbeatMessage.LEAVE.equals(h.event())) {
            roster.leave(gw);
            left.put(gw, account);
            return Change.LEFT;
        }
        return Change.NONE;
    }

    /** Tells the gateway id of its refusal, at most once every 10 s an id (a flood of invented ids costs a notice each, once). */
    private void tell(String gatewayId, String account, String reason) {
        long now = nanoClock.getAsLong();
        Long last = noticed.get(gatewayId);
        if (last != null && now - last < 10_000_000_000L) {
            return;
        }
        noticed.put(gatewayId, now);
        notice.accept(Topics.allocationFor(gatewayId), new RosterMessage(BusMessage.SCHEMA, gatewayId, account, reason, id));
    }

    /** A message about gateways (or an allocation version) that was not believed: counted, and logged at most every 10 s. */
    void refused(String what) {
        long n = refused.incrementAndGet();
        if (warnings.allow()) {
            LOG.warn("resource manager {}: ignored {} ({} ignored so far)", id, what, n);
        }
    }

    long refusedMessages() {
        return refused.get();
    }

    void setMax(int max) {
        roster.setMax(max);
    }

    /** Forgets the gateways the manager no longer counts (expired for silence): they must join again. */
    void retain(Set<String> live) {
        roster.retain(live);
    }
}
