package io.slagate.gateway.proxy;

import io.slagate.gateway.listener.ClientConnection;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a client connection whose request line and headers take longer than {@code headerTimeout}
 * to arrive (slowloris: one byte now and then keeps the idle timeout from ever firing). One sweep over
 * the connector's connections every half timeout; a connection seen in the header phase of the same
 * request at two sweeps in a row is closed. A connection idle between requests, or streaming a body,
 * or waiting in a queue, is left alone (the idle timeout and the body limits cover those).
 *
 * <p>One timer for all connections, and state only for those caught mid-headers: a timer per
 * connection cost a scheduled task and its closure on every waiting request's connection.
 */
public final class SlowHeaderGuard extends AbstractLifeCycle {
    private static final Logger LOG = LoggerFactory.getLogger(SlowHeaderGuard.class);

    private final AbstractConnector connector;
    private final long halfNanos;
    /** Connections mid-headers at the last sweep, with their request count then; touched by the sweep only. */
    private Map<Connection, Long> seenInHeaders = new IdentityHashMap<>();
    private volatile Scheduler.Task next;

    public SlowHeaderGuard(AbstractConnector connector, Duration headerTimeout) {
        this.connector = connector;
        this.halfNanos = Math.max(1, headerTimeout.toNanos() / 2);
    }

    @Override
    protected void doStart() {
        next = connector.getScheduler().schedule(this::sweep, halfNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    protected void doStop() {
        Scheduler.Task t = next;
        if (t != null) {
            t.cancel();
        }
    }

    private static boolean readingHead(Connection c) {
        ClientConnection client = ClientConnection.of(c);
        return client != null && client.readingHead();
    }

    private void sweep() {
        if (!isRunning()) {
            return;
        }
        try {
            Map<Connection, Long> now = new IdentityHashMap<>();
            for (EndPoint endPoint : connector.getConnectedEndPoints()) {
                Connection http = endPoint.getConnection();
                if (!endPoint.isOpen() || !readingHead(http)) {
                    continue;
                }
                long messages = http.getMessagesIn();
                Long before = seenInHeaders.get(http);
                if (before != null && before == messages) {
                    LOG.debug("closing {}: request headers still incomplete after the header timeout", endPoint);
                    endPoint.close();
                } else {
                    now.put(http, messages);
                }
            }
            seenInHeaders = now;
        } catch (RuntimeException e) {
            LOG.warn("slow-header sweep failed; the next one runs as usual", e);
        } finally {
            if (isRunning()) {
                next = connector.getScheduler().schedule(this::sweep, halfNanos, TimeUnit.NANOSECONDS);
            }
        }
    }
}
