package io.slagate.gateway.sched;

import java.util.concurrent.atomic.AtomicIntegerArray;

/** Per class, the requests waiting in its queue and those executing on a server, as the queue manager counts them. */
public final class ClassCounts {
    final AtomicIntegerArray waiting;
    final AtomicIntegerArray executing;

    ClassCounts(int classCount) {
        waiting = new AtomicIntegerArray(classCount);
        executing = new AtomicIntegerArray(classCount);
    }

    public int waiting(int classIndex) {
        return waiting.get(classIndex);
    }

    public int executing(int classIndex) {
        return executing.get(classIndex);
    }

    public int executingTotal() {
        int n = 0;
        for (int c = 0; c < executing.length(); c++) {
            n += executing.get(c);
        }
        return n;
    }
}
