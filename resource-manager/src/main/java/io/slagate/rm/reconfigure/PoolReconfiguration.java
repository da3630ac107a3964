package io.slagate.rm.reconfigure;

import io.slagate.config.ReconfigurationSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Moves servers between pools as Active Harmony §IV moves nodes between tiers, at a lower
 * frequency than the control cycle. A pool is saturated when its offered load, Σ λ·S over its slots, is at least
 * {@code high}; a movable server may leave a pool whose load is at most {@code low} and would stay below {@code high}
 * without it, never taking the pool under its minimum, and only after {@code dwell} since its last move (so servers
 * do not flap). Of the candidates, the one whose requests in flight drain soonest is moved; the cost test moves it
 * only when that drain takes less than {@code every}: the server stops taking its old pool's requests at once and
 * finishes those it has while it starts on the new pool's (its slots count both), so a long drain is a long stretch
 * of a server split between pools, and waiting for a better moment is cheaper. One move per decision.
 */
public final class PoolReconfiguration {
    /** What the manager knows of a server at a decision. */
    public record Server(String id, String pool, List<String> pools, int slots, int outstanding, double serviceSeconds) {
    }

    /** A move: {@code server} from {@code from} to {@code to}, with the loads that justified it. */
    public record Move(String server, String from, String to, double fromLoad, double toLoad, double drainSeconds) {
    }

    private final ReconfigurationSettings settings;
    private final Map<String, Long> lastMoved = new HashMap<>();
    private long lastDecision = Long.MIN_VALUE;
    /** Why the last decision moved nothing (for the log), or null. */
    private String idleReason;

    public PoolReconfiguration(ReconfigurationSettings settings) {
        this.settings = settings;
    }

    /** Moves refused by the server (server id → pools it refused): never proposed again. */
    private final Map<String, Set<String>> forbidden = new HashMap<>();

    /** Servers the operator pinned to the pool they serve now: never moved while pinned. */
    private final Set<String> pinned = new TreeSet<>();

    /** Pins (true) or unpins {@code server}: a pinned server stays where it is. */
    public void pin(String server, boolean pin) {
        if (pin) {
            pinned.add(server);
        } else {
            pinned.remove(server);
        }
    }

    /** Never moves {@code server} to {@code pool} again (it refused that pool's requests). */
    public void forbid(String server, String pool) {
        forbidden.computeIfAbsent(server, k -> new TreeSet<>()).add(pool);
    }

    /** Whether a decision is due ({@code every} since the last). */
    public boolean due(long nowNanos) {
        return lastDecision == Long.MIN_VALUE || nowNanos - lastDecision >= settings.every().toNanos();
    }

    /**
     * @param offered per pool, its offered load Σ λ·S (busy slots it would need)
     * @param servers every server, with the pool it serves now
     * @return the move to make now, or null
     */
    public Move decide(long nowNanos, Map<String, Double> offered, List<Server> servers) {
        lastDecision = nowNanos;
        Map<String, Integer> slots = new HashMap<>();
        Map<String, Integer> count = new HashMap<>();
        for (Server s : servers) {
            slots.merge(s.pool(), s.slots(), Integer::sum);
            count.merge(s.pool(), 1, Integer::sum);
        }
        String hot = null;
        double hotLoad = 0;
        for (Map.Entry<String, Integer> p : slots.entrySet()) {
            double load = load(offered, p.getKey(), p.getValue());
            if (load >= settings.high() && load > hotLoad) {
                hot = p.getKey();
                hotLoad = load;
            }
        }
        if (hot == null) {
            idleReason = "no pool at or above " + settings.high();
            return null;
        }
        List<Move> candidates = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (Server s : servers) {
            if (s.pool().equals(hot) || !s.pools().contains(hot)) {
                continue;
            }
            String from = s.pool();
            int fromSlots = slots.getOrDefault(from, 0);
            double fromLoad = load(offered, from, fromSlots);
            String why = refusal(s, hot, nowNanos, offered.getOrDefault(from, 0.0), fromSlots, fromLoad, count.getOrDefault(from, 0));
            if (why != null) {
                refused.add(s.id() + ": " + why);
            } else {
                double drain = s.slots() == 0 ? 0 : s.outstanding() * s.serviceSeconds() / Math.max(1, s.slots());
                candidates.add(new Move(s.id(), from, hot, fromLoad, hotLoad, drain));
            }
        }
        Move best = null;
        for (Move m : candidates) {
            if (best == null || m.drainSeconds() < best.drainSeconds()) {
                best = m;
            }
        }
        if (best == null) {
            idleReason = hot + " is saturated, but no server can leave its pool" + (refused.isEmpty() ? "" : ": " + refused);
            return null;
        }
        if (!(best.drainSeconds() < settings.every().toNanos() / 1e9)) {
            idleReason = String.format(Locale.ROOT, "%s would take %.1f s to drain: waiting for a quieter moment",
                    best.server(), best.drainSeconds());
            return null;
        }
        lastMoved.put(best.server(), nowNanos);
        idleReason = null;
        return best;
    }

    /** Why server {@code s} may not move from its pool to {@code hot} now, or null when it may. */
    private String refusal(Server s, String hot, long nowNanos, double fromOffered, int fromSlots, double fromLoad, int fromCount) {
        String from = s.pool();
        double without = fromSlots - s.slots() <= 0 ? Double.POSITIVE_INFINITY : fromOffered / (fromSlots - s.slots());
        Long moved = lastMoved.get(s.id());
        if (pinned.contains(s.id())) {
            return "pinned by the operator";
        } else if (forbidden.getOrDefault(s.id(), Set.of()).contains(hot)) {
            return "refused " + hot + " before";
        } else if (moved != null && nowNanos - moved < settings.dwell().toNanos()) {
            return "moved " + (nowNanos - moved) / 1_000_000_000L + " s ago";
        } else if (fromCount - 1 < settings.minServers(from)) {
            return from + " keeps at least " + settings.minServers(from);
        } else if (fromLoad > settings.low() || without >= settings.high()) {
            return String.format(Locale.ROOT, "%s at %.2f (%.2f without it)", from, fromLoad, without);
        }
        return null;
    }

    /** Why the last decision moved nothing, or null when it moved a server. */
    public String idleReason() {
        return idleReason;
    }

    private static double load(Map<String, Double> offered, String pool, int slots) {
        double o = offered.getOrDefault(pool, 0.0);
        return slots <= 0 ? (o > 0 ? Double.POSITIVE_INFINITY : 0) : o / slots;
    }
}
