package io.slagate.e2e;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many slowloris connections from one thread: each sends a request line and then one header byte
 * every 200 ms, never finishing its headers. A connection the server closes is counted (with how long
 * it lived: until the last byte the server took) and replaced by a new one, so that {@code size} are kept
 * open against the server.
 */
final class SlowlorisSwarm implements AutoCloseable {
    private static final byte[] PREAMBLE = "POST /services/StockUtility HTTP/1.1\r\nHost: x\r\nX-Slow: "
            .getBytes(StandardCharsets.ISO_8859_1);

    /** One connection: when it opened, and when a header byte last went through (the swarm's own lag aside). */
    private static final class Loris {
        final SocketChannel channel;
        final long openedAt;
        long aliveAt;

        Loris(SocketChannel channel, long openedAt) {
            this.channel = channel;
            this.openedAt = openedAt;
            this.aliveAt = openedAt;
        }

        SocketChannel channel() {
            return channel;
        }
    }

    private final InetSocketAddress target;
    private final int size;
    private final ScheduledExecutorService tick = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "slowloris"));
    private final List<Loris> open = new ArrayList<>(); // tick thread only
    private final AtomicLong opened = new AtomicLong();
    private final AtomicLong closedByServer = new AtomicLong();
    private final AtomicLong longestLifeNanos = new AtomicLong();
    private final ByteBuffer scratch = ByteBuffer.allocate(4096);

    SlowlorisSwarm(int port, int size) {
        this.target = new InetSocketAddress("127.0.0.1", port);
        this.size = size;
        tick.scheduleWithFixedDelay(this::step, 0, 200, TimeUnit.MILLISECONDS);
    }

    private void step() {
        for (Iterator<Loris> it = open.iterator(); it.hasNext(); ) {
            Loris l = it.next();
            if (!trickle(l.channel())) {
                it.remove();
                closedByServer.incrementAndGet();
                // its life as the server gave it: until the last byte it took, not until this thread (one thread for
                // hundreds of connections, late under load) noticed the close
                longestLifeNanos.accumulateAndGet(l.aliveAt - l.openedAt, Math::max);
                close(l.channel());
            } else {
                l.aliveAt = System.nanoTime();
            }
        }
        while (open.size() < size) {
            try {
                SocketChannel c = SocketChannel.open(target);
                c.write(ByteBuffer.wrap(PREAMBLE));
                c.configureBlocking(false);
                open.add(new Loris(c, System.nanoTime()));
                opened.incrementAndGet();
            } catch (IOException refused) {
                return; // the server's connection limit or backlog; try again next tick
            }
        }
    }

    /** One more header byte; false once the server has closed the connection. */
    private boolean trickle(SocketChannel c) {
        try {
            scratch.clear();
            if (c.read(scratch) < 0) {
                return false;
            }
            c.write(ByteBuffer.wrap(new byte[] {'a'}));
            return true;
        } catch (IOException reset) {
            return false;
        }
    }

    private static void close(SocketChannel c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    long opened() {
        return opened.get();
    }

    long closedByServer() {
        return closedByServer.get();
    }

    double longestLifeSeconds() {
        return longestLifeNanos.get() / 1e9;
    }

    @Override
    public void close() throws Exception {
        tick.shutdown();
        tick.awaitTermination(5, TimeUnit.SECONDS);
        open.forEach(l -> close(l.channel()));
    }
}
