package io.slagate.gateway.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.HttpParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChunkedBodyTest {
    private static final String BODY = "5;name=\"v\"\r\nhello\r\n1A;q=1\r\n<soap:Envelope>.........</\r\n0\r\nX-Check: 1\r\n\r\n";
    private static final String NEXT = "GET / HTTP/1.1\r\nHost: a\r\n\r\n";

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Decodes {@code wire} fed in pieces of the given sizes (cycled); the data, and where the body ended. */
    private static String decode(ChunkedBody body, String wire, int[] pieces, int[] end) {
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        ByteBuffer b = bytes(wire);
        int at = 0;
        int p = 0;
        while (at < b.limit() && !body.done() && !body.refused()) {
            int held = Math.min(b.limit(), at + pieces[p++ % pieces.length]);
            at = body.decode(b, at, held, (buf, from, to) -> {
                for (int k = from; k < to; k++) {
                    data.write(buf.get(k));
                }
            });
        }
        end[0] = at;
        return data.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void aChunkedBody_isDecodedInPlace_howeverItArrives_andStopsWhereTheNextRequestStarts() {
        ChunkedBody body = new ChunkedBody(1 << 20, 256, 1024);
        int[] end = new int[1];
        for (int[] pieces : new int[][] {{1}, {2, 3}, {7}, {1000}}) {
            body.reset();
            assertEquals("hello<soap:Envelope>.........</", decode(body, BODY + NEXT, pieces, end));
            assertTrue(body.done(), body.refusal());
            assertEquals(BODY.length(), end[0], "the next request's bytes are left to it");
            assertEquals(31, body.bodyBytes());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a size in 0x form            | 0x5~hello~0~~                 | 400
            a signed size                | -5~hello~0~~                  | 400
            a size with a space inside   | 5 5~hello~0~~                 | 400
            an empty size                | ~hello~0~~                    | 400
            seventeen digits             | 00000000000000005~hello~0~~   | 400
            a size past the body's limit | 401~                          | 413
            a size that would overflow   | ffffffffffffffff~             | 413
            data longer than its size    | 3~hello~0~~                   | 400
            a bare LF after the size     | 5\\nhello~0~~                 | 400
            a bare LF after the data     | 5~hello\\n0~~                 | 400
            a NUL in an extension        | 5;a=\\0~hello~0~~             | 400
            an extension too long        | 5;aaaaaaaaaaaaaaaaaaaaaaaaa~hello~0~~ | 400
            whitespace before the ';'    | 5 ;a~hello~0~~                | 400
            an unclosed quote            | 5;a="b~hello~0~~             | 400
            a backslash in a quote       | 5;a="b\\"~hello~0~~        | 400
            an extension without a name  | 5;=b~hello~0~~                | 400
            a folded trailer             | 5~hello~0~X: a~ b~~           | 400
            a trailer without a name     | 5~hello~0~: a~~               | 400
            a trailer without a colon    | 5~hello~0~X-Check 1~~         | 400
            space before a trailer colon | 5~hello~0~X : a~~             | 400
            trailers too long            | 5~hello~0~X-Long: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa~~ | 431
            a bare CR at the end         | 5~hello~0~\\r\\r              | 400
            """)
    void whatCouldBeFramedTwoWays_isRefused(String name, String wire, int status) {
        ChunkedBody body = new ChunkedBody(1024, 16, 32);
        decode(body, RequestHeadTest.wire(wire), new int[] {3}, new int[1]);
        assertTrue(body.refused(), name);
        assertFalse(body.done());
        assertEquals(status, body.status(), name + ": " + body.refusal());
    }

    @Test
    void everyChunkedBodyItAccepts_jettyAcceptsWithTheSameDataAndEnd() {
        Random random = new Random(29);
        String head = "POST /s HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
        byte[] spice = {'\r', '\n', ';', '=', ' ', '\t', '0', 'f', 'G', ':', 'x', 0, '"'};
        ChunkedBody body = new ChunkedBody(1 << 20, 256, 1024);
        int accepted = 0;
        List<String> disagreements = new ArrayList<>();
        for (int n = 0; n < 20_000; n++) {
            StringBuilder wire = new StringBuilder(BODY);
            for (int e = random.nextInt(3); e >= 0; e--) {
                int at = random.nextInt(wire.length());
                switch (random.nextInt(3)) {
                    case 0 -> wire.setCharAt(at, (char) (spice[random.nextInt(spice.length)] & 0xff));
                    case 1 -> wire.insert(at, (char) (spice[random.nextInt(spice.length)] & 0xff));
                    default -> wire.deleteCharAt(at);
                }
            }
            String w = wire.toString();
            body.reset();
            int[] end = new int[1];
            String ours = decode(body, w + NEXT, new int[] {5}, end);
            if (!body.done()) {
                continue;
            }
            accepted++;
            String theirs = Jetty.read(head + w + NEXT, head.length());
            String mine = ours + " | end " + end[0];
            if (!mine.equals(theirs)) {
                disagreements.add(w.replace("\r", "\\r").replace("\n", "\\n").replace("\0", "\\0") + "\n  relay: " + mine + "\n  jetty: " + theirs);
            }
        }
        assertTrue(disagreements.isEmpty(), disagreements.size() + " bodies read two ways, e.g.\n"
                + String.join("\n", disagreements.subList(0, Math.min(5, disagreements.size()))));
        assertTrue(accepted > 1_000, "enough bodies survive the mutations to compare: " + accepted);
    }

    /** Jetty's reading of a chunked request: its data and where its message ended (relative to the body), or its refusal. */
    private static final class Jetty extends JettyReading {
        final ByteArrayOutputStream data = new ByteArrayOutputStream();
        boolean complete;

        static String read(String request, int headLength) {
            Jetty j = new Jetty();
            HttpParser parser = new HttpParser((HttpParser.RequestHandler) j, 8192, HttpCompliance.RFC9110);
            ByteBuffer b = bytes(request);
            try {
                while (!j.complete && j.failure == null && b.hasRemaining()) {
                    parser.parseNext(b);
                }
            } catch (RuntimeException e) {
                j.failure = e.toString();
            }
            if (j.failure != null || !j.complete) {
                return "refused: " + j.failure;
            }
            return j.data.toString(StandardCharsets.ISO_8859_1) + " | end " + (b.position() - headLength);
        }

        @Override
        public boolean content(ByteBuffer item) {
            while (item.hasRemaining()) {
                data.write(item.get());
            }
            return false;
        }

        @Override
        public boolean messageComplete() {
            complete = true;
            return true;
        }
    }
}
