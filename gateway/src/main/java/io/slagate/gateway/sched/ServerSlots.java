package io.slagate.gateway.sched;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The requests this gateway has outstanding on one server, bounded by N_{g,s} from the current
 * allocation. A slot is reserved with one compare-and-set, so the cap holds even when a retry on
 * another server reserves from outside the scheduling loop; releasing is a plain decrement.
 */
public final class ServerSlots {
    private final int index;
    private final String id;
    private final int pool;
    private final AtomicInteger outstanding;
    private volatile boolean inRotation = true;

    public ServerSlots(int index, String id, int pool) {
        this(index, id, pool, new AtomicInteger());
    }

    /**
     * @param outstanding the count of requests out on the server, shared with the slots of the same
     *                    server in the configuration this one replaces, so that the cap counts both
     */
    ServerSlots(int index, String id, int pool, AtomicInteger outstanding) {
        this.index = index;
        this.id = id;
        this.pool = pool;
        this.outstanding = outstanding;
    }

    AtomicInteger counter() {
        return outstanding;
    }

    public int index() {
        return index;
    }

    public String id() {
        return id;
    }

    public int pool() {
        return pool;
    }

    public int outstanding() {
        return outstanding.get();
    }

    /** Whether the server is offered slots (false while health checking keeps it out). */
    public boolean inRotation() {
        return inRotation;
    }

    public void setInRotation(boolean inRotation) {
        this.inRotation = inRotation;
    }

    boolean tryAcquire(int cap) {
        while (true) {
            int n = outstanding.get();
            if (n >= cap) {
                return false;
            }
            if (outstanding.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    void release() {
        outstanding.decrementAndGet();
    }
}
