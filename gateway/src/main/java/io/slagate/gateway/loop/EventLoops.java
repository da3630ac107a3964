package io.slagate.gateway.loop;

import org.eclipse.jetty.io.EndPoint;

/**
 * The listener's event loops, as a relay connection uses them: the loop that owns its endpoint, and
 * a way back onto that loop for an answer completed on another thread.
 */
public interface EventLoops {
    /** The loop that owns {@code endPoint}. */
    int loopIndex(EndPoint endPoint);

    /** Whether this thread is loop {@code loop}'s. */
    boolean onLoop(int loop);

    /** Runs {@code task} on loop {@code loop}'s thread, after what it is doing now. */
    void execute(int loop, Runnable task);
}
