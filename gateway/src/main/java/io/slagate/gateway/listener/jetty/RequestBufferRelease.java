package io.slagate.gateway.listener.jetty;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a client connection's read buffer back to the pool once the request it holds was read whole.
 *
 * <p>Jetty keeps an HTTP/1.1 connection's read buffer until the response is complete, even when nothing is left in
 * it; a gateway whose requests wait in a queue with their bodies read would hold one buffer (direct memory,
 * {@code requestBufferBytes}) per waiting request for nothing. Jetty releases an empty buffer itself, by a
 * package-private method, when a request is parsed whole before its handler runs, and takes a new one on the next read;
 * this calls the same method once the gateway has read the body, under the same conditions: nothing unread in the
 * buffer (no pipelined request) and the request complete. The method is reached by a private method handle, found once
 * (Jetty's classes are on the class path, whose packages are open), so no class of ours lives in Jetty's package.
 *
 * <p>Fenced three ways: the build pins the Jetty version this was checked against (an enforcer rule in the root pom
 * names this class); {@code WaitingRequestBufferTest} fails if waiting requests hold buffers again; and where the
 * method is missing (another Jetty on the class path) nothing is released and a warning says so once.
 * {@code gateway.releaseRequestBuffer: false} turns it off.
 */
public final class RequestBufferRelease {
    private static final Logger LOG = LoggerFactory.getLogger(RequestBufferRelease.class);
    /** HttpConnection.releaseRequestBuffer(), or null where this Jetty has none. */
    private static final MethodHandle RELEASE = find();

    private RequestBufferRelease() {
    }

    private static MethodHandle find() {
        try {
            return MethodHandles.privateLookupIn(HttpConnection.class, MethodHandles.lookup())
                    .findVirtual(HttpConnection.class, "releaseRequestBuffer", MethodType.methodType(void.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            LOG.warn("this Jetty's HttpConnection.releaseRequestBuffer cannot be reached ({}): each waiting request keeps its"
                    + " connection's read buffer (gateway.requestBufferBytes of direct memory)", e.toString());
            return null;
        }
    }

    /** Whether buffers are released at all on this Jetty. */
    public static boolean releases() {
        return RELEASE != null;
    }

    /** Releases {@code http}'s read buffer if its request was read whole and nothing after it is buffered. */
    static void release(HttpConnection http) {
        if (RELEASE != null && http.isRequestBufferEmpty() && http.getParser().isComplete()) {
            try {
                RELEASE.invokeExact(http);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("releasing a request buffer", t); // it declares no checked exception
            }
        }
    }
}
