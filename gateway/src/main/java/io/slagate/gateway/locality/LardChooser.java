package io.slagate.gateway.locality;

import java.util.Arrays;
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
    /** Per target, its servers as a bit set of gateway indices (at most 64 servers a pool by request type). */
    private final long[] set = new long[RequestTypes.MAX];
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
        long servers = set[target] & poolMask(pool);
        long now = nanoClock.getAsLong();
        if (servers == 0) {
            int n = leastLoaded(pool, load, -1L);
            if (n >= 0) {
                set[target] = 1L << n;
                lastChange[target] = now;
            }
            return n;
        }
        int n = leastLoaded(pool, load, servers);
        if (n < 0 || overloaded(n, pool, load)) {
            int p = leastLoaded(pool, load, -1L);
            if (p < 0) {
                return -1;
            }
            set[target] = replicate ? servers | (1L << p) : 1L << p;
            lastChange[target] = now;
            return p;
        }
        if (replicate && Long.bitCount(servers) > 1 && now - lastChange[target] > K_SECONDS * 1_000_000_000L) {
            int m = mostLoaded(pool, load, servers);
            set[target] = servers & ~(1L << m);
            lastChange[target] = now;
            if (m == n) {
                n = leastLoaded(pool, load, set[target]);
            }
        }
        return n;
    }

    /** Target {@code type}'s servers now (gateway indices), for tests and stats. */
    int[] servers(int type) {
        long s = set[types.map().group(type)];
        return java.util.stream.IntStream.range(0, 64).filter(i -> (s & (1L << i)) != 0).toArray();
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

    private static long poolMask(int[] pool) {
        long m = 0;
        for (int s : pool) {
            if (s < 64) {
                m |= 1L << s;
            }
        }
        return m;
    }

    /** The available server of the pool, among {@code among} (a bit set), with the least relative load; −1 if none. */
    private static int leastLoaded(int[] pool, ServerLoad load, long among) {
        int best = -1;
        double bestLoad = Double.MAX_VALUE;
        for (int s : pool) {
            if (s < 64 && (among & (1L << s)) != 0 && load.available(s)) {
                double l = load(s, load);
                if (l < bestLoad) {
                    bestLoad = l;
                    best = s;
                }
            }
        }
        return best;
    }

    private static int mostLoaded(int[] pool, ServerLoad load, long among) {
        int worst = -1;
        double worstLoad = -1;
        for (int s : pool) {
            if (s < 64 && (among & (1L << s)) != 0) {
                double l = load(s, load);
                if (l > worstLoad) {
                    worstLoad = l;
                    worst = s;
                }
            }
        }
        return worst;
    }

    @Override
    public String toString() {
        return (replicate ? "LARD/R" : "LARD") + Arrays.toString(new int[0]);
    }
}
