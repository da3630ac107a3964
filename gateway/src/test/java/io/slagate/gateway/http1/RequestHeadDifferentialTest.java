package io.slagate.gateway.http1;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.gateway.http1.RequestHead.Verdict;
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
            String head = HeadMutations.mutate(SEEDS[random.nextInt(SEEDS.length)], random, LINES);
            ByteBuffer mine = ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1));
            Jetty jetty = Jetty.read(head);
            Verdict v = relay.read(mine, 0);
            if (v == Verdict.ACCEPTED) {
                accepted++;
                String ours = relay.method() + ' ' + relay.target() + " 1." + relay.minorVersion() + ' ' + HeadMutations.fields(relay)
                        + " length " + relay.contentLength() + " chunked " + relay.chunked();
                String theirs = jetty.failure != null ? "refused: " + jetty.failure : jetty.reading();
                if (!ours.equals(theirs) || relay.length() != jetty.headLength) {
                    disagreements.add(HeadMutations.printable(head) + "\n  relay: " + ours + "\n  jetty: " + theirs);
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

    /** Jetty's reading of the same bytes, stopped at the end of the head. */
    private static final class Jetty extends JettyReading {
        String method;
        String uri;
        HttpVersion version;

        static Jetty read(String head) {
            Jetty j = new Jetty();
            j.read(new HttpParser((HttpParser.RequestHandler) j, 8192, HttpCompliance.RFC9110), head);
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
            HeadMutations.add(fields, field.getName(), field.getValue());
        }

        @Override
        public boolean headerComplete() {
            complete = true;
            return true; // stop at the end of the head
        }
    }
}
