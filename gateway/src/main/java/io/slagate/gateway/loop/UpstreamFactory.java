package io.slagate.gateway.loop;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.Promise;

/** Makes the connection of an upstream connect once its endpoint is open, on the endpoint's loop. */
@FunctionalInterface
public interface UpstreamFactory<C extends Connection> {
    /** The connection over {@code endPoint} on loop {@code loop}; {@code promise} hears the connect's outcome. */
    C newConnection(EndPoint endPoint, int loop, Promise<C> promise);
}
