package io.slagate.gateway.sched;

import io.slagate.config.LoadBalancing;
import io.slagate.config.ServerConfig;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.locality.LardChooser;
import io.slagate.gateway.locality.LocalityChooser;
import io.slagate.gateway.locality.LocalityLearner;
import io.slagate.gateway.locality.LocalityMap;
import io.slagate.gateway.locality.ServerChooser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which server of a pool an admitted request goes to, by the pool's load-balancing policy: the
 * least outstanding relative to its cap, round robin, or by request type (locality, LARD) through
 * the pool's learner and chooser. The picks run inside the queue manager's serialized scheduling
 * loop: they never block, and only servers in rotation, serving the pool and below their cap are taken.
 */
final class ServerPicker {
    private static final Logger LOG = LoggerFactory.getLogger(QueueManager.class);

    private final CapTable caps;
    private final ServerSlots[] servers;
    private final int[][] poolServers;
    private final PoolAssignment assignment;
    /** Per pool: its load-balancing policy, and for the policies by request type its learner and chooser (else null). */
    private final LoadBalancing[] policy;
    private final LocalityLearner[] learner;
    private final ServerChooser[] chooser;
    /** Touched only inside the serialized scheduling loop. */
    private final int[] roundRobinCursor;
    private final ServerChooser.ServerLoad serverLoad;

    ServerPicker(CapTable caps, SlagateConfig config, ServerSlots[] servers, String[] poolNames, int[][] poolServers,
                 PoolAssignment assignment) {
        this.caps = caps;
        this.servers = servers;
        this.poolServers = poolServers;
        this.assignment = assignment;
        int pools = poolNames.length;
        policy = new LoadBalancing[pools];
        learner = new LocalityLearner[pools];
        chooser = new ServerChooser[pools];
        roundRobinCursor = new int[pools];
        String[] ids = config.servers().stream().map(ServerConfig::id).toArray(String[]::new);
        for (int p = 0; p < pools; p++) {
            policy[p] = config.gateway().loadBalancing(poolNames[p]);
            if (policy[p].byRequestType()) {
                learner[p] = new LocalityLearner(poolNames[p], poolServers[p], ids, config.gateway().locality().epsilon());
                chooser[p] = policy[p] == LoadBalancing.LOCALITY ? new LocalityChooser(learner[p])
                        : new LardChooser(learner[p], policy[p] == LoadBalancing.LARD_R);
            }
        }
        serverLoad = new ServerChooser.ServerLoad() {
            @Override
            public boolean available(int s) {
                return servers[s].inRotation() && servers[s].outstanding() < caps.effectiveCap(s);
            }

            @Override
            public boolean inRotation(int s) {
                return servers[s].inRotation();
            }

            @Override
            public int outstanding(int s) {
                return servers[s].outstanding();
            }

            @Override
            public int cap(int s) {
                return caps.effectiveCap(s);
            }
        };
    }

    /** A server of {@code pool} with a free slot under {@code a}, by the pool's policy; null when none has one. */
    ServerSlots pick(int pool, Allocation a) {
        int[] ss = poolServers[pool];
        if (policy[pool] == LoadBalancing.ROUND_ROBIN) {
            for (int k = 0; k < ss.length; k++) {
                int idx = (roundRobinCursor[pool] + k) % ss.length;
                ServerSlots s = servers[ss[idx]];
                if (assignment.serves(s.index(), pool) && s.inRotation() && s.outstanding() < caps.cap(a, s.index())) {
                    roundRobinCursor[pool] = (idx + 1) % ss.length;
                    return s;
                }
            }
            return null;
        }
        ServerSlots best = null;
        double bestLoad = Double.MAX_VALUE;
        for (int s : ss) {
            ServerSlots server = servers[s];
            int cap = caps.cap(a, s);
            int out = server.outstanding();
            if (!assignment.serves(s, pool) || !server.inRotation() || out >= cap) {
                continue;
            }
            double load = (double) out / cap; // relative, so servers with larger caps take more
            if (load < bestLoad) {
                bestLoad = load;
                best = server;
            }
        }
        return best;
    }

    /** Whether {@code pool} dispatches by request type. */
    boolean byRequestType(int pool) {
        return chooser[pool] != null;
    }

    /** The server the pool's chooser prefers for the request type, when it has a free slot; else {@code reserved}, kept. */
    ServerSlots byRequestType(int p, int type, ServerSlots reserved, Allocation a) {
        int s;
        try {
            s = chooser[p].choose(type, poolServers[p], serverLoad);
        } catch (RuntimeException e) {
            LOG.error("choosing a server by request type failed; least-outstanding instead", e);
            return reserved;
        }
        if (s < 0 || s == reserved.index() || !assignment.serves(s, p) || !servers[s].inRotation()
                || !servers[s].tryAcquire(caps.cap(a, s))) {
            return reserved;
        }
        reserved.release();
        return servers[s];
    }

    /** The learner of {@code pool} when it dispatches by request type, else null. */
    LocalityLearner learner(int pool) {
        return learner[pool];
    }

    /** Recomputes every locality pool's mapping from what was observed since the last time. */
    void remapAll() {
        for (int p = 0; p < learner.length; p++) {
            remap(p);
        }
    }

    /** Recomputes {@code pool}'s mapping, when it dispatches by request type: its groups go to the servers in rotation. */
    void remap(int pool) {
        if (learner[pool] == null) {
            return;
        }
        try {
            learner[pool].remap(s -> servers[s].inRotation(), s -> Math.max(1, caps.effectiveCap(s)));
        } catch (RuntimeException e) {
            LOG.error("locality remap failed; the previous mapping stays", e);
        }
    }

    /** Under locality dispatch, the request types mapped to server {@code s} and their share of its pool's requests; else null. */
    String localityGroupOf(int s) {
        int p = servers[s].pool();
        if (policy[p] != LoadBalancing.LOCALITY) {
            return null;
        }
        for (LocalityMap.Group g : learner[p].map().groups()) {
            if (servers[s].id().equals(g.server())) {
                return String.join(", ", g.types()) + String.format(Locale.ROOT, " (%.0f%% of the pool's requests)", 100 * g.loadShare());
            }
        }
        return "no group (spill only)";
    }

    /** Per pool dispatching by request type: its policy and mapping, for {@code /stats}. */
    List<Map<String, Object>> localityStats() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (int p = 0; p < learner.length; p++) {
            if (learner[p] != null) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("policy", policy[p].configName());
                m.putAll(learner[p].describe());
                if (policy[p] != LoadBalancing.LOCALITY) {
                    m.remove("groups");
                }
                out.add(m);
            }
        }
        return out;
    }
}
