package io.slagate.gateway.http1;

import java.nio.ByteBuffer;

/**
 * An answer that takes a server's end-to-end field lines as they came, already read strictly by {@link ResponseHead}:
 * the relay listener's. They are copied at once (the server's input is reused) and written after the answer's own
 * fields, with no field object or string made for them. The exchange keeps framing and connection fields out of them.
 */
public interface SplicedFields {
    /** Appends bytes {@code from..to} of {@code b}: whole field lines, each ending in CRLF. */
    void splice(ByteBuffer b, int from, int to);
}
