package io.slagate.gateway.trace;

/**
 * What a traced request's spans say, taken when it ended (clock nanos: arrival, admission or 0 if it never
 * had a slot, end).
 *
 * @param fault the gateway's fault code, or null when the server's answer was relayed
 */
public record FinishedRequest(RequestSpan span, long arrivedNanos, long admittedNanos, long endNanos, String method, String path,
                              String className, String customer, String operation, String server, int status, String fault) {
}
