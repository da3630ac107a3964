package io.slagate.gateway.locality;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * {@code loadBalancing: lard}: locality-aware request distribution as Pai et al. describe it, the
 * baseline Garbatov &amp; Cachopo compare against. A type's first request goes to a server chosen by
 * hash (rendezvous over the pool's servers); it stays there until that server is overloaded: above
 * T_high while some server is below T_low, or at 2 T_high, or full, when the type moves to the
 * least-loaded server. T_low and T_high are LARD's 25 and 65 connections taken as fractions of a
 * server's slots here (its N_{g,s} is the most it may hold).
 */
public final class LardChooser implements ServerChooser {
    static final double T_LOW = 0.25;
    static final double T_HIGH = 0.65;

    private final LocalityLearner types;
    private final String[] serverIds;
    private final AtomicIntegerArray target = new AtomicIntegerArray(RequestTypes.MAX);

    /** @param serverIds every server's id, by gateway index (for the hash) */
    public LardChooser(LocalityLearner types, String[] serverIds) {
        this.types = types;
        this.serverIds = serverIds.clone();
        for (int i = 0; i < RequestTypes.MAX; i++) {
            target.set(i, -1);
        }
    }

    @Override
    public int choose(int requestType, int[] pool, ServerLoad load) {
        int t = target.get(requestType);
        if (t < 0) {
            t = hashed(types.typeName(requestType), pool);
        }
        if (!load.available(t) || overloaded(t, pool, load)) {
            t = leastLoaded(pool, load);
        }
        if (t >= 0) {
            target.set(requestType, t);
        }
        return t;
    }

    /** The type's assigned server: its relative load against LARD's thresholds. */
    private static boolean overloaded(int t, int[] pool, ServerLoad load) {
        double l = (double) load.outstanding(t) / load.cap(t);
        if (l >= 2 * T_HIGH) {
            return true;
        }
        if (l <= T_HIGH) {
            return false;
        }
        for (int s : pool) {
            if (load.available(s) && (double) load.outstanding(s) / load.cap(s) < T_LOW) {
                return true;
            }
        }
        return false;
    }

    private int hashed(String type, int[] pool) {
        int best = pool[0];
        long bestWeight = Long.MIN_VALUE;
        for (int s : pool) {
            long w = LocalityMap.weight(type == null ? "" : type, serverIds[s]);
            if (w > bestWeight) {
                bestWeight = w;
                best = s;
            }
        }
        return best;
    }

    private static int leastLoaded(int[] pool, ServerLoad load) {
        int best = -1;
        double bestLoad = Double.MAX_VALUE;
        for (int s : pool) {
            if (load.available(s)) {
                double l = (double) load.outstanding(s) / load.cap(s);
                if (l < bestLoad) {
                    bestLoad = l;
                    best = s;
                }
            }
        }
        return best;
    }
}
