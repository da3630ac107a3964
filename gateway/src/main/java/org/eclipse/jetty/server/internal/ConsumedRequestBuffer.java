package org.eclipse.jetty.server.internal;

import org.eclipse.jetty.io.Connection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 *
 * <p>Fenced three ways: the build pins the Jetty version this was checked against (an enforcer rule in the root pom
 * names this class); {@code WaitingRequestBufferTest} fails if waiting requests hold buffers again; and where the
 * method is missing (another Jetty on the class path) nothing is released and a warning says so once, at the first
 * request. {@code gateway.releaseRequestBuffer: false} turns it off.
 */
public final class ConsumedRequestBuffer {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumedRequestBuffer.class);
    /** Whether this Jetty has the method (checked once; linking the call fails only when it runs). */
    private static final boolean AVAILABLE = available();

    private ConsumedRequestBuffer() {
    }

    private static boolean available() {
        try {
            HttpConnection.class.getDeclaredMethod("releaseRequestBuffer");
            HttpConnection.class.getMethod("isRequestBufferEmpty");
            return true;
        } catch (NoSuchMethodException e) {
            LOG.warn("this Jetty's HttpConnection has no releaseRequestBuffer/isRequestBufferEmpty ({}): each waiting request "
                    + "keeps its connection's read buffer (gateway.requestBufferBytes of direct memory)", e.getMessage());
            return false;
        }
    }

    /** Whether buffers are released at all on this Jetty. */
    public static boolean releases() {
        return AVAILABLE;
    }

    /** Releases {@code connection}'s read buffer if it is an HTTP/1.1 connection whose request was read whole. */
    public static void release(Connection connection) {
        if (AVAILABLE && connection instanceof HttpConnection http && http.isRequestBufferEmpty() && http.getParser().isComplete()) {
            http.releaseRequestBuffer();
        }
    }
}
