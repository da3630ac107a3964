package io.slagate.bus.message;


/**
 * Liveness of a component. {@code event} is {@code join} (first beat after start or reconnect: the
 * resource manager answers with the current allocation at once), {@code alive}, {@code active} (a
 * resource manager's beat while it is the one publishing allocations), or {@code leave} (orderly
 * shutdown: its share goes to the others without waiting for expiry).
 *
 * @param credentialsVersion a gateway's: the version of the customers' credentials it applies (the last
 *                           {@link CredentialsMessage} it holds; 0: none since it started), or -1 when it
 *                           authenticates nobody; a console waits on it, and republishes to a gateway behind
 */
public record HeartbeatMessage(int schema, String componentId, String role, String event, long timestampMillis,
                               long allocationVersion, long credentialsVersion) implements BusMessage {
    public static final String JOIN = "join";
    public static final String ALIVE = "alive";
    public static final String ACTIVE = "active";
    public static final String LEAVE = "leave";

    /** A beat that says nothing of credentials (a resource manager's, or a gateway that authenticates nobody). */
    public HeartbeatMessage(int schema, String componentId, String role, String event, long timestampMillis,
                            long allocationVersion) {
        this(schema, componentId, role, event, timestampMillis, allocationVersion, -1);
    }
}
