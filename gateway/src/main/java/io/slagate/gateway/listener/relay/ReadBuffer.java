package io.slagate.gateway.listener.relay;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.util.BufferUtil;

/**
 * A relay connection's read buffer, and the ranges of it lent to readers. The bytes held and not yet taken lie
 * between position and limit. A range handed to a reader (a body's bytes, written upstream perhaps over many writes)
 * holds the pooled buffer ({@link #lend}) until the reader releases it, and nothing is read over it meanwhile: a read
 * that would reuse the buffer's front (all its bytes taken) or compact it (full) moves the bytes not yet taken to a
 * fresh buffer first and leaves the old one to its readers. Giving the buffer up drops only the connection's own
 * hold. So a body's bytes cannot change under its writes, whatever the client sends next or however it leaves.
 * A heap buffer: heads are read from it a byte at a time (bench/results/head-parsing.md). On the connection's loop.
 */
final class ReadBuffer {
    private final ByteBufferPool pool;
    private final int size;
    private ByteBuffer in = BufferUtil.EMPTY_BUFFER;
    /** The pooled buffer behind {@link #in} while one is held; null when given back. */
    private RetainableByteBuffer held;

    ReadBuffer(ByteBufferPool pool, int size) {
        this.pool = pool;
        this.size = size;
    }

    /** The bytes held, not yet taken between position and limit (the buffer itself may change at the next read). */
    ByteBuffer in() {
        return in;
    }

    boolean holds() {
        return held != null;
    }

    /** Whether the buffer is full: a read now would take nothing (the rest waits in the socket). */
    boolean full() {
        return held != null && in.limit() == in.capacity();
    }

    /** Reads what the socket has after the bytes held, compacting them first: bytes read, 0 for none yet, −1 at its end. */
    int fill(EndPoint endPoint) throws IOException {
        keepLent(false);
        if (held == null) {
            acquire();
        } else if (!in.hasRemaining()) {
            BufferUtil.clear(in);
        } else if (in.limit() == in.capacity()) {
            BufferUtil.compact(in);
        }
        return endPoint.fill(in);
    }

    /** Reads what the socket has after the bytes held without moving them (none when full): as {@link #fill}. */
    int append(EndPoint endPoint) throws IOException {
        keepLent(false);
        if (held == null) {
            acquire();
        } else if (full()) {
            return 0;
        }
        return endPoint.fill(in);
    }

    /**
     * Reads and drops what the socket has, about {@code most} bytes at the most: −1 at its end, 0 once it has nothing
     * more (the buffer given back meanwhile), more than 0 when {@code most} was dropped and more may be waiting.
     */
    int drop(EndPoint endPoint, int most) throws IOException {
        int dropped = 0;
        while (dropped < most) {
            clear();
            int n = fill(endPoint);
            if (n <= 0) {
                if (n == 0) {
                    releaseIfEmpty();
                }
                return n;
            }
            dropped += n;
        }
        clear();
        return dropped;
    }

    /** Drops the bytes held (none of them is wanted any more); the ranges lent stay their readers'. */
    void clear() {
        keepLent(true);
        BufferUtil.clear(in);
    }

    /**
     * A range of the buffer goes to a reader: the buffer is retained for it; what gives it back is returned, for the
     * reader's release (null: no buffer is held, nothing to lend).
     */
    Runnable lend() {
        RetainableByteBuffer lent = held;
        if (lent == null) {
            return null;
        }
        lent.retain();
        return lent::release;
    }

    /**
     * Before a read that could reuse the buffer under bytes already taken (all taken: reads start at its front; full:
     * it is compacted), a buffer with ranges still lent is left to their readers, and the bytes not yet taken go on in
     * a fresh one ({@code always}: whatever the read would do).
     */
    private void keepLent(boolean always) {
        if (held == null || !held.isRetained() || !always && in.hasRemaining() && in.limit() < in.capacity()) {
            return;
        }
        RetainableByteBuffer fresh = pool.acquire(size, false);
        ByteBuffer next = fresh.getByteBuffer();
        BufferUtil.clear(next);
        BufferUtil.append(next, in); // a pipelined request's first bytes, if any
        held.release(); // the connection's hold: the readers' keep the old buffer until they are done
        held = fresh;
        in = next;
    }

    private void acquire() {
        held = pool.acquire(size, false);
        in = held.getByteBuffer();
        BufferUtil.clear(in);
    }

    /** Gives the buffer up while nothing is held (a request waiting with its body taken); the next read takes one. */
    void releaseIfEmpty() {
        if (held != null && !in.hasRemaining()) {
            release();
        }
    }

    /** Gives the buffer up (the connection's hold only: ranges lent stay their readers' until released). */
    void release() {
        if (held != null) {
            held.release();
            held = null;
            in = BufferUtil.EMPTY_BUFFER;
        }
    }
}
