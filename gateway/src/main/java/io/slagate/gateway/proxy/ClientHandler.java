package io.slagate.gateway.proxy;

import io.slagate.config.SlagateConfig;
import org.eclipse.jetty.server.Handler;

/**
 * What takes a client's request in, as the request path sees it: it classifies, refuses or queues each request and
 * hands the admitted ones to the dispatcher ({@link GatewayContext#dispatcher()}). Built over the request path's
 * context by a {@link Factory}, so that the way in (its stages) and the way out (dispatch, upstreams) know each other
 * only through the context.
 */
public abstract class ClientHandler extends Handler.Abstract.NonBlocking {
    /** Builds the handler of a request path over its context, for a configuration. */
    public interface Factory {
        ClientHandler create(GatewayContext context, SlagateConfig config);
    }

    /** Replaces the rules, subscriptions and customer source; requests already classified keep their class. */
    public abstract void reclassify(SlagateConfig next);

    /** After this, new requests get a shutting-down fault; requests already accepted finish. */
    public abstract void stopAccepting();
}
