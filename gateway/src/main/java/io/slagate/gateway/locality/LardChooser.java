package io.slagate.gateway.locality;

import java.util.BitSet;
import java.util.function.LongSupplier;

/**
 * {@code loadBalancing: lard} and {@code lard-r}: locality-aware request distribution as Pai et al. publish it
 * (ASPLOS 1998), the baseline Garbatov &amp; Cachopo compare against. A target's first request goes to the
 * least-loaded server, and its later ones there, until that server is above T_high while some server is below T_low,
 * or at 2·T_high; then the target moves to the least-loaded server. With replication ({@code lard-r}, LARD/R) a
 * target has a set of servers and goes to the least loaded of them; under the same overload rule the least-loaded
 * server of the pool joins the set, and a set that has not grown for {@value #K_SECONDS} s sheds its most loaded
 * member.
 *
 * <p>Loads are a server's outstanding requests over its cap here, and the thresholds LARD's 25 and 65 connections
 * scaled so that 2·T_high (130 there, about where its nodes saturated) is the cap: both rules can fire at any cap.
 *
 * <p>A target is the request type, or, when the backend declares working sets, the type's working-set group
 * ({@link LocalityMap#group}): the same information locality dispatch places by.
 */
public final class LardChooser implements ServerChooser {
    /** 2·T_high is the server's cap. */
    static final double T_HIGH = 0.5;
    /** LARD's T_low / T_high = 25 / 65. */
    static final double T_LOW = T_HIGH * 25 / 65;
    /** LARD/R's K: how long a target's set must go without growing before it sheds a server. */
    static final long K_SECONDS = 20;

    private final LocalityLearner types;
    private final boolean replicate;
    private final LongSupplier nanoClock;
    /** Per target, its servers' gateway indices (made on the target's first request, then only set and cleared). */
    private final BitSet[] set = new BitSet[RequestTypes.MAX];
    private final long[] lastChange = new long[RequestTypes.MAX];

    public LardChooser(LocalityLearner types, boolean replicate) {
        this(types, replicate, System::nanoTime);
    }

    LardChooser(LocalityLearner types, boolean replicate, LongSupplier nanoClock) {
        this.types = types;
        this.replicate = replicate;
        this.nanoClock = nanoClock;
    }

    /** Runs in the serialized scheduling loop: the sets are touched by one thread at a time. */
    @Override
    public int choose(int requestType, int[] pool, ServerLoad load) {
        int target = types.map().group(requestType);
        if (set[target] == null) {
            set[target] = new BitSet();
        }
        BitSet servers = set[target];
        long now = nanoClock.getAsLong();
        int n = leastLoaded(pool, load, servers);
        if (n < 0 && members(pool, servers) == 0) { // a new target, or its servers left the pool
            n = leastLoaded(pool, load, null);
            if (n >= 0) {
                servers.clear();
                servers.set(n);
                lastChange[target] = now;
            }
            return n;
        }
        if (n < 0 || overloaded(n, pool, load)) {
            int p = leastLoaded(pool, load, null);
            if (p < 0) {
                return -1;
            }
            if (!replicate) {
                servers.clear();
            }
            servers.set(p);
            lastChange[target] = now;
            return p;
        }
        if (replicate && members(pool, servers) > 1 && now - lastChange[target] > K_SECONDS * 1_000_000_000L) {
            int m = mostLoaded(pool, load, servers);
            servers.clear(m);
            lastChange[target] = now;
            if (m == n) {
                n = leastLoaded(pool, load, servers);
            }
        }
        return n;
    }

    /** Target {@code type}'s servers now (gateway indices), for tests. */
    int[] servers(int type) {
        BitSet s = set[types.map().group(type)];
        return s == null ? new int[0] : s.stream().toArray();
    }

    /** How many of the pool's servers are in {@code servers}. */
    private static int members(int[] pool, BitSet servers) {
        int k = 0;
        for (int s : pool) {
            k += servers.get(s) ? 1 : 0;
        }
        return k;
    }

    private static double load(int s, ServerLoad load) {
        return (double) load.outstanding(s) / Math.max(1, load.cap(s));
    }

    /** LARD's rule: above T_high while some server is below T_low, or at 2·T_high (the cap: full). */
    private static boolean overloaded(int n, int[] pool, ServerLoad load) {
        double l = load(n, load);
        if (l >= 2 * T_HIGH || !load.available(n)) {
            return true;
        }
        if (l <= T_HIGH) {
            return false;
        }
        for (int s : pool) {
            if (load.available(s) && load(s, load) < T_LOW) {
                return true;
            }
        }
        return false;
    }

    /** The available server of the pool, among {@code among} (null: any), with the least relative load; −1 if none. */
    private static int leastLoaded(int[] pool, ServerLoad load, BitSet among) {
        int best = -1;
        double bestLoad = Double.MAX_VALUE;
        for (int s : pool) {
            if ((among == null || among.get(s)) && load.available(s)) {
                double l = load(s, load);
                if (l < bestLoad) {
                    bestLoad = l;
                    best = s;
                }
            }
        }
        return best;
    }

    private static int mostLoaded(int[] pool, ServerLoad load, BitSet among) {
        int worst = -1;
        double worstLoad = -1;
        for (int s : pool) {
            if (among.get(s)) {
                double l = load(s, load);
                if (l > worstLoad) {
                    worstLoad = l;
                    worst = s;
                }
            }
        }
        return worst;
    }
}
