package io.slagate.gateway.sched;


/**
 * The classes a flash crowd's protection holds to their share of the allocation in force,
 * ⌈N · w_c / Σw⌉ over their pool, even when the other classes leave theirs idle: the others'
 * guaranteed slots are not lent to the crowd, so their next requests find a slot at once. Only
 * with a queue per class (not in FCFS mode, where a pool has one queue).
 */
final class SurgeShares {
    private final int classCount;
    private final boolean perClassQueues;
    /** Per class, whether it is held to its share; replaced whole, read in the scheduling loop. */
    private volatile boolean[] surging;

    SurgeShares(int classCount, boolean perClassQueues) {
        this.classCount = classCount;
        this.perClassQueues = perClassQueues;
    }

    void protect(int c, boolean on) {
        boolean[] next = surging == null ? new boolean[classCount] : surging.clone();
        next[c] = on;
        surging = next;
    }

    /** Whether class queue {@code qs[i]} (one per class) is a surging class already at its share of {@code capacity}. */
    boolean overShare(int[] qs, int i, int[] exec, Allocation a, int capacity) {
        boolean[] s = surging;
        if (s == null || !perClassQueues || !s[qs[i]]) {
            return false;
        }
        double total = 0;
        for (int q : qs) {
            total += a.weight(q);
        }
        int share = (int) Math.ceil(capacity * a.weight(qs[i]) / total - 1e-9);
        return exec[i] >= Math.max(1, share);
    }
}
