package io.slagate.bus.message;

/**
 * An operator's command from the console to the resource manager (section III-B: "manually
 * override the control values"): {@code pause}, {@code resume}, {@code pin-weight} (gateway, class,
 * value), {@code unpin-weight}, {@code pin-capacity} (server, value), {@code unpin-capacity}.
 * {@code expiresInSeconds} ≤ 0 pins until unpinned. {@code user} names who asked, for the audit log.
 */
public record ControlMessage(int schema, String command, String gatewayId, String className, String serverId,
                             double value, double expiresInSeconds, String user, long timestampMillis) implements BusMessage {
    public static final String PAUSE = "pause";
    public static final String RESUME = "resume";
    public static final String PIN_WEIGHT = "pin-weight";
    public static final String UNPIN_WEIGHT = "unpin-weight";
    public static final String PIN_CAPACITY = "pin-capacity";
    public static final String UNPIN_CAPACITY = "unpin-capacity";
}
