package io.slagate.bus.message;


/**
 * Liveness of a component. {@code event} is {@code join} (first beat after start or reconnect: the
 * resource manager answers with the current allocation at once), {@code alive}, {@code active} (a
 * resource manager's beat while it is the one publishing allocations), or {@code leave} (orderly
 * shutdown: its share goes to the others without waiting for expiry).
 */
public record HeartbeatMessage(int schema, String componentId, String role, String event, long timestampMillis,
                               long allocationVersion) implements BusMessage {
    public static final String JOIN = "join";
    public static final String ALIVE = "alive";
    public static final String ACTIVE = "active";
    public static final String LEAVE = "leave";
}
