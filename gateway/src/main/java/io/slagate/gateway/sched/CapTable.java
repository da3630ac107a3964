package io.slagate.gateway.sched;

/**
 * The caps in force at a gateway: the allocation the manager gave (N_{g,s} per server, the weights), any local limit
 * below it, and per server the last cap above 0, the share a server back from an outage gets again at once. The
 * allocation is swapped whole and read lock-free on admission.
 */
public final class CapTable {
    private final int classCount;
    private final int serverCount;
    private final LocalCaps local;
    private volatile Allocation allocation;
    /** Per server, the last cap above 0 an allocation gave it (guarded by itself): its share before an outage. */
    private final int[] lastPositiveCap;

    CapTable(Allocation initial, int classCount, int serverCount) {
        this.classCount = classCount;
        this.serverCount = serverCount;
        this.local = new LocalCaps(serverCount);
        checkShape(initial);
        this.allocation = initial;
        this.lastPositiveCap = initial.caps();
    }

    /** The allocation in force. */
    public Allocation allocation() {
        return allocation;
    }

    /** The cap in force for server {@code s} here (the allocation's, or a local limit's below it). */
    public int effectiveCap(int s) {
        return local.cap(allocation, s);
    }

    /** N_{g,s} in force under {@code a}: the allocation's, or less while a local limit holds the server. */
    int cap(Allocation a, int s) {
        return local.cap(a, s);
    }

    /** Swaps in a new allocation. */
    void set(Allocation next) {
        checkShape(next);
        synchronized (lastPositiveCap) {
            for (int s = 0; s < lastPositiveCap.length; s++) {
                if (next.caps()[s] > 0) {
                    lastPositiveCap[s] = next.caps()[s];
                }
            }
            allocation = next;
        }
    }

    /**
     * A server back in rotation whose cap in force is 0 (the controller zeroed it while the server was down) gets this
     * gateway's share from before the outage, until the next allocation.
     *
     * @return the cap given back, or 0 when there was none to give
     */
    int restore(int s) {
        synchronized (lastPositiveCap) {
            Allocation a = allocation;
            if (a.caps()[s] != 0 || lastPositiveCap[s] <= 0) {
                return 0;
            }
            int[] caps = a.caps();
            caps[s] = lastPositiveCap[s];
            allocation = new Allocation(a.version(), a.weights(), caps);
            return caps[s];
        }
    }

    /**
     * Holds server {@code s} to {@code cap} slots here (below the allocation's), or lifts that with −1.
     *
     * @return whether the cap was raised (slots given back)
     */
    boolean limit(int s, int cap) {
        return local.limit(s, cap);
    }

    private void checkShape(Allocation a) {
        if (a.classCount() != classCount || a.serverCount() != serverCount) {
            throw new IllegalArgumentException("allocation for " + a.classCount() + " classes and " + a.serverCount()
                    + " servers, but the gateway has " + classCount + " and " + serverCount);
        }
    }
}
