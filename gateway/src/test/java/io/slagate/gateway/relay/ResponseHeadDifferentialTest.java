package io.slagate.gateway.relay;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.gateway.relay.ResponseHead.Verdict;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpVersion;
import org.junit.jupiter.api.Test;

/**
 * Mutated answer heads read by {@link ResponseHead} and by Jetty's {@link HttpParser} as the gateway's upstream leg
 * reads answers (RFC 9110 compliance without the bare-LF leniencies). Whatever the relay's reading accepts, Jetty must
 * accept too and read the same way: the same status, version, fields and framing. An answer read two ways is where a
 * response is split or smuggled; one only Jetty accepts is a stricter choice.
 */
class ResponseHeadDifferentialTest {
    /** The upstream leg's compliance (ServerConnection's). */
    static final HttpCompliance UPSTREAM = HttpCompliance.RFC9110.without("slagate-upstream",
            HttpCompliance.Violation.LF_HEADER_TERMINATION, HttpCompliance.Violation.LF_CHUNK_TERMINATION,
            HttpCompliance.Violation.MULTILINE_FIELD_VALUE);
    private static final String[] SEEDS = {
        ResponseHeadTest.SOAP_ANSWER,
        "HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\n\r\n",
        "HTTP/1.0 200 OK\r\nContent-Type: text/xml\r\nConnection: keep-alive\r\nContent-Length: 12\r\n\r\n",
        "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\nX-Request-Deadline: 250\r\nConnection: close\r\n\r\n",
        "HTTP/1.1 503\r\nRetry-After: 1\r\nContent-Length: 7\r\n\r\n",
    };
    private static final byte[] SPICE = {' ', '\t', '\r', '\n', ':', ',', '0', '9', '-', '+', 'a', 'X', 0, 0x7f, (byte) 0xe9, '/', '"'};
    private static final String[] LINES = {
        "Content-Length: 5", "Content-Length:5", "Transfer-Encoding: chunked", "Transfer-Encoding: gzip", "Connection: close",
        "Content-Length: 05", " folded", "X:", "Content-Length: 99999999999999999999", "Set-Cookie: a=b; Path=/",
    };

    @Test
    void everyAnswerTheRelayAccepts_jettyAcceptsAndReadsTheSameWay() {
        Random random = new Random(20261129);
        ResponseHead relay = new ResponseHead(32 * 1024, 200);
        int accepted = 0;
        int onlyJetty = 0;
        List<String> disagreements = new ArrayList<>();
        for (int n = 0; n < 20_000; n++) {
            String head = mutate(SEEDS[random.nextInt(SEEDS.length)], random);
            ByteBuffer mine = ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1));
            Jetty jetty = Jetty.read(head);
            Verdict v = relay.read(mine, 0, mine.limit());
            if (v == Verdict.ACCEPTED) {
                accepted++;
                String ours = relay.status() + " 1." + relay.minorVersion() + ' ' + fields(relay) + framing(relay.status(),
                        relay.contentLength(), relay.chunked());
                String theirs = jetty.failure != null ? "refused: " + jetty.failure : jetty.reading();
                if (!ours.equals(theirs) || relay.length() != jetty.headLength) {
                    disagreements.add(printable(head) + "\n  relay: " + ours + "\n  jetty: " + theirs);
                }
            } else if (v == Verdict.REFUSED && jetty.failure == null && jetty.complete) {
                onlyJetty++;
            }
        }
        assertTrue(disagreements.isEmpty(), disagreements.size() + " answers read two ways, e.g.\n"
                + String.join("\n", disagreements.subList(0, Math.min(5, disagreements.size()))));
        assertTrue(accepted > 2_000, "the mutations leave enough answers whole to compare: " + accepted);
        assertTrue(onlyJetty > 0, "the relay is stricter somewhere (repeated lengths, codings...): " + onlyJetty);
    }

    /** The framing compared: a bodiless status has none to compare (Jetty reports its length as it found it). */
    private static String framing(int status, long contentLength, boolean chunked) {
        boolean bodiless = status < 200 || status == 204 || status == 304;
        return bodiless ? " bodiless" : " length " + contentLength + " chunked " + chunked;
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
                default -> s.insert(s.indexOf("\r\n") + 2, LINES[r.nextInt(LINES.length)] + "\r\n");
            }
        }
        return s.toString();
    }

    private static String fields(ResponseHead h) {
        Map<String, List<String>> m = new TreeMap<>();
        for (int f = 0; f < h.fieldCount(); f++) {
            m.computeIfAbsent(h.name(f).toLowerCase(), k -> new ArrayList<>()).add(comparable(h.name(f), h.value(f)));
        }
        return m.toString();
    }

    /** Jetty hands out its cached lower-case form of a Content-Type it knows; the relay keeps the bytes as sent. */
    private static String comparable(String name, String value) {
        return name.equalsIgnoreCase("content-type") ? value.toLowerCase() : value;
    }

    private static String printable(String head) {
        return head.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t").replace("\0", "\\0");
    }

    /** Jetty's reading of the same bytes as an answer, stopped at the end of the head. */
    private static final class Jetty implements HttpParser.ResponseHandler {
        String failure;
        int status;
        HttpVersion version;
        final Map<String, List<String>> fields = new TreeMap<>();
        boolean complete;
        int headLength;
        HttpParser parser;

        static Jetty read(String head) {
            Jetty j = new Jetty();
            j.parser = new HttpParser(j, 32 * 1024, UPSTREAM);
            ByteBuffer b = ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1));
            try {
                j.parser.parseNext(b);
            } catch (RuntimeException | AssertionError e) {
                // with assertions on (tests), Jetty's parser asserts where its bad-message path meets an answer
                j.failure = e.toString();
            }
            j.headLength = b.position();
            return j;
        }

        String reading() {
            return status + " " + (version == HttpVersion.HTTP_1_1 ? "1.1" : version == HttpVersion.HTTP_1_0 ? "1.0" : version)
                    + ' ' + fields + framing(status, parser.getContentLength(), parser.isChunking());
        }

        @Override
        public void startResponse(HttpVersion version, int status, String reason) {
            this.version = version;
            this.status = status;
        }

        @Override
        public void parsedHeader(HttpField field) {
            fields.computeIfAbsent(field.getName().toLowerCase(), k -> new ArrayList<>()).add(comparable(field.getName(), field.getValue()));
        }

        @Override
        public boolean headerComplete() {
            complete = true;
            return true;
        }

        @Override
        public boolean content(ByteBuffer item) {
            return false;
        }

        @Override
        public boolean contentComplete() {
            return false;
        }

        @Override
        public boolean messageComplete() {
            return true;
        }

        @Override
        public void earlyEOF() {
        }

        @Override
        public void badMessage(HttpException failure) {
            this.failure = String.valueOf(failure);
        }
    }
}
