package io.slagate.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Online tuning with a safe/experimental split (Active Harmony's search, the thesis's Sibling-Rivalry
 * split). The operator names two pools: the safe one runs the best configuration known, the experimental one the
 * trial; each traffic class of the safe pool has a twin class on the experimental pool (same goals), and the gateways
 * send {@code share} of each class's requests to its twin, so both sides see the same mix.
 *
 * @param strategy     simplex (Nelder-Mead), hill (hill climbing) or restarts (the simplex with random restarts)
 * @param period       a trial's measurement period
 * @param settle       after a trial's knobs are set, before its period starts
 * @param minGain      a trial is promoted to the safe side only when its utility beats the safe side's by this much over
 *                     the same period (eq. 7's units)
 * @param abortDrop    a trial whose utility falls below the safe side's by more than this at any cycle is aborted at once
 * @param stallTrials  trials without a promotion after which tuning stops and monitors
 * @param drift        while monitoring, tuning starts again when the safe side's utility moves by more than this share
 * @param safePool     the pool that runs the best configuration
 * @param experimentalPool the pool that runs the trials
 * @param share        of each class's requests, the share its twin gets
 * @param twins        safe class → its experimental twin
 * @param knobs        what is tuned, applied to every server of a side
 * @param best         the best configuration the tuner found (knob → value), written back by the console when the tuner
 *                     promotes or reverts, so that a restart starts from it (empty: none yet)
 * @param partition    the partition's name (Active Harmony's parameter partitioning by work line: each pair of pools
 *                     has its own tuner, measured on its own classes); {@link #DEFAULT} for the unpartitioned form
 * @param interleaved  no safe side (the operator's explicit consent): the controller's own knobs are global, so their
 *                     trials cannot be confined to a pool; each trial runs on all traffic for a period between two
 *                     periods of the best configuration, and is judged against their mean (safePool, experimentalPool
 *                     null, no twins)
 */
public record TuningSettings(String strategy, Duration period, Duration settle, double minGain, double abortDrop,
                             int stallTrials, double drift, String safePool, String experimentalPool, double share,
                             Map<String, String> twins, List<Knob> knobs, Map<String, Double> best, String partition,
                             boolean interleaved) {
    /** The name of the single partition of {@code controller.tuning} without {@code partitions}. */
    public static final String DEFAULT = "default";

    /**
     * The controller's own knobs (global: tuned only in an interleaved partition), with the gateways' statistics window
     * ({@code window}, seconds) it reads λ~ and t~ over.
     */
    public static final List<String> CONTROLLER_KNOBS = List.of("cycle", "damping", "resolution", "model", "window");

    /**
     * @param name    {@code concurrency} (slagate's N_s of each server of the side), {@code queueTimeout} (seconds, the
     *                side's classes), one of {@link #CONTROLLER_KNOBS} ({@code cycle} and {@code window} in seconds), or a
     *                backend knob's name
     * @param path    for a backend knob, the admin endpoint's path on each server (e.g. /admin/knobs); null for slagate's
     * @param timeout for a backend knob, how long a read or a set may take
     * @param choices for a knob that picks one of names ({@code model}), the names; the knob's value is the index (min 0,
     *                max the last index); empty otherwise
     */
    public record Knob(String name, String path, double min, double max, boolean integer, Duration timeout, List<String> choices) {
        public Knob {
            choices = choices == null ? List.of() : List.copyOf(choices);
        }


        /** One of the controller's own knobs (no path). */
        public boolean controller() {
            return path == null && CONTROLLER_KNOBS.contains(name);
        }
    }

    public TuningSettings {
        twins = Map.copyOf(twins);
        knobs = List.copyOf(knobs);
        best = best == null ? Map.of() : Map.copyOf(best);
        partition = partition == null ? DEFAULT : partition;
    }



    /** The key under which the console writes this partition's best configuration back. */
    public String bestKey() {
        return DEFAULT.equals(partition) ? "controller.tuning.best" : "controller.tuning.partitions." + partition + ".best";
    }

}
