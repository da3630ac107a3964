package io.slagate.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.io.ByteArrayOutputStream;
import java.util.zip.DeflaterOutputStream;
import org.apache.activemq.command.ActiveMQTextMessage;
import org.apache.activemq.util.ByteSequence;
import org.junit.jupiter.api.Test;

class MessageSizeGuardTest {
    private static ByteSequence deflated(long zeros) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeflaterOutputStream d = new DeflaterOutputStream(out)) {
            byte[] block = new byte[1 << 16];
            for (long n = 0; n < zeros; n += block.length) {
                d.write(block, 0, (int) Math.min(block.length, zeros - n));
            }
        }
        byte[] b = out.toByteArray();
        return new ByteSequence(b, 0, b.length);
    }

    @Test
    void aDeflateBomb_isCountedOnlyPastTheLimit() throws Exception {
        ByteSequence bomb = deflated(1L << 30); // a GiB of zeros: about a MB deflated
        assertTrue(bomb.getLength() < 2 << 20, "small on the wire: " + bomb.getLength());
        long counted = MessageSizeGuard.inflatedSize(bomb, 1 << 20);
        assertTrue(counted > 1 << 20 && counted <= (1 << 20) + 8192, "stops one buffer past the limit: " + counted);
    }

    @Test
    void aMessageWithinTheLimit_isCountedWhole_andAnUninflatableOneRefused() throws Exception {
        assertEquals(12_345, MessageSizeGuard.inflatedSize(deflated(12_345), MessageSizeGuard.LIMIT_BYTES));
        byte[] junk = {1, 2, 3, 4, 5, 6, 7, 8};
        assertThrows(IllegalArgumentException.class, () -> MessageSizeGuard.inflatedSize(new ByteSequence(junk, 0, junk.length), 100));
    }

    /** Deflate's ratio bound, which lets small compressed bodies through uncounted, holds at its best case (zeros). */
    @Test
    void deflatesBestRatio_isWithinTheBoundTheGuardReliesOn() throws Exception {
        long zeros = 64L << 20;
        ByteSequence d = deflated(zeros);
        assertTrue(zeros <= 1032L * d.getLength(), zeros + " bytes from " + d.getLength());
    }

    @Test
    void aCompressedMessage_refusedOnlyWhenItInflatesPastTheLimit() throws Exception {
        ActiveMQTextMessage bomb = new ActiveMQTextMessage();
        bomb.setContent(deflated(1L << 30));
        bomb.setCompressed(true);
        assertTrue(MessageSizeGuard.tooLarge(bomb) > MessageSizeGuard.LIMIT_BYTES, "a GiB of zeros in about a MB");
        ActiveMQTextMessage report = new ActiveMQTextMessage();
        report.setContent(deflated(20_000));
        report.setCompressed(true);
        assertEquals(-1, MessageSizeGuard.tooLarge(report), "a report's size");
    }
}
