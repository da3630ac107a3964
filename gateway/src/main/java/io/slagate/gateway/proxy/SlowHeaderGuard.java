package io.slagate.gateway.proxy;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a client connection whose request line and headers take longer than {@code headerTimeout}
 * to arrive (slowloris: one byte now and then keeps the idle timeout from ever firing). Each
 * connection is looked at every half timeout; one seen in the header phase of the same request at
 * two looks in a row is closed. A connection idle between requests, or streaming a body, is left
 * alone (the idle timeout and the body limits cover those).
 */
public final class SlowHeaderGuard implements Connection.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(SlowHeaderGuard.class);
    private static final Set<HttpParser.State> HEADER_PHASE = EnumSet.of(HttpParser.State.METHOD, HttpParser.State.SPACE1,
            HttpParser.State.URI, HttpParser.State.SPACE2, HttpParser.State.REQUEST_VERSION, HttpParser.State.HEADER);

    private final Scheduler scheduler;
    private final long halfNanos;

    public SlowHeaderGuard(Scheduler scheduler, Duration headerTimeout) {
        this.scheduler = scheduler;
        this.halfNanos = Math.max(1, headerTimeout.toNanos() / 2);
    }

    @Override
    public void onOpened(Connection connection) {
        if (connection instanceof HttpConnection http) {
            scheduler.schedule(new Check(http), halfNanos, TimeUnit.NANOSECONDS);
        }
    }

    private final class Check implements Runnable {
        private final HttpConnection connection;
        private long seenInHeadersAt = -1; // messagesIn when last seen mid-headers, or -1

        Check(HttpConnection connection) {
            this.connection = connection;
        }

        @Override
        public void run() {
            if (!connection.getEndPoint().isOpen()) {
                return;
            }
            boolean inHeaders = HEADER_PHASE.contains(connection.getParser().getState());
            long messages = connection.getMessagesIn();
            if (inHeaders && seenInHeadersAt == messages) {
                LOG.debug("closing {}: request headers still incomplete after the header timeout", connection.getEndPoint());
                connection.getEndPoint().close();
                return;
            }
            seenInHeadersAt = inHeaders ? messages : -1;
            scheduler.schedule(this, halfNanos, TimeUnit.NANOSECONDS);
        }
    }
}
