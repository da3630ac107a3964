package io.slagate.config;


/** How a gateway picks the next waiting request (section III-A, and the baselines of section V-C). */
public enum SchedulerMode {
    /** Weighted round-robin over per-class queues, weights w_{g,c} from the allocation. */
    WRR,
    /** One shared FIFO queue per server pool: no differentiation. */
    FCFS,
    /** Static priority in the order the classes are configured, first is highest. */
    PRIORITY;

    static SchedulerMode parse(String s) {
        return switch (s) {
            case "wrr" -> WRR;
            case "fcfs" -> FCFS;
            case "priority" -> PRIORITY;
            default -> null;
        };
    }
}
