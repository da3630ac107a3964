package io.slagate.config;

import java.time.Duration;
import java.util.List;

/**
 * How far the gateway trusts and waits for its clients (section "trust boundaries" of the design):
 * a client's body is read before its request takes a server slot, an answer is buffered so that a
 * slow reader does not hold one either, and forwarding headers are believed only from known proxies.
 *
 * @param bufferedRequestBytes  bodies up to this size are read whole before the request is queued;
 *                              of a larger one this much is read first and the rest streams
 * @param requestBodyTimeout    the buffered part must arrive within it, and a streamed body may not
 *                              stall longer than it (a client fault, {@code request-timeout})
 * @param minRequestDataRate    bytes per second a streamed body must keep up, averaged from its start,
 *                              once {@code requestBodyTimeout} has passed
 * @param bufferedResponseBytes answers up to this size are read whole from the server, which frees its
 *                              slot, before they are written to the client
 * @param responseWriteTimeout  a larger answer streams; a client that takes no part of it for this long
 *                              is cut off ({@code response-timeout}) and the server's slot freed
 * @param trustedProxies        addresses or CIDR blocks whose {@code Forwarded}/{@code X-Forwarded-*}
 *                              headers are kept; from anyone else they are replaced by the gateway's own
 * @param refuseUnderscoreHeaders refuse a request with a header such as {@code Transfer_Encoding} that
 *                              some servers read as a framing or hop-by-hop header (otherwise it is dropped)
 * @param requestBufferBytes    each client connection's read buffer (direct memory): Jetty keeps it while the
 *                              connection's request is unanswered, so every waiting request holds one
 * @param releaseRequestBuffer  give that buffer back once the request was read whole (through a package-private
 *                              method of Jetty's; off: every waiting request holds its buffer)
 * @param relayListener         the client listener reads requests and writes answers with the gateway's own strict
 *                              HTTP/1.1 reading ({@code listener: relay}, plain HTTP only) instead of Jetty's
 *                              ({@code listener: jetty}, the default)
 */
public record ClientPolicy(long bufferedRequestBytes, Duration requestBodyTimeout, long minRequestDataRate,
                           long bufferedResponseBytes, Duration responseWriteTimeout, List<String> trustedProxies,
                           boolean refuseUnderscoreHeaders, int requestBufferBytes, boolean releaseRequestBuffer,
                           boolean relayListener) {
    public static final ClientPolicy DEFAULTS = new ClientPolicy(64 * 1024, Duration.ofSeconds(10), 1024,
            256 * 1024, Duration.ofSeconds(10), List.of(), false, 8 * 1024, true, false);

    public ClientPolicy {
        trustedProxies = List.copyOf(trustedProxies);
    }

    /** This policy with the client listener chosen: the relay's reading, or Jetty's. */
    public ClientPolicy withRelayListener(boolean relay) {
        return new ClientPolicy(bufferedRequestBytes, requestBodyTimeout, minRequestDataRate, bufferedResponseBytes,
                responseWriteTimeout, trustedProxies, refuseUnderscoreHeaders, requestBufferBytes, releaseRequestBuffer, relay);
    }
}
