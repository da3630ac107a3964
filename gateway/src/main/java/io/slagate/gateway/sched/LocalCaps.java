package io.slagate.gateway.sched;

import java.util.Arrays;

/**
 * The caps a gateway's local limits hold servers to, below the allocation's N_{g,s}: the cap in
 * force is the smaller of the two. Replaced whole on a change, read lock-free on admission.
 */
final class LocalCaps {
    private final int servers;
    /** Per server, the local cap (Integer.MAX_VALUE: none); null while no server has one. */
    private volatile int[] caps;

    LocalCaps(int servers) {
        this.servers = servers;
    }

    /** N_{g,s} in force under {@code a}. */
    int cap(Allocation a, int s) {
        int[] local = caps;
        return local == null ? a.cap(s) : Math.min(a.cap(s), local[s]);
    }

    /**
     * Holds server {@code s} to {@code cap} slots, or lifts that with −1.
     *
     * @return whether the cap was raised (slots given back: waiting requests may go now)
     */
    boolean limit(int s, int cap) {
        int[] before = caps;
        int old = before == null ? Integer.MAX_VALUE : before[s];
        int value = cap < 0 ? Integer.MAX_VALUE : cap;
        if (old == value) {
            return false;
        }
        int[] next = before == null ? unlimited() : before.clone();
        next[s] = value;
        caps = next;
        return value > old;
    }

    private int[] unlimited() {
        int[] a = new int[servers];
        Arrays.fill(a, Integer.MAX_VALUE);
        return a;
    }
}
