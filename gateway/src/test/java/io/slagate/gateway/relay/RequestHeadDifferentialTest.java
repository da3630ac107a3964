package io.slagate.gateway.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.gateway.relay.RequestHead.Verdict;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpVersion;
import org.junit.jupiter.api.Test;

/**
 * Mutated heads read by {@link RequestHead} and by Jetty's {@link HttpParser} in its strict RFC 9110 mode. Whatever the
 * relay's reading accepts, Jetty must accept too and read the same way: the same method, target, version, fields and
 * framing. A head read two ways is where a request is smuggled; a head only Jetty accepts is a stricter choice.
 */
class RequestHeadDifferentialTest {
    private static final String[] SEEDS = {
        RequestHeadTest.SOAP_POST,
        "GET /services/StockUtility?wsdl HTTP/1.1\r\nHost: a\r\nAccept: */*\r\n\r\n",
        "POST /s HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Type: application/soap+xml; action=\"urn:x\"\r\n\r\n",
        "POST /s HTTP/1.0\r\nContent-Length: 12\r\nConnection: keep-alive\r\n\r\n",
        "POST /s HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nExpect: 100-continue\r\nX-Request-Deadline: 250\r\n\r\n",
    };
    /** What mutations insert or overwrite: the bytes a smuggler plays with. */
    private static final byte[] SPICE = {' ', '\t', '\r', '\n', ':', ',', '0', '9', '-', '+', 'a', 'X', 0, 0x7f, (byte) 0xe9, '/', '"'};
    private static final String[] LINES = {
        "Content-Length: 5", "Content-Length:5", "Transfer-Encoding: chunked", "Transfer-Encoding: gzip", "Host: b",
        "Content-Length: 05", " folded", "Connection: close", "X:", "Content-Length: 99999999999999999999",
    };

    @Test
    void everyHeadTheRelayAccepts_jettyAcceptsAndReadsTheSameWay() {
        Random random = new Random(20261129);
        RequestHead relay = new RequestHead(8192, 100);
        int accepted = 0;
        int onlyJetty = 0;
        List<String> disagreements = new ArrayList<>();
        for (int n = 0; n < 20_000; n++) {
            String head = mutate(SEEDS[random.nextInt(SEEDS.length)], random);
            ByteBuffer mine = ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1));
            Jetty jetty = Jetty.read(head);
            Verdict v = relay.read(mine, 0);
            if (v == Verdict.ACCEPTED) {
                accepted++;
                String ours = relay.method() + ' ' + relay.target() + " 1." + relay.minorVersion() + ' ' + fields(relay)
                        + " length " + relay.contentLength() + " chunked " + relay.chunked();
                String theirs = jetty.failure != null ? "refused: " + jetty.failure : jetty.reading();
                if (!ours.equals(theirs) || relay.length() != jetty.headLength) {
                    disagreements.add(printable(head) + "\n  relay: " + ours + "\n  jetty: " + theirs);
                }
            } else if (v == Verdict.REFUSED && jetty.failure == null && jetty.complete) {
                onlyJetty++;
            }
        }
        assertTrue(disagreements.isEmpty(), disagreements.size() + " heads read two ways, e.g.\n"
                + String.join("\n", disagreements.subList(0, Math.min(5, disagreements.size()))));
        assertTrue(accepted > 2_000, "the mutations leave enough heads whole to compare: " + accepted);
        assertTrue(onlyJetty > 0, "the relay is stricter somewhere (folding, leading empty lines...): " + onlyJetty);
    }

    private static String mutate(String seed, Random r) {
        StringBuilder s = new StringBuilder(seed);
        int edits = 1 + r.nextInt(3);
        for (int e = 0; e < edits; e++) {
            int at = r.nextInt(s.length());
            switch (r.nextInt(5)) {
                case 0 -> s.setCharAt(at, (char) (SPICE[r.nextInt(SPICE.length)] & 0xff));
                case 1 -> s.insert(at, (char) (SPICE[r.nextInt(SPICE.length)] & 0xff));
                case 2 -> s.deleteCharAt(at);
                default -> {
                    int line = s.indexOf("\r\n") + 2; // a whole field after the request line
                    s.insert(line, LINES[r.nextInt(LINES.length)] + "\r\n");
                }
            }
        }
        return s.toString();
    }

    private static String fields(RequestHead h) {
        Map<String, List<String>> m = new TreeMap<>();
        for (int f = 0; f < h.fieldCount(); f++) {
            m.computeIfAbsent(h.name(f).toLowerCase(), k -> new ArrayList<>()).add(comparable(h.name(f), h.value(f)));
        }
        return m.toString();
    }

    /**
     * A field's value as compared: a media type is case-insensitive, and Jetty hands out its cached lower-case form of
     * a Content-Type it knows ({@code text/Xml} read as {@code text/xml}); the relay keeps the bytes as sent.
     */
    private static String comparable(String name, String value) {
        return name.equalsIgnoreCase("content-type") ? value.toLowerCase() : value;
    }

    private static String printable(String head) {
        return head.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t").replace("\0", "\\0");
    }

    /** Jetty's reading of the same bytes, stopped at the end of the head. */
    private static final class Jetty extends JettyReading {
        String method;
        String uri;
        HttpVersion version;
        final Map<String, List<String>> fields = new TreeMap<>();
        boolean complete;
        int headLength;
        HttpParser parser;

        static Jetty read(String head) {
            Jetty j = new Jetty();
            j.parser = new HttpParser(j, 8192, HttpCompliance.RFC9110);
            ByteBuffer b = ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1));
            try {
                j.parser.parseNext(b);
            } catch (RuntimeException e) {
                j.failure = e.toString();
            }
            j.headLength = b.position();
            return j;
        }

        String reading() {
            return method + ' ' + uri + ' ' + (version == HttpVersion.HTTP_1_1 ? "1.1" : version == HttpVersion.HTTP_1_0 ? "1.0" : version)
                    + ' ' + fields + " length " + parser.getContentLength() + " chunked " + parser.isChunking();
        }

        @Override
        public void startRequest(String method, String uri, HttpVersion version) {
            this.method = method;
            this.uri = uri;
            this.version = version;
        }

        @Override
        public void parsedHeader(HttpField field) {
            fields.computeIfAbsent(field.getName().toLowerCase(), k -> new ArrayList<>()).add(comparable(field.getName(), field.getValue()));
        }

        @Override
        public boolean headerComplete() {
            complete = true;
            return true; // stop at the end of the head
        }
    }
}
