package io.slagate.gateway.ingress;

import io.slagate.gateway.proxy.FaultAnswers;
import io.slagate.gateway.proxy.GatewayContext;

import io.slagate.gateway.auth.Authenticator;
import io.slagate.gateway.loop.LoopConnector;
import io.slagate.gateway.soap.FaultReason;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;

/**
 * The customer: proven by its credentials (a slow check, bcrypt or a signature, answers on a checking thread and the
 * request goes on on its own loop; a WS-Security UsernameToken is read from the body first), or without
 * authentication the name the request claims. A refused credential is answered here: never classified, queued or
 * counted as a class's arrival (the gateway's authentication counters say it).
 */
final class AuthenticationStage implements IngressStage {
    /** Longest customer name taken from a request; longer ones are treated as anonymous. */
    private static final int MAX_CUSTOMER_LENGTH = 256;

    private final GatewayContext context;
    private final UsernameTokens tokens;
    private final GatewayHandler handler;

    AuthenticationStage(GatewayContext context, UsernameTokens tokens, GatewayHandler handler) {
        this.context = context;
        this.tokens = tokens;
        this.handler = handler;
    }

    @Override
    public Verdict apply(Ingress in) {
        Authenticator auth = context.authenticator;
        if (auth == null) {
            in.customer = claimedCustomer(in.request.getHeaders(), in.classification.customerHeader());
            return Verdict.NEXT;
        }
        Authenticator.Result proven = auth.check(in.request);
        if (proven.inBody() && tokens != null) {
            tokens.authenticate(in.request, in.response, in.callback, (token, body) -> {
                in.body = body;
                if (proven(in, token) == Verdict.NEXT) {
                    handler.resume(in);
                }
            });
            return Verdict.PENDING;
        }
        return proven(in, proven);
    }

    /** Goes on once the customer is proven: at once, or after its slow check on the request's own loop. */
    private Verdict proven(Ingress in, Authenticator.Result proven) {
        if (proven.pending()) {
            int loop = LoopConnector.loopOf(in.request.getConnectionMetaData().getConnection().getEndPoint());
            proven = context.authenticator.await(proven, later -> context.loops.execute(loop, () -> {
                if (authenticated(in, later) == Verdict.NEXT) {
                    handler.resume(in);
                }
            }));
            if (proven == null) {
                return Verdict.PENDING;
            }
        }
        return authenticated(in, proven);
    }

    /** The customer {@code proven}, or the fault its credentials earned. */
    private Verdict authenticated(Ingress in, Authenticator.Result proven) {
        FaultReason refused = switch (proven.outcome()) {
            case VERIFIED, ANONYMOUS -> null;
            case REFUSED -> FaultReason.UNAUTHENTICATED;
            case THROTTLED -> FaultReason.AUTHENTICATION_THROTTLED;
            case BUSY -> FaultReason.AUTHENTICATION_BUSY;
        };
        if (refused != null) {
            FaultAnswers.refuseUnclassified(context, in.request, in.response, in.callback, refused);
            return Verdict.ANSWERED;
        }
        in.customer = proven.customer();
        return Verdict.NEXT;
    }

    /** The customer a request names (its Basic user name, or the configured header): claimed, not proven. */
    static String claimedCustomer(HttpFields headers, String customerHeader) {
        if (customerHeader != null) {
            String c = headers.get(customerHeader);
            return c == null || c.length() > MAX_CUSTOMER_LENGTH ? null : c.trim();
        }
        String auth = headers.get(HttpHeader.AUTHORIZATION);
        if (auth == null || auth.length() < 7 || !auth.regionMatches(true, 0, "Basic ", 0, 6)
                || auth.length() > 6 + MAX_CUSTOMER_LENGTH * 2) {
            return null;
        }
        try {
            byte[] decoded = Base64.getDecoder().decode(auth.substring(6).trim());
            int colon = 0;
            while (colon < decoded.length && decoded[colon] != ':') {
                colon++;
            }
            return new String(decoded, 0, colon, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }
}
