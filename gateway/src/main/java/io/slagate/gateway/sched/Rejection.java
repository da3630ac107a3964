package io.slagate.gateway.sched;


/** Why the queue manager did not accept a request. */
public enum Rejection {
    /** The class already has queueBound requests waiting. */
    QUEUE_FULL
}
