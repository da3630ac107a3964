package io.slagate.gateway.upstream;

import java.nio.ByteBuffer;
import org.eclipse.jetty.util.BufferUtil;

/**
 * A server's answer held back until it is complete, copied out of the connection's input (which the
 * next read reuses), up to a limit past which the relay streams it instead. One per server connection,
 * used by the relay of the exchange in progress on it. Sized from the announced
 * length when there is one, grown by doubling otherwise.
 */
final class HeldAnswer {
    /** Heap, fill mode; null while nothing is held. */
    private ByteBuffer held;

    /**
     * Holds {@code piece}; false when the answer then exceeds the limit (the piece is held all the
     * same, and {@link #take} gives the whole as the first streamed write).
     *
     * @param announced the answer's Content-Length, or ≤ 0 when it has none
     * @param limit     the most bytes held ({@code bufferedResponseBytes})
     */
    boolean hold(ByteBuffer piece, long announced, long limit) {
        int n = piece.remaining();
        if (held == null) {
            int first = (int) Math.min(limit, announced > 0 ? announced : 8192);
            held = ByteBuffer.allocate(Math.max(first, n));
        } else if (held.remaining() < n) {
            ByteBuffer bigger = ByteBuffer.allocate((int) Math.max(held.capacity() * 2L, (long) held.position() + n));
            held.flip();
            bigger.put(held);
            held = bigger;
        }
        held.put(piece);
        return held.position() <= limit;
    }

    /** Forgets what is held. */
    void clear() {
        held = null;
    }

    /** What is held (possibly nothing), ready to write; nothing is held after. */
    ByteBuffer take() {
        ByteBuffer h = held;
        held = null;
        return h == null ? BufferUtil.EMPTY_BUFFER : h.flip();
    }
}
