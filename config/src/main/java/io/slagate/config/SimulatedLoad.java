package io.slagate.config;

import java.util.List;
import java.util.Map;

/**
 * A what-if load for the twin ({@code bin/slagate simulate --load FILE}), as read by {@link SimulatedLoadFile}: how each
 * server serves, what each class's clients do, and the phases one after the other.
 *
 * @param seeds how many seeds each policy runs
 */
public record SimulatedLoad(int seeds, Map<String, ServerLoad> servers, Map<String, ClassLoad> classes, List<Phase> phases) {
    /**
     * A random time: {@code exponential}, {@code lognormal} (with {@code cv}), {@code bimodal} (with probability
     * {@code p} an exponential of mean {@code meanSeconds}, else one of {@code longMeanSeconds}) or {@code fixed}.
     */
    public record Time(String type, double meanSeconds, double cv, double p, double longMeanSeconds) {
    }

    /**
     * @param discipline    {@code delay} (no worker limit: the gateway's cap is the limit), {@code ps} or {@code fcfs}
     * @param slowAtSeconds when it slows to {@code slowSpeed} (negative: never)
     */
    public record ServerLoad(String discipline, int processors, double speed, double slowAtSeconds, double slowSpeed) {
    }

    /** @param customer whose requests they are (null: nobody's in particular) */
    public record ClassLoad(String customer, Time think, Time work) {
    }

    /** @param clients closed clients per class; @param rates open arrivals per second per class */
    public record Phase(String name, double seconds, Map<String, Integer> clients, Map<String, Double> rates) {
    }

    public SimulatedLoad {
        servers = Map.copyOf(servers);
        classes = Map.copyOf(classes);
        phases = List.copyOf(phases);
    }
}
