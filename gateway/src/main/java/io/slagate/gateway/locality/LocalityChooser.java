package io.slagate.gateway.locality;



/**
 * {@code loadBalancing: locality}: a request goes to its group's server when that has a free slot and stays
 * within bounded loads (Mirrokni et al.'s bound, on outstanding requests per slot): with this request
 * counted, it holds no more than ⌈(1 + ε) × its share of the pool's outstanding requests⌉. Otherwise (and
 * for a type not mapped yet) the request is left to least-outstanding: the excess of a group goes where
 * there is room, as in Garbatov &amp; Cachopo's partition with least-loaded inside. Spilling in a fixed order
 * instead (the type's next server, then the next) kept the excess on few caches but, with the bound's
 * rounding, left the last servers idle: a quarter of the throughput lost on a mix with one hot type.
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
        int home = ranking[0];
        if (load.available(home) && load.outstanding(home) + 1 <= Math.ceil(perSlot * load.cap(home))) {
            return home;
        }
        if (load.inRotation(home)) {
            return -1; // home is busy: least-outstanding finds the room
        }
        // home left the rotation (its remap runs at once): meanwhile the type's next server, so its data follows
        for (int s : ranking) {
            if (load.available(s) && load.outstanding(s) + 1 <= Math.ceil(perSlot * load.cap(s))) {
                return s;
            }
        }
        return -1;
    }
}
