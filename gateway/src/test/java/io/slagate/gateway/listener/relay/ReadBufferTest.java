package io.slagate.gateway.listener.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ByteArrayEndPoint;
import org.junit.jupiter.api.Test;

/**
 * A range lent from the read buffer keeps its bytes, whatever the connection reads next: after all the held bytes were
 * taken (a read would start at the buffer's front), when the buffer is full (a read would compact it), when it is
 * cleared, and after the connection gives the buffer up; and the bytes not yet taken go on in order.
 */
class ReadBufferTest {
    private final ArrayByteBufferPool pool = new ArrayByteBufferPool();
    private final ReadBuffer buffer = new ReadBuffer(pool, 16);
    private final ByteArrayEndPoint client = new ByteArrayEndPoint();

    private static String text(ByteBuffer b) {
        return StandardCharsets.US_ASCII.decode(b.duplicate()).toString();
    }

    /** Takes {@code n} of the held bytes as a lent range, as a body's reader does. */
    private ByteBuffer take(int n) {
        ByteBuffer in = buffer.in();
        ByteBuffer range = in.slice(in.position(), n);
        in.position(in.position() + n);
        return range;
    }

    @Test
    void aRangeLent_keepsItsBytes_whenEveryHeldByteWasTaken_andTheNextReadComes() throws Exception {
        client.addInput("0123456789ABCDEF");
        assertEquals(16, buffer.fill(client));
        ByteBuffer range = take(16);
        Runnable giveBack = buffer.lend();
        client.addInput("the next request");
        assertEquals(16, buffer.append(client), "read while the range is on its way upstream");
        assertEquals("0123456789ABCDEF", text(range), "not read over");
        assertEquals("the next request", text(buffer.in()));
        giveBack.run();
    }

    @Test
    void aRangeLent_keepsItsBytes_whenTheFullBufferWouldBeCompacted_andWhatIsHeldGoesOnInOrder() throws Exception {
        client.addInput("0123456789ABCDEF");
        buffer.fill(client);
        ByteBuffer range = take(10);
        Runnable giveBack = buffer.lend();
        client.addInput("ghij");
        assertEquals(4, buffer.fill(client));
        assertEquals("0123456789", text(range));
        assertEquals("ABCDEFghij", text(buffer.in()), "the held bytes first, the new ones after");
        buffer.clear();
        buffer.release();
        assertEquals("0123456789", text(range), "cleared and given up: the reader's hold keeps the bytes");
        giveBack.run();
    }

    @Test
    void withNothingLent_theBufferIsReusedInPlace() throws Exception {
        client.addInput("0123456789ABCDEF");
        buffer.fill(client);
        ByteBuffer before = buffer.in();
        take(16);
        client.addInput("xyz");
        buffer.fill(client);
        assertEquals(true, before == buffer.in(), "no fresh buffer when no range is out");
        assertEquals("xyz", text(buffer.in()));
    }

    @Test
    void drop_takesAtMostWhatItIsAllowedACall_givesTheBufferBackWhenTheSocketIsDry_andSaysTheEnd() throws Exception {
        client.addInput("x".repeat(100_000));
        int first = buffer.drop(client, 20);
        assertEquals(true, first >= 20 && first < 100_000, "one read's worth: the allowance spent, more waiting: " + first);
        int dropped = first, calls = 1;
        for (int n = first; n > 0; calls++) {
            n = buffer.drop(client, 20);
            dropped += Math.max(n, 0);
        }
        assertEquals(100_000, dropped, "all of it over " + calls + " calls, then nothing more");
        assertEquals(false, buffer.holds(), "the buffer given back while nothing comes");
        client.addInputEOF();
        assertEquals(-1, buffer.drop(client, 1000));
    }
}
