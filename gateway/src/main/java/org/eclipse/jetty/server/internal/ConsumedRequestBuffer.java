package org.eclipse.jetty.server.internal;

import org.eclipse.jetty.io.Connection;

/**
 * Gives a client connection's read buffer back to the pool once the request it holds was read whole.
 *
 * <p>Jetty keeps an HTTP/1.1 connection's read buffer until the response is complete, even when
 * nothing is left in it; a gateway whose requests wait in a queue with their bodies read would hold
 * one buffer (direct memory, {@code requestBufferBytes}) per waiting request for nothing. Jetty
 * releases an empty buffer itself, by the same package-private method, when a request is parsed
 * whole before its handler runs, and takes a new one on the next read; this does the same once the
 * gateway has read the body. It lives in Jetty's package for that method alone, and checks the
 * same conditions: nothing unread in the buffer (no pipelined request) and the request complete.
 */
public final class ConsumedRequestBuffer {
    private ConsumedRequestBuffer() {
    }

    /** Releases {@code connection}'s read buffer if it is an HTTP/1.1 connection whose request was read whole. */
    public static void release(Connection connection) {
        if (connection instanceof HttpConnection http && http.isRequestBufferEmpty() && http.getParser().isComplete()) {
            http.releaseRequestBuffer();
        }
    }
}
