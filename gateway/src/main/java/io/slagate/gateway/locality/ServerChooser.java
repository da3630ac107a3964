package io.slagate.gateway.locality;


/**
 * Picks the server for one admitted request by its request type (locality, LARD), among
 * the servers of its pool. Runs inside the serialized scheduling loop, so it must not block; it only
 * chooses among servers with a free slot and never makes a request wait for a busy one.
 */
public interface ServerChooser {
    /**
     * @param requestType the request's type index (≥ 0)
     * @param pool        the pool's servers (indices into the gateway's servers)
     * @param load        their state now
     * @return the chosen server's index, or −1 to leave the request to the pool's least-outstanding choice
     */
    int choose(int requestType, int[] pool, ServerLoad load);

    /** The servers' state as the scheduler sees it: the allocation in force, the local limits, the health checks. */
    interface ServerLoad {
        /** In rotation and below its cap. */
        boolean available(int server);

        boolean inRotation(int server);

        int outstanding(int server);

        /** N_{g,s} in force. */
        int cap(int server);
    }
}
