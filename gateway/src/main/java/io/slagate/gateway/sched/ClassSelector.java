package io.slagate.gateway.sched;


/**
 * Chooses which queue of a server pool gets the next free slot. Called only from the scheduling
 * loop (one thread at a time), so implementations keep plain mutable state.
 */
interface ClassSelector {
    /**
     * @param queues     the queue indices of the pool
     * @param backlogged whether each of those queues has a waiting request
     * @param executing  requests of each queue now outstanding from this gateway
     * @param allocation the current allocation (weights are indexed by queue in WRR mode)
     * @param capacity   the pool's slots for this gateway, Σ N_{g,s} over its servers in rotation
     * @return a position in {@code queues}, or -1 when nothing is backlogged
     */
    int select(int[] queues, boolean[] backlogged, int[] executing, Allocation allocation, int capacity);

    /** First come, first served: the pool has one queue. */
    ClassSelector FIRST_BACKLOGGED = (queues, backlogged, executing, allocation, capacity) -> {
        for (int i = 0; i < queues.length; i++) {
            if (backlogged[i]) {
                return i;
            }
        }
        return -1;
    };
}
