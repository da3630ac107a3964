package io.slagate.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A floor of bench/gateway-vs-haproxy.sh: Jetty 12's server side alone, with the gateway's thread pool and HTTP
 * configuration, reading each request's body and answering the backend's fixed SOAP reply itself. Its handler is
 * non-blocking, as the gateway's is, so the selector thread runs it (Jetty's produce-consume mode, no hand-off). What
 * it costs per request is what any proxy on Jetty's server pays before it forwards anything; a gateway adds its
 * upstream leg.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.slagate.bench.JettyServerBaseline PORT}
 */
public final class JettyServerBaseline {
    private static final byte[] REPLY = ("<?xml version=\"1.0\"?><soapenv:Envelope xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\">"
            + "<soapenv:Body><ns:getQuoteResponse xmlns:ns=\"urn:stock\"><ns:return>42.0</ns:return></ns:getQuoteResponse>"
            + "</soapenv:Body></soapenv:Envelope>").getBytes(StandardCharsets.UTF_8);

    private JettyServerBaseline() {
    }

    public static void main(String[] args) throws Exception {
        Server server = new Server(new QueuedThreadPool(64, 8));
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setSendDateHeader(false);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost("127.0.0.1");
        connector.setPort(Integer.parseInt(args[0]));
        server.addConnector(connector);
        // non-blocking, as the gateway's handler is: run by the selector thread that read the request
        server.setHandler(new Handler.Abstract(Invocable.InvocationType.NON_BLOCKING) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                // the body is read whole, as a gateway reads it before forwarding
                Content.Source.consumeAll(request, Callback.from(() -> {
                    response.setStatus(200);
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/xml; charset=utf-8");
                    response.write(true, ByteBuffer.wrap(REPLY), callback);
                }, callback::failed));
                return true;
            }
        });
        server.start();
        server.join();
    }
}
