package io.slagate.bus;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.activemq.transport.TransportListener;

/**
 * Follows a failover connection's transport: a loss runs {@code lost}; a resumption after a loss runs {@code resumed}.
 * The failover transport also reports its very first connection as resumed, which is not a reconnection.
 */
final class InterruptionWatch implements TransportListener {
    private final AtomicBoolean interrupted = new AtomicBoolean();
    private final Runnable lost;
    private final Runnable resumed;

    InterruptionWatch(Runnable lost, Runnable resumed) {
        this.lost = lost;
        this.resumed = resumed;
    }

    @Override
    public void onCommand(Object command) {
    }

    @Override
    public void onException(IOException error) {
    }

    @Override
    public void transportInterupted() {
        interrupted.set(true);
        lost.run();
    }

    @Override
    public void transportResumed() {
        if (interrupted.getAndSet(false)) {
            resumed.run();
        }
    }
}
