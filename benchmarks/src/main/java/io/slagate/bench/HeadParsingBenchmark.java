package io.slagate.bench;

import io.slagate.gateway.http1.RequestHead;
import io.slagate.gateway.http1.ResponseHead;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpVersion;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The client leg's head, read the two ways: the relay's {@link RequestHead} (in place, then the three fields
 * classification reads as strings) against Jetty's {@link HttpParser} as its server uses it (a parser reused per
 * connection, the fields collected into {@link HttpFields}, then the same three looked up). The head is the one
 * {@code bench/post.lua} sends in the gateway benchmark. And the server's answer head (the benchmark's nginx answer, on
 * the heap as the upstream leg holds it): {@link ResponseHead} in place (its framing and reuse, what relaying its bytes
 * needs), the same from direct memory, the same with its fields collected for Jetty's listener as the upstream leg
 * does, and Jetty's parser collecting them (the upstream leg's reading before {@code ResponseHead}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HeadParsingBenchmark {
    static final byte[] HEAD = ("POST /services/StockUtility HTTP/1.1\r\n"
            + "Host: 127.0.0.1:9103\r\n"
            + "Content-Type: text/xml; charset=utf-8\r\n"
            + "SOAPAction: \"urn:premium\"\r\n"
            + "Authorization: Basic YzA6cHc=\r\n"
            + "Content-Length: 223\r\n"
            + "\r\n").getBytes(StandardCharsets.ISO_8859_1);

    static final byte[] ANSWER = ("HTTP/1.1 200 OK\r\n"
            + "Server: nginx/1.22.1\r\n"
            + "Date: Sun, 29 Nov 2026 14:00:00 GMT\r\n"
            + "Content-Type: text/xml; charset=utf-8\r\n"
            + "Content-Length: 226\r\n"
            + "Connection: keep-alive\r\n"
            + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
    /** The upstream leg's compliance: RFC 9110 without the bare-LF leniencies. */
    private static final HttpCompliance UPSTREAM = HttpCompliance.RFC9110.without("slagate-upstream",
            HttpCompliance.Violation.LF_HEADER_TERMINATION, HttpCompliance.Violation.LF_CHUNK_TERMINATION,
            HttpCompliance.Violation.MULTILINE_FIELD_VALUE);

    private final ByteBuffer relayBuffer = ByteBuffer.wrap(HEAD);
    private final RequestHead relay = new RequestHead(8192, 100);
    private final ByteBuffer jettyBuffer = ByteBuffer.wrap(HEAD);
    private final Fields fields = new Fields();
    private final HttpParser jetty = new HttpParser((HttpParser.RequestHandler) fields, 8192, HttpCompliance.RFC9110);
    /** On the heap, as the upstream leg's input is; the same bytes in direct memory for the comparison. */
    private final ByteBuffer answerBuffer = ByteBuffer.wrap(ANSWER);
    private final ByteBuffer answerDirect = ByteBuffer.allocateDirect(ANSWER.length).put(ANSWER).flip();
    private final ResponseHead answerHead = new ResponseHead(32 * 1024, 200);
    private final Fields answerFields = new Fields();
    private final HttpParser answerParser = new HttpParser((HttpParser.ResponseHandler) answerFields, 32 * 1024, UPSTREAM);

    @Benchmark
    public int relay() {
        relay.read(relayBuffer, 0);
        return relay.value("soapaction").length() + relay.value("content-type").length() + relay.value("authorization").length()
                + (int) relay.contentLength();
    }

    @Benchmark
    public int jetty() {
        jettyBuffer.clear();
        jetty.reset();
        fields.headers = HttpFields.build();
        jetty.parseNext(jettyBuffer);
        HttpFields h = fields.headers;
        return h.get("SOAPAction").length() + h.get(HttpHeader.CONTENT_TYPE).length() + h.get(HttpHeader.AUTHORIZATION).length()
                + (int) jetty.getContentLength();
    }

    @Benchmark
    public int answerRelay() {
        answerHead.read(answerBuffer, 0, answerBuffer.limit());
        return answerHead.status() + answerHead.length() + (int) answerHead.contentLength() + (answerHead.keepAlive() ? 1 : 0);
    }

    @Benchmark
    public int answerRelayDirect() {
        answerHead.read(answerDirect, 0, answerDirect.limit());
        return answerHead.status() + answerHead.length() + (int) answerHead.contentLength() + (answerHead.keepAlive() ? 1 : 0);
    }

    /** As the upstream leg reads an answer for Jetty's listener: the head in place, then its fields for the client's answer. */
    @Benchmark
    public int answerRelayFields() {
        answerHead.read(answerBuffer, 0, answerBuffer.limit());
        HttpFields.Mutable out = HttpFields.build();
        for (int f = 0; f < answerHead.fieldCount(); f++) {
            out.add(answerHead.httpField(f));
        }
        return answerHead.status() + answerHead.length() + (int) answerHead.contentLength() + out.size();
    }

    @Benchmark
    public int answerJetty() {
        answerBuffer.clear();
        answerParser.reset();
        answerFields.headers = HttpFields.build();
        answerParser.parseNext(answerBuffer);
        return answerFields.status + answerBuffer.position() + (int) answerParser.getContentLength() + answerFields.headers.size();
    }

    /**
     * What Jetty's server keeps of a request head (its fields, in a mutable HttpFields as its request does), and what the
     * upstream leg kept of an answer's (its status, and its fields for the client's answer).
     */
    static final class Fields implements HttpParser.RequestHandler, HttpParser.ResponseHandler {
        HttpFields.Mutable headers;
        int status;

        @Override
        public void startRequest(String method, String uri, HttpVersion version) {
        }

        @Override
        public void startResponse(HttpVersion version, int status, String reason) {
            this.status = status;
        }

        @Override
        public void parsedHeader(HttpField field) {
            headers.add(field);
        }

        @Override
        public boolean headerComplete() {
            return true;
        }

        @Override
        public boolean content(ByteBuffer item) {
            return true;
        }

        @Override
        public boolean contentComplete() {
            return true;
        }

        @Override
        public boolean messageComplete() {
            return true;
        }

        @Override
        public void earlyEOF() {
        }
    }
}
