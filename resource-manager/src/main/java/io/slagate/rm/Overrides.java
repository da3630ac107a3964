package io.slagate.rm;

import io.slagate.rm.tune.TunedSettings;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Manual overrides of the controller (section III-B, "manually override the control values"):
 * a flow's weight or a server's N_s pinned, each until an optional deadline, and the controller
 * paused. Set by the console, read by each control step; a pin past its deadline is ignored and
 * dropped.
 */
public final class Overrides implements TunedSettings {
    /** A pinned value with a deadline on the control loop's clock (Long.MAX_VALUE: until unpinned). */
    public record Pin(double value, long untilNanos) {
        boolean expired(long nowNanos) {
            return untilNanos != Long.MAX_VALUE && nowNanos - untilNanos >= 0;
        }
    }

    private final Map<String, Pin> weights = new ConcurrentHashMap<>();
    private final Map<String, Pin> capacities = new ConcurrentHashMap<>();
    private volatile boolean paused;
    /** Queue timeouts the tuner set (the queueTimeout knob), milliseconds by class; sent with every allocation. */
    private final Map<String, Long> queueTimeouts = new ConcurrentHashMap<>();
    /** The gateways' statistics window the tuner set (the window knob), ms; 0: the configured one. */
    private volatile long statsWindowMillis;

    static String flowKey(String gatewayId, String className) {
        return gatewayId + "/" + className;
    }

    public void pinWeight(String gatewayId, String className, double weight, long untilNanos) {
        if (!(weight > 0)) {
            throw new IllegalArgumentException("a pinned weight must be > 0: " + weight);
        }
        weights.put(flowKey(gatewayId, className), new Pin(weight, untilNanos));
    }

    public void unpinWeight(String gatewayId, String className) {
        weights.remove(flowKey(gatewayId, className));
    }

    public void pinCapacity(String serverId, int capacity, long untilNanos) {
        if (capacity < 0) {
            throw new IllegalArgumentException("a pinned N_s must be ≥ 0: " + capacity);
        }
        capacities.put(serverId, new Pin(capacity, untilNanos));
    }

    public void unpinCapacity(String serverId) {
        capacities.remove(serverId);
    }

    /** Class {@code className}'s queue timeout, in force at the gateways from the next allocation on. */
    public void setQueueTimeout(String className, long millis) {
        if (millis < 1) {
            throw new IllegalArgumentException("a queue timeout is at least 1 ms: " + millis);
        }
        queueTimeouts.put(className, millis);
    }

    /** The queue timeout the tuner set for the class, or null (its configured one applies). */
    public Long queueTimeout(String className) {
        return queueTimeouts.get(className);
    }

    public Map<String, Long> queueTimeouts() {
        return Map.copyOf(queueTimeouts);
    }

    /** The gateways' statistics window from the next allocation on, ms (0: the configured one). */
    public void setStatsWindow(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("a statistics window is not negative: " + millis);
        }
        statsWindowMillis = millis;
    }

    public long statsWindowMillis() {
        return statsWindowMillis;
    }

    public void pause() {
        paused = true;
    }

    public void resume() {
        paused = false;
    }

    public boolean paused() {
        return paused;
    }

    /** The pinned weight of a flow, or null; drops it when expired. */
    public Double weight(String gatewayId, String className, long nowNanos) {
        return live(weights, flowKey(gatewayId, className), nowNanos);
    }

    public Integer capacity(String serverId, long nowNanos) {
        Double v = live(capacities, serverId, nowNanos);
        return v == null ? null : (int) Math.round(v);
    }

    public Map<String, Pin> pinnedWeights() {
        return Map.copyOf(weights);
    }

    public Map<String, Pin> pinnedCapacities() {
        return Map.copyOf(capacities);
    }

    private static Double live(Map<String, Pin> pins, String key, long now) {
        Pin p = pins.get(key);
        if (p == null) {
            return null;
        }
        if (p.expired(now)) {
            pins.remove(key, p);
            return null;
        }
        return p.value();
    }
}
