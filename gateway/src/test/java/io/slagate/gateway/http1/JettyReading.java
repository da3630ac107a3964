package io.slagate.gateway.http1;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpVersion;

/**
 * Jetty's parser's reading of a request or an answer, the reference the relay's readings are compared with: what it
 * refused, if anything. (Give it to the parser as the one handler or the other: it is both.)
 */
abstract class JettyReading implements HttpParser.RequestHandler, HttpParser.ResponseHandler {
    String failure;
    /** The fields as compared ({@link HeadMutations#add}), for the readings that collect them. */
    final Map<String, List<String>> fields = new TreeMap<>();
    boolean complete;
    int headLength;
    HttpParser parser;

    /** Reads {@code head} with {@code parser} up to where it stops: what it refused, and how far it read. */
    void read(HttpParser parser, String head) {
        this.parser = parser;
        ByteBuffer b = ByteBuffer.wrap(head.getBytes(StandardCharsets.ISO_8859_1));
        try {
            parser.parseNext(b);
        } catch (RuntimeException | AssertionError e) {
            // with assertions on (tests), Jetty's parser asserts where its bad-message path meets an answer
            failure = e.toString();
        }
        headLength = b.position();
    }

    @Override
    public void startRequest(String method, String uri, HttpVersion version) {
    }

    @Override
    public void startResponse(HttpVersion version, int status, String reason) {
    }

    @Override
    public void parsedHeader(HttpField field) {
    }

    @Override
    public boolean headerComplete() {
        return false;
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
