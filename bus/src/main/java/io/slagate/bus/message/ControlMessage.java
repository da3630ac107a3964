package io.slagate.bus.message;


/**
 * An operator's command from the console to the resource manager (section III-B: "manually
 * override the control values"): {@code pause}, {@code resume}, {@code pin-weight} (gateway, class,
 * value), {@code unpin-weight}, {@code pin-capacity} (server, value), {@code unpin-capacity}.
 * {@code tuning-start}, {@code tuning-stop} and {@code tuning-revert} (the online tuner started now, stopped
 * with both sides on the best configuration, or stopped with both sides back on the configuration from before tuning),
 * for the tuning partition {@code partition} or, when it is null, for every partition.
 * {@code expiresInSeconds} ≤ 0 pins until unpinned. {@code user} names who asked, for the audit log.
 */
public record ControlMessage(int schema, String command, String gatewayId, String className, String serverId,
                             double value, double expiresInSeconds, String user, long timestampMillis, String partition)
        implements BusMessage {
    public static final String PAUSE = "pause";
    public static final String RESUME = "resume";
    public static final String PIN_WEIGHT = "pin-weight";
    public static final String UNPIN_WEIGHT = "unpin-weight";
    public static final String PIN_CAPACITY = "pin-capacity";
    public static final String UNPIN_CAPACITY = "unpin-capacity";
    /** The server stays in the pool it serves now; the manager's pool reconfiguration leaves it alone. */
    public static final String PIN_POOL = "pin-pool";
    public static final String UNPIN_POOL = "unpin-pool";
    public static final String TUNING_START = "tuning-start";
    public static final String TUNING_STOP = "tuning-stop";
    public static final String TUNING_REVERT = "tuning-revert";

    /** Not about a tuning partition. */
    public ControlMessage(int schema, String command, String gatewayId, String className, String serverId, double value,
                          double expiresInSeconds, String user, long timestampMillis) {
        this(schema, command, gatewayId, className, serverId, value, expiresInSeconds, user, timestampMillis, null);
    }
}
