package io.slagate.rm;

import io.slagate.config.ServerConfig;
import io.slagate.config.SlagateConfig;
import io.slagate.rm.reconfigure.PoolReconfiguration;
import io.slagate.util.Recent;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Servers moved between pools (Active Harmony §IV): the configuration as given, the moves made on
 * it, the operator's pins, and the moves reverted because a server refused its new pool. It turns
 * the given configuration into the one in force ({@link #withMoves}); the control loop decides with
 * that. The control loop's thread only, but for the counters and the log.
 */
final class PoolMoves {
    private static final Logger LOG = LoggerFactory.getLogger(PoolMoves.class);
    private static final int LOG_LINES = 20;

    /** The configuration as given (file, console); the one in force is it with the servers' pools as moved. */
    private SlagateConfig base;
    /** Movable servers moved from their configured pool: id → the pool they serve now. */
    private final Map<String, String> moved = new TreeMap<>();
    /** Per moved server, the pool it served before its last move (where a refused move sends it back). */
    private final Map<String, String> movedFrom = new TreeMap<>();
    private PoolReconfiguration reconfiguration;
    /** Servers the operator pinned to the pool they serve now (kept across a new configuration). */
    private final Set<String> pins = ConcurrentHashMap.newKeySet();
    private final AtomicLong moves = new AtomicLong();
    private final AtomicLong refusedMoves = new AtomicLong();
    /** The last moves, for the console (newest last). */
    private final Recent<String> log = new Recent<>(LOG_LINES);

    /** A new configuration as given: decisions afresh; the moves made stay where its pools still allow them. */
    SlagateConfig rebase(SlagateConfig given) {
        base = given;
        reconfiguration = null;
        return withMoves(given);
    }

    /** The given configuration changed by {@code change} (a tuner's controller settings), with the moves in force. */
    SlagateConfig change(SlagateConfig current, UnaryOperator<SlagateConfig> change) {
        if (base == null) {
            base = current;
        }
        base = change.apply(base);
        return withMoves(base);
    }

    /** Whether any server may move; takes {@code current} as the given configuration the first time. */
    boolean enabled(SlagateConfig current) {
        if (base == null) {
            base = current;
        }
        if (base.servers().stream().noneMatch(ServerConfig::movable)) {
            return false;
        }
        if (reconfiguration == null) {
            reconfiguration = new PoolReconfiguration(base.controller().reconfiguration());
            pins.forEach(id -> reconfiguration.pin(id, true));
        }
        return true;
    }

    /**
     * Moves a gateway reported refused (the server answered its new pool's requests with "no such
     * service", and the gateway moved it back at once) are reverted here too, and that server never
     * goes to that pool again (until the configuration changes). Returns the configuration in force
     * after them, or null when none was refused.
     *
     * @param refusedPools servers the gateways reported refusing the pool they were moved to, with that pool
     */
    SlagateConfig revertRefused(Map<String, String> refusedPools) {
        SlagateConfig next = null;
        for (Map.Entry<String, String> e : refusedPools.entrySet()) {
            String server = e.getKey();
            if (!e.getValue().equals(moved.get(server))) {
                continue; // reverted already, or a report about an older move
            }
            String back = movedFrom.remove(server);
            String home = base.servers().stream().filter(sc -> sc.id().equals(server)).map(ServerConfig::pool).findFirst().orElse(null);
            if (back == null || back.equals(home)) {
                moved.remove(server);
            } else {
                moved.put(server, back);
            }
            reconfiguration.forbid(server, e.getValue());
            next = withMoves(base);
            refusedMoves.incrementAndGet();
            record(String.format(Locale.ROOT, "server %s refused pool %s (a gateway saw it answer that pool's requests with no such "
                    + "service): back in pool %s, and never moved there again", server, e.getValue(), back == null ? home : back));
        }
        return next;
    }

    /**
     * At most one server moved per decision, every {@code controller.reconfiguration.every}: the configuration after it,
     * or null. The pools' offered loads and the servers' states are read only when a move is due.
     */
    SlagateConfig move(long now, Supplier<Map<String, Double>> offeredLoad, Supplier<List<PoolReconfiguration.Server>> servers) {
        if (!reconfiguration.due(now)) {
            return null;
        }
        PoolReconfiguration.Move m = reconfiguration.decide(now, offeredLoad.get(), servers.get());
        if (m == null) {
            LOG.debug("pool reconfiguration: no move ({})", reconfiguration.idleReason());
            return null;
        }
        movedFrom.put(m.server(), m.from());
        moved.put(m.server(), m.to());
        moves.incrementAndGet();
        record(String.format(Locale.ROOT, "server %s moves from pool %s (offered load %.2f of its slots) to pool %s (%.2f);"
                + " its requests in flight drain in about %.1f s", m.server(), m.from(), m.fromLoad(), m.to(), m.toLoad(), m.drainSeconds()));
        return withMoves(base);
    }

    private void record(String line) {
        LOG.warn("pool reconfiguration: {}", line);
        log.add(LocalTime.now().withNano(0) + " " + line);
    }

    /** {@code c} with every moved server in the pool it serves now (a moved server whose pools no longer allow it goes home). */
    private SlagateConfig withMoves(SlagateConfig c) {
        if (moved.isEmpty()) {
            return c;
        }
        List<ServerConfig> servers = new ArrayList<>();
        for (ServerConfig sc : c.servers()) {
            String to = moved.get(sc.id());
            servers.add(to != null && sc.pools().contains(to) ? sc.inPool(to) : sc);
        }
        moved.keySet().removeIf(id -> c.servers().stream().noneMatch(sc -> sc.id().equals(id) && sc.pools().contains(moved.get(id))));
        return new SlagateConfig(c.source(), c.gateway(), servers, c.classes(), c.classification(), c.allocation(), c.bus(),
                c.controller(), c.console(), c.sla());
    }

    /** The operator pins a server to the pool it serves now, or unpins it. */
    void pin(String server, boolean pin) {
        if (pin) {
            pins.add(server);
        } else {
            pins.remove(server);
        }
        if (reconfiguration != null) {
            reconfiguration.pin(server, pin);
        }
    }

    Set<String> pins() {
        return Set.copyOf(pins);
    }

    long moves() {
        return moves.get();
    }

    long refusedMoves() {
        return refusedMoves.get();
    }

    List<String> log() {
        return log.oldestFirst();
    }

    /** The pool each server of {@code config} serves, by id, in the configuration's order. */
    static Map<String, String> serverPools(SlagateConfig config) {
        Map<String, String> out = new LinkedHashMap<>();
        config.servers().forEach(sc -> out.put(sc.id(), sc.pool()));
        return out;
    }
}
