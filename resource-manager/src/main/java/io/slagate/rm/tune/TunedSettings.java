package io.slagate.rm.tune;


/**
 * What the tuners' own knobs set in the resource manager: N_s of a server, the queue timeout of a
 * class, the gateways' statistics window. The manager's overrides implement it; the knobs need no
 * more of the manager than this.
 */
public interface TunedSettings {
    /** The pinned N_s of {@code serverId} in force at {@code nowNanos}, or null. */
    Integer capacity(String serverId, long nowNanos);

    void pinCapacity(String serverId, int capacity, long untilNanos);

    /** The queue timeout set for {@code className}, in milliseconds, or null for the configured one. */
    Long queueTimeout(String className);

    void setQueueTimeout(String className, long millis);

    /** The statistics window set, in milliseconds; 0 for the configured one. */
    long statsWindowMillis();

    void setStatsWindow(long millis);
}
