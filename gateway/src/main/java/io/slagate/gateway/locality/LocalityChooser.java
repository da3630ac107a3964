package io.slagate.gateway.locality;

import io.slagate.gateway.sched.ServerChooser;

/**
 * {@code loadBalancing: locality}: a request goes to the first server in its type's ranking that has a
 * free slot and stays within bounded loads (Mirrokni et al.'s consistent hashing with bounded loads,
 * on outstanding requests per slot): with this request counted, no server holds more than
 * ⌈(1 + ε) × its share of the pool's outstanding requests⌉. A type not mapped yet, or whose servers are
 * all full or over the bound, is left to least-outstanding.
 */
public final class LocalityChooser implements ServerChooser {
    private final LocalityLearner learner;

    public LocalityChooser(LocalityLearner learner) {
        this.learner = learner;
    }

    @Override
    public int choose(int requestType, int[] pool, ServerLoad load) {
        int[] ranking = learner.map().ranking(requestType);
        if (ranking == null) {
            return -1;
        }
        long outstanding = 1; // this request
        long slots = 0;
        for (int s : pool) {
            if (load.inRotation(s)) {
                outstanding += load.outstanding(s);
                slots += load.cap(s);
            }
        }
        if (slots == 0) {
            return -1;
        }
        double perSlot = (1 + learner.epsilon()) * outstanding / slots;
        for (int s : ranking) {
            if (load.available(s) && load.outstanding(s) + 1 <= Math.ceil(perSlot * load.cap(s))) {
                return s;
            }
        }
        return -1;
    }
}
