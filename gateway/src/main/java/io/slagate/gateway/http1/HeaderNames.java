package io.slagate.gateway.http1;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.eclipse.jetty.http.HttpHeader;

/**
 * Jetty's {@link HttpHeader} for a field name read as bytes, without case. Found by the name's length and first letter
 * (one or two candidates, compared in full) rather than by walking {@link HttpHeader#CACHE}'s trie a byte at a time:
 * every field of every answer, and of every request on the relay listener, is looked up here.
 */
final class HeaderNames {
    private static final int MAX_LENGTH = 64;
    /** Candidates by {@link #slot}; null where no header has that length and first letter. */
    private static final HttpHeader[][] CANDIDATES = new HttpHeader[MAX_LENGTH * 32][];

    static {
        for (HttpHeader h : HttpHeader.values()) {
            String name = h.asString();
            if (HttpHeader.CACHE.get(name) != h || name.isEmpty() || name.length() >= MAX_LENGTH) {
                continue; // the same headers as Jetty's lookup: pseudo-headers and the like are not field names
            }
            int s = slot(name.length(), (byte) name.charAt(0));
            HttpHeader[] held = CANDIDATES[s] == null ? new HttpHeader[0] : CANDIDATES[s];
            CANDIDATES[s] = Arrays.copyOf(held, held.length + 1);
            CANDIDATES[s][held.length] = h;
        }
    }

    private HeaderNames() {
    }

    /** Letters of either case share a slot; other bytes may share one with a letter, which the full comparison settles. */
    private static int slot(int length, byte first) {
        return length * 32 + ((first | 0x20) & 31);
    }

    /** The header whose name is bytes from..to of {@code b} (absolute indices), whatever their case; null for any other name. */
    static HttpHeader find(ByteBuffer b, int from, int to) {
        int length = to - from;
        if (length <= 0 || length >= MAX_LENGTH) {
            return null;
        }
        HttpHeader[] candidates = CANDIDATES[slot(length, b.get(from))];
        if (candidates != null) {
            for (HttpHeader h : candidates) {
                if (Ascii.named(b, from, to, h.lowerCaseName())) {
                    return h;
                }
            }
        }
        return null;
    }
}
