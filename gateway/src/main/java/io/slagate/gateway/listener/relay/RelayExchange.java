package io.slagate.gateway.listener.relay;

import java.nio.ByteBuffer;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The handler's callback for one exchange of a {@link RelayConnection}: the answer's end (its last write, or a 500 in
 * place of an answer not yet begun), then the connection's next request. Ends once, however often it is called.
 */
final class RelayExchange implements Callback {
    private static final Logger LOG = LoggerFactory.getLogger(RelayExchange.class);
    private final RelayConnection connection;
    private final RelayResponse response;
    private boolean over;

    RelayExchange(RelayConnection connection, RelayResponse response) {
        this.connection = connection;
        this.response = response;
    }

    RelayResponse response() {
        return response;
    }

    @Override
    public void succeeded() {
        if (response.hasLastWrite()) {
            end(true);
        } else {
            response.write(true, BufferUtil.EMPTY_BUFFER, Callback.from(() -> end(true), this::abort));
        }
    }

    @Override
    public void failed(Throwable x) {
        if (response.isCommitted()) {
            abort(x);
            return;
        }
        LOG.debug("answering 500 on {}", connection, x);
        response.reset();
        response.setStatus(500);
        response.closeAfter();
        ByteBuffer fault = connection.errorBody(500, x.toString(), response.getHeaders());
        response.write(true, fault, Callback.from(() -> end(false), this::abort));
    }

    private void abort(Throwable x) {
        LOG.debug("aborting {}", connection, x);
        if (!over) {
            over = true;
            connection.getEndPoint().close(x);
            connection.ended(this, false);
        }
    }

    private void end(boolean ok) {
        if (!over) {
            over = true;
            response.completed();
            connection.ended(this, ok && response.persistent());
        }
    }

    @Override
    public InvocationType getInvocationType() {
        return InvocationType.NON_BLOCKING;
    }
}
