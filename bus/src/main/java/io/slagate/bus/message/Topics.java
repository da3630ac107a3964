package io.slagate.bus.message;


/** The control network's topics (section III-B: a publish/subscribe network shared by all components). */
public final class Topics {
    /** Gateway → resource manager, console: per-class windowed statistics, every reporting interval. */
    public static final String STATS = "slagate.stats";
    /**
     * Resource manager → console, standby managers: each control cycle's allocation without the gateways'
     * parts (its version, the pool map, the capacity signal), so that its size does not grow with the cluster.
     */
    public static final String ALLOCATION = "slagate.allocation";
    /**
     * Resource manager → one gateway: the allocation of every control cycle, with that gateway's part only
     * ({@link #allocationFor}). A gateway needs nothing of the others' parts, so what it receives per cycle
     * is sized by its own classes and servers, not by the number of gateways.
     */
    public static final String ALLOCATION_GATEWAY_PREFIX = "slagate.allocation.gateway.";
    /** Every gateway's allocation topic (an ActiveMQ wildcard: the broker's authorization names it). */
    public static final String ALLOCATION_GATEWAYS = ALLOCATION_GATEWAY_PREFIX + ">";

    /** The allocation topic of gateway {@code gatewayId} (ids are letters, digits, '.', '_' and '-': never a wildcard). */
    public static String allocationFor(String gatewayId) {
        return ALLOCATION_GATEWAY_PREFIX + gatewayId;
    }
    /**
     * Liveness, join and leave, one topic per role, so that the broker's authorization decides who
     * may speak as what: a gateway's account cannot publish a resource manager's heartbeat (and so
     * cannot make the real manager stand by). Receivers also drop a heartbeat whose role is not its topic's.
     */
    public static final String HEARTBEAT_GATEWAY = "slagate.heartbeat.gateway";
    public static final String HEARTBEAT_RESOURCE_MANAGER = "slagate.heartbeat.resource-manager";

    /** The heartbeat topic of {@code role}. */
    public static String heartbeat(String role) {
        return "resource-manager".equals(role) ? HEARTBEAT_RESOURCE_MANAGER : HEARTBEAT_GATEWAY;
    }

    /** Largest bus message accepted, in characters (the broker's TCP frames are capped alike). */
    public static final int MAX_MESSAGE_CHARS = 1 << 20;
    /** Resource manager → console: the inputs and the decision of every control cycle. */
    public static final String DECISION = "slagate.decision";
    /** Console → gateways, resource manager: configuration changes and overrides. */
    public static final String CONTROL = "slagate.control";
    /** Console → every component: a validated new configuration (SLA classes and the rest). */
    public static final String CONFIG = "slagate.config";
    /** Console → gateways: the customers' credential files after a change ({@link CredentialsMessage}). */
    public static final String CREDENTIALS = "slagate.credentials";

    private Topics() {
    }
}
