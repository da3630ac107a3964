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

    /** No deadline of its own: only the class's queue timeout ends its wait. */
    private static final long NONE = Long.MIN_VALUE;

    private final int classIndex;
    private final long enqueuedNanos;
    private final String customer;
    private volatile int state;
    /** When the sweeper expires it: the class's queue timeout, or earlier, its own latest admission. */
    long deadlineNanos;
    /** Its place in arrival order within an expiry-ordered lane (ties between equal expiries). */
    long sequence;
    private long latestAdmissionNanos = NONE;
    /** Its request type for locality dispatch, or −1: none (its pool does not dispatch by type). */
    private int requestType = -1;

    protected QueuedRequest(int classIndex, long enqueuedNanos) {
        this(classIndex, enqueuedNanos, null);
    }

    /** @param customer whose request it is (its class's queue gives each customer a turn), or null */
    protected QueuedRequest(int classIndex, long enqueuedNanos, String customer) {
        this.classIndex = classIndex;
        this.enqueuedNanos = enqueuedNanos;
        this.customer = customer;
    }

    /** Set before it is offered, when its pool dispatches by request type. */
    public final void requestType(int type) {
        requestType = type;
    }

    public final int requestType() {
        return requestType;
    }

    public final String customer() {
        return customer;
    }

    /**
     * The latest moment it may still be admitted (its deadline less its predicted service time);
     * set before it is offered. Waiting past it, it expires like a queue timeout, and
     * {@link #expiredForDeadline} says which of the two it was.
     */
    protected final void admitBy(long nanos) {
        latestAdmissionNanos = nanos;
    }

    /** The queue ends its wait at the earlier of the class's timeout and its own latest admission. */
    final void expiresAt(long classTimeoutNanos) {
        deadlineNanos = latestAdmissionNanos != NONE && latestAdmissionNanos - classTimeoutNanos < 0 ? latestAdmissionNanos
                : classTimeoutNanos;
    }

    /** Whether its wait ended because its own deadline could no longer be met (not the class's queue timeout). */
    protected final boolean expiredForDeadline() {
        return latestAdmissionNanos != NONE && deadlineNanos == latestAdmissionNanos;
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
