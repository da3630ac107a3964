package io.slagate.bus;

import io.slagate.bus.message.Topics;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import jakarta.jms.Message;
import java.util.zip.InflaterInputStream;
import org.apache.activemq.command.ActiveMQMessage;
import org.apache.activemq.util.ByteSequence;

/**
 * A received bus message's size, checked before its text is inflated, decoded or parsed: over
 * {@link Topics#MAX_MESSAGE_CHARS} characters (4 bytes each at worst in UTF-8) it is refused. A compressed body is
 * inflated only far enough to count past the limit, so a small message that would inflate to gigabytes (a deflate
 * bomb) costs no more than the limit; one too small to inflate past it (most: a report of 100 servers deflates to
 * ~1.3 KB) is not counted at all.
 */
final class MessageSizeGuard {
    static final long LIMIT_BYTES = 4L * Topics.MAX_MESSAGE_CHARS + 4;
    /** Deflate expands a body at most about 1032-fold: a compressed body this small cannot inflate past the limit. */
    static final long NEVER_TOO_LARGE_COMPRESSED = LIMIT_BYTES / 1032;

    private MessageSizeGuard() {
    }

    /** The size that makes {@code m} too large (its body's bytes, or its inflated bytes counted past the limit), or −1. */
    static long tooLarge(Message m) {
        if (!(m instanceof ActiveMQMessage am)) {
            return -1;
        }
        if (am.getSize() > LIMIT_BYTES) {
            return am.getSize();
        }
        if (am.isCompressed() && am.getContent() != null && am.getContent().getLength() > NEVER_TOO_LARGE_COMPRESSED) {
            long inflated = inflatedSize(am.getContent(), LIMIT_BYTES);
            return inflated > LIMIT_BYTES ? inflated : -1;
        }
        return -1;
    }

    /** The body's size once inflated, counted up to {@code limit} and one buffer further at most. */
    static long inflatedSize(ByteSequence content, long limit) {
        if (content == null) {
            return 0;
        }
        try (InflaterInputStream in = new InflaterInputStream(new ByteArrayInputStream(content.getData(), content.getOffset(),
                content.getLength()))) {
            byte[] buffer = new byte[8192];
            long n = 0;
            for (int r = in.read(buffer); r > 0; r = in.read(buffer)) {
                n += r;
                if (n > limit) {
                    return n;
                }
            }
            return n;
        } catch (IOException e) {
            throw new IllegalArgumentException("a compressed body that does not inflate: " + e.getMessage());
        }
    }
}
