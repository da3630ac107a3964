package io.slagate.gateway.relay;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpVersion;

/** Jetty's parser's reading of a request, the reference the relay's readings are compared with: what it refused, if anything. */
abstract class JettyReading implements HttpParser.RequestHandler {
    String failure;

    @Override
    public void startRequest(String method, String uri, HttpVersion version) {
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
