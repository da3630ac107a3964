package io.slagate.bus.message;

/**
 * A resource manager's word to a gateway id that a join or beat for it was refused, and why: published on that
 * gateway's own allocation topic, so the gateway refused says so (a warning, {@code /ready}, a metric) instead of
 * waiting on its startup caps, and a gateway whose id another account tried to take hears of it.
 *
 * @param account the bus account the refused message came from (broker-stamped), or null on a bus without accounts
 */
public record RosterMessage(int schema, String gatewayId, String account, String reason, String managerId) implements BusMessage {
}
