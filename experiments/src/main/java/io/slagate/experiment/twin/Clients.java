package io.slagate.experiment.twin;

import io.slagate.gateway.soap.FaultReason;
import java.util.SplittableRandom;

/**
 * The workload's clients against one gateway. Each closed client has a random stream of its own, drawn in a
 * fixed order (a think time, then its request's work, again and again), and so has each class's open arrival
 * stream: two policies run on the same seed see the same clients think as long and bring the same work
 * (common random numbers), whatever the policies do to the order of events between them.
 */
final class Clients {
    private final VirtualTime time;
    private final TwinGateway gateway;
    private final Workload load;
    private final int[] classIndex;
    private final Completions done;
    private final long seed;
    private final int[] population;
    private final Client[][] closed;
    private final SplittableRandom[] open;
    private final double[] rate;
    private final long[] arrivalToken;

    /** @param classIndex per class of the load, the configuration's index of that class */
    Clients(VirtualTime time, TwinGateway gateway, Workload load, int[] classIndex, Completions done, long seed) {
        this.time = time;
        this.gateway = gateway;
        this.load = load;
        this.classIndex = classIndex;
        this.done = done;
        this.seed = seed;
        int n = load.classes().size();
        population = new int[n];
        closed = new Client[n][];
        open = new SplittableRandom[n];
        rate = new double[n];
        arrivalToken = new long[n];
        for (int c = 0; c < n; c++) {
            closed[c] = new Client[load.maxPopulation(c)];
            for (int i = 0; i < closed[c].length; i++) {
                closed[c][i] = new Client(c, i, new SplittableRandom(stream(c, i)));
            }
            open[c] = new SplittableRandom(stream(c, -1));
        }
        for (int k = 0; k < load.phases().size(); k++) {
            int phase = k;
            time.at(load.startNanos(k), () -> enter(phase));
        }
    }

    private long stream(int c, int client) {
        return seed * 0x9E3779B97F4A7C15L + (c + 1) * 0xBF58476D1CE4E5B9L + (client + 2) * 0x94D049BB133111EBL;
    }

    private void enter(int k) {
        Workload.Phase p = load.phases().get(k);
        for (int c = 0; c < population.length; c++) {
            population[c] = p.population()[c];
            for (int i = 0; i < population[c]; i++) {
                closed[c][i].wake();
            }
            rate[c] = p.rate()[c];
            long mine = ++arrivalToken[c];
            if (rate[c] > 0) {
                nextArrival(c, mine);
            }
        }
    }

    private void nextArrival(int c, long token) {
        double gap = -Math.log(1 - open[c].nextDouble()) / rate[c];
        time.after(VirtualTime.nanos(gap), () -> {
            if (arrivalToken[c] != token) {
                return; // the phase changed the rate: a new stream of arrivals runs
            }
            gateway.submit(classIndex[c], load.classes().get(c).customer(), load.classes().get(c).work().sample(open[c]),
                    new TwinGateway.Reply() {
                        @Override
                        public void answered(long responseNanos) {
                            done.answered(c, time.now(), responseNanos);
                        }

                        @Override
                        public void faulted(FaultReason reason) {
                            done.faulted(c, time.now());
                        }
                    });
            nextArrival(c, token);
        });
    }

    private final class Client implements TwinGateway.Reply {
        private final int c;
        private final int index;
        private final SplittableRandom random;
        /** Thinking or waiting for an answer; else dormant, outside the phase's population. */
        private boolean busy;

        Client(int c, int index, SplittableRandom random) {
            this.c = c;
            this.index = index;
            this.random = random;
        }

        void wake() {
            if (!busy) {
                busy = true;
                think();
            }
        }

        private void think() {
            time.after(VirtualTime.nanos(load.classes().get(c).think().sample(random)), this::send);
        }

        private void send() {
            if (index >= population[c]) {
                busy = false;
                return;
            }
            gateway.submit(classIndex[c], load.classes().get(c).customer(), load.classes().get(c).work().sample(random), this);
        }

        @Override
        public void answered(long responseNanos) {
            done.answered(c, time.now(), responseNanos);
            next();
        }

        @Override
        public void faulted(FaultReason reason) {
            done.faulted(c, time.now());
            next();
        }

        private void next() {
            if (index < population[c]) {
                think();
            } else {
                busy = false;
            }
        }
    }
}
