package io.slagate.gateway.sched;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A request waiting at the gateway: it holds no thread, only its place in its class's queue. The
 * scheduler calls exactly one of {@link #onAdmitted} or {@link #onExpired}, decided by one
 * compare-and-set on the entry's state, so an entry that times out while being admitted is never
 * both dispatched and faulted.
 */
public abstract class QueuedRequest {
    static final int WAITING = 0;
    static final int ADMITTED = 1;
    static final int EXPIRED = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(QueuedRequest.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int classIndex;
    private final long enqueuedNanos;
    private volatile int state;
    long deadlineNanos;

    protected QueuedRequest(int classIndex, long enqueuedNanos) {
        this.classIndex = classIndex;
        this.enqueuedNanos = enqueuedNanos;
    }

    public final int classIndex() {
        return classIndex;
    }

    public final long enqueuedNanos() {
        return enqueuedNanos;
    }

    final boolean transition(int to) {
        return STATE.compareAndSet(this, WAITING, to);
    }

    final boolean isWaiting() {
        return state == WAITING;
    }

    /**
     * Called on the scheduling thread once a slot on {@code server} is reserved for this request.
     * Must not block nor do the forwarding inline: hand it to an executor.
     */
    protected abstract void onAdmitted(ServerSlots server);

    /** Called once when the request waited longer than its class's queue timeout. */
    protected abstract void onExpired();
}
