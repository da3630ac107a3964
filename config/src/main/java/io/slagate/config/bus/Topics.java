package io.slagate.config.bus;

/** The control network's topics (section III-B: a publish/subscribe network shared by all components). */
public final class Topics {
    /** Gateway → resource manager, console: per-class windowed statistics, every reporting interval. */
    public static final String STATS = "slagate.stats";
    /** Resource manager → gateways, console: the allocation of every control cycle. */
    public static final String ALLOCATION = "slagate.allocation";
    /** Every component → every component: liveness, join and leave. */
    public static final String HEARTBEAT = "slagate.heartbeat";
    /** Resource manager → console: the inputs and the decision of every control cycle. */
    public static final String DECISION = "slagate.decision";
    /** Console → gateways, resource manager: configuration changes and overrides. */
    public static final String CONTROL = "slagate.control";
    /** Console → every component: a validated new configuration (SLA classes and the rest). */
    public static final String CONFIG = "slagate.config";

    private Topics() {
    }
}
