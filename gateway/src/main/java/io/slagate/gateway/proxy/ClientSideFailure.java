package io.slagate.gateway.proxy;

import io.slagate.gateway.soap.FaultReason;
import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.io.EofException;

/**
 * A failure on the client's side of an exchange that was already sent upstream: the client's body
 * broke off, was malformed, stalled or came too slowly. Carried through the upstream leg so that
 * the dispatcher ({@code upstream.Dispatcher}) charges it to the client (its reason) and never to the server.
 */
public final class ClientSideFailure extends RuntimeException {
    public final FaultReason reason;

    public ClientSideFailure(FaultReason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    /** What reading the client's body failed with, as the client's fault. */
    public static ClientSideFailure of(Throwable readFailure) {
        if (readFailure instanceof ClientSideFailure c) {
            return c;
        }
        return new ClientSideFailure(reasonOf(readFailure), "reading the client's body failed: " + readFailure);
    }

    /**
     * An end of input is the client gone (Jetty's "Early EOF" is also an HTTP 400, so this comes first);
     * otherwise a body that breaks HTTP (bad chunk framing) may come as an I/O failure caused by a bad
     * message, so the causes are looked through for that: it is malformed, not a client gone.
     */
    private static FaultReason reasonOf(Throwable failure) {
        if (failure instanceof EofException) {
            return FaultReason.CLIENT_ABORTED; // Jetty's early EOF: the client closed mid-body
        }
        for (Throwable c = failure; c != null; c = c.getCause()) {
            if (c instanceof HttpException h) {
                return h.getCode() == 413 ? FaultReason.REQUEST_TOO_LARGE : FaultReason.MALFORMED_REQUEST;
            }
            if (c instanceof TimeoutException) {
                return FaultReason.REQUEST_TIMEOUT;
            }
        }
        return failure instanceof EofException || failure instanceof IOException ? FaultReason.CLIENT_ABORTED
                : FaultReason.MALFORMED_REQUEST;
    }
}
