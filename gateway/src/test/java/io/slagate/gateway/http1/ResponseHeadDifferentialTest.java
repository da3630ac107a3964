package io.slagate.gateway.http1;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.gateway.http1.ResponseHead.Verdict;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.eclipse.jetty.http.HttpCompliance;
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
            String head = HeadMutations.mutate(SEEDS[random.nextInt(SEEDS.length)], random, LINES);
            ByteBuffer mine = ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1));
            Jetty jetty = Jetty.read(head);
            Verdict v = relay.read(mine, 0, mine.limit());
            if (v == Verdict.ACCEPTED) {
                accepted++;
                String ours = relay.status() + " 1." + relay.minorVersion() + ' ' + HeadMutations.fields(relay) + framing(relay.status(),
                        relay.contentLength(), relay.chunked());
                String theirs = jetty.failure != null ? "refused: " + jetty.failure : jetty.reading();
                if (!ours.equals(theirs) || relay.length() != jetty.headLength) {
                    disagreements.add(HeadMutations.printable(head) + "\n  relay: " + ours + "\n  jetty: " + theirs);
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

    /** Jetty's reading of the same bytes as an answer, stopped at the end of the head. */
    private static final class Jetty extends JettyReading {
        int status;
        HttpVersion version;

        static Jetty read(String head) {
            Jetty j = new Jetty();
            j.read(new HttpParser((HttpParser.ResponseHandler) j, 32 * 1024, UPSTREAM), head);
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
            HeadMutations.add(fields, field.getName(), field.getValue());
        }

        @Override
        public boolean headerComplete() {
            complete = true;
            return true;
        }
    }
}
