package io.slagate.gateway.loop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A loop's own direct buffer, through which its sockets read into and write from heap buffers. The JDK does the same
 * copy through a temporary direct buffer it finds per call in a thread-local (and a second thread-local for a
 * gathering write's vector); on the loop's thread those lookups cost as much as the copies (bench/results/PROFILE.md).
 * A write gathers every buffer into the stage and makes one plain write.
 *
 * <p>Used only by the thread that claimed it, the loop's selector thread: any other thread does its I/O the JDK's way.
 * Nothing stays in the stage between calls (a write not taken whole by the socket is still in its buffers, advanced by
 * what was taken), so the loop's connections share it.
 */
final class LoopStage {
    static final int BYTES = 64 * 1024;

    private final ByteBuffer direct;
    private volatile Thread owner;

    LoopStage() {
        this(BYTES);
    }

    LoopStage(int bytes) {
        direct = ByteBuffer.allocateDirect(bytes);
    }

    /** Makes {@code thread} the owner unless there is one already (a loop's selector thread stays one thread). */
    void claim(Thread thread) {
        if (owner == null) {
            synchronized (this) {
                if (owner == null) {
                    owner = thread;
                }
            }
        }
    }

    /** Whether the calling thread may use the stage. */
    boolean mine() {
        return owner == Thread.currentThread();
    }

    /**
     * Reads from {@code channel} into the room after {@code heap}'s bytes ({@code heap} in flush mode, array-backed and
     * writable): as {@link SocketChannel#read}, bytes read, 0 or −1; {@code heap}'s limit moved past what came. As
     * Jetty's fill, a buffer whose bytes were all consumed is filled from its start, and a full one is compacted first.
     */
    int read(SocketChannel channel, ByteBuffer heap) throws IOException {
        if (heap.position() == heap.limit()) {
            heap.position(0).limit(0);
        } else if (heap.limit() == heap.capacity()) {
            heap.compact().flip();
        }
        ByteBuffer d = direct;
        d.clear();
        int room = heap.capacity() - heap.limit();
        if (room < d.capacity()) {
            d.limit(room);
        }
        int n = channel.read(d);
        if (n > 0) {
            int at = heap.limit();
            heap.limit(at + n);
            d.get(0, heap.array(), heap.arrayOffset() + at, n);
        }
        return n;
    }

    /**
     * Writes what {@code buffers} hold, in order, until the socket takes no more: each buffer's position advanced by what
     * of it went out. Returns the bytes written.
     */
    long write(SocketChannel channel, ByteBuffer[] buffers) throws IOException {
        ByteBuffer d = direct;
        long written = 0;
        while (true) {
            d.clear();
            int gathered = 0;
            for (ByteBuffer b : buffers) {
                int k = Math.min(b.remaining(), d.capacity() - gathered);
                if (k > 0) {
                    d.put(gathered, b, b.position(), k);
                    gathered += k;
                }
            }
            if (gathered == 0) {
                return written;
            }
            d.limit(gathered);
            int n = channel.write(d);
            written += n;
            advance(buffers, n);
            if (n < gathered) {
                return written;
            }
        }
    }

    private static void advance(ByteBuffer[] buffers, int n) {
        for (ByteBuffer b : buffers) {
            if (n == 0) {
                return;
            }
            int k = Math.min(b.remaining(), n);
            b.position(b.position() + k);
            n -= k;
        }
    }
}
