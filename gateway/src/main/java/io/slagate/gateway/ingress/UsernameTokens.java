package io.slagate.gateway.ingress;

import io.slagate.gateway.proxy.FaultAnswers;
import io.slagate.gateway.proxy.GatewayContext;
import io.slagate.gateway.proxy.RequestBody;

import io.slagate.config.AuthenticationSettings;
import io.slagate.gateway.auth.Authenticator;
import io.slagate.gateway.auth.SecurityHeader;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.soap.SoapVersion;
import java.util.function.BiConsumer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * WS-Security UsernameTokens at the gateway ({@code wsSecurity.usernameToken}). A request with no credential in its
 * HTTP fields has its body read first (before any class, queue or server), its SOAP header read for a token, and the
 * token checked like a Basic password. Unless credentials are forwarded, a token never reaches the server: its
 * Security block is cut from the body, whichever credential proved the request; a header the gateway cannot read
 * is refused rather than passed on, so that nothing the gateway did not see goes to the server.
 */
final class UsernameTokens {
    private static final Logger LOG = LoggerFactory.getLogger(UsernameTokens.class);

    private final GatewayContext context;
    private final SecurityHeader header;
    private final boolean removes;
    private final long maxRequestBytes;

    private UsernameTokens(GatewayContext context, AuthenticationSettings a, long maxRequestBytes) {
        this.context = context;
        this.header = new SecurityHeader(a.wsSecurity());
        this.removes = !a.forwardCredentials();
        this.maxRequestBytes = maxRequestBytes;
    }

    /** The stage, or null when tokens are not read. */
    static UsernameTokens of(GatewayContext context, AuthenticationSettings a, long maxRequestBytes) {
        return a.wsSecurity().usernameToken() ? new UsernameTokens(context, a, maxRequestBytes) : null;
    }

    /** How much of a body is read before admission: enough for the SOAP header. */
    long bufferLimit() {
        return Math.max(context.clients.bufferedRequestBytes(), header.bytesNeeded());
    }

    /**
     * Reads the body of a request whose credential can only be in it, then its token: {@code then} gets what the token
     * proved (perhaps pending) and the body read (null for a request that is no SOAP message). A fault of the body or
     * of the header is answered here.
     */
    void authenticate(Request request, Response response, Callback callback, BiConsumer<Authenticator.Result, RequestBody> then) {
        Authenticator auth = context.authenticator;
        if (SoapVersion.fromContentType(request.getHeaders().get(HttpHeader.CONTENT_TYPE)) == null || !xml(request)) {
            then.accept(auth.checkToken(request, null, null), null);
            return;
        }
        RequestBody.read(request, reason -> FaultAnswers.refuseUnclassified(context, request, response, callback, reason),
                bufferLimit(), maxRequestBytes, context.timer, context.clients.requestBodyTimeout().toMillis(),
                context.clients.releaseRequestBuffer(), body -> {
                    SecurityHeader.Read read = read(body);
                    if (read.fault() != null) {
                        boolean charged = auth.malformedToken(request).outcome() != Authenticator.Outcome.THROTTLED;
                        FaultAnswers.refuseUnclassified(context, request, response, callback,
                                charged ? read.fault() : FaultReason.AUTHENTICATION_THROTTLED);
                    } else {
                        then.accept(auth.checkToken(request, read.user(), read.password()), body);
                    }
                });
    }

    /**
     * Before a request with a body goes on: its token (if any) taken out, unless credentials are forwarded; a fault when
     * its header cannot be read (null: go on).
     */
    FaultReason strip(Request request, RequestBody body) {
        if (!removes || body == null || !xml(request)) {
            return null;
        }
        SecurityHeader.Read read = body.security != null ? body.security : read(body);
        if (read.fault() != null) {
            return read.fault();
        }
        if (read.hasToken()) {
            body.cut(read.from(), read.to());
        }
        return null;
    }

    /**
     * Whether the body is a SOAP envelope in XML (text/xml, application/soap+xml): a multipart one (MTOM, SwA) is not
     * read, and a UsernameToken in it is neither checked nor removed.
     */
    private static boolean xml(Request request) {
        String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        return type != null && (type.regionMatches(true, 0, "text/xml", 0, 8) || type.regionMatches(true, 0, "application/soap+xml", 0, 20));
    }

    private SecurityHeader.Read read(RequestBody body) {
        SecurityHeader.Read read = header.read(body.buffered(), body.size(), body.complete(), System.currentTimeMillis());
        if (read.fault() != null) {
            LOG.debug("a SOAP header refused: {}", read.why());
        }
        body.security = read;
        return read;
    }
}
