package io.slagate.gateway.listener;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * What the gateway asks of the connection a request came on, whichever listener read it: the relay listener's
 * connections and Jetty's HTTP/1.1 connections (plain or behind TLS) both are one. Nothing outside this package names
 * either listener's classes.
 */
public interface ClientConnection {
    /** Gives the connection's read buffer back while its request waits with its body read whole (nothing unread in it). */
    void releaseBuffer();

    /** Whether the connection is between requests, reading the next one's head (what a slow-header guard watches). */
    boolean readingHead();

    /**
     * Whether the client went away while its request waited in a queue. Where finding out takes bytes of a request the
     * client pipelined behind this one, {@code response} is told to close the connection after its answer.
     */
    boolean clientGone(Response response);

    /** The connection {@code request} came on, as a client connection (null for a connection of another kind). */
    static ClientConnection of(Request request) {
        return of(request.getConnectionMetaData().getConnection());
    }

    /** {@code connection} as a client connection, or null when it is none (a TLS layer, the admin listener's). */
    static ClientConnection of(Connection connection) {
        return connection instanceof ClientConnection c ? c : null;
    }
}
