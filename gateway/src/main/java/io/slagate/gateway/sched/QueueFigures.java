package io.slagate.gateway.sched;

import java.util.List;
import java.util.Map;

/**
 * What a gateway's queues hold and the allocation in force, read as of now: requests waiting and executing per class,
 * each server's cap in force, pool and locality group, the queue timeouts (statistics, the agent and the tests read
 * here; the queue manager's own interface is admitting and releasing).
 */
public final class QueueFigures {
    private final QueueManager q;

    QueueFigures(QueueManager q) {
        this.q = q;
    }

    /** The pool server {@code s} refused to serve, while the manager has not reverted the move (else null). */
    public String refusedPool(int s) {
        return q.assignment.refusedPool(s);
    }

    /** The pool server {@code s} serves now. */
    public String servingPool(int s) {
        return q.assignment.servingPool(s);
    }

    /** Class {@code c}'s queue timeout in force, nanoseconds. */
    public long queueTimeoutNanos(int c) {
        return q.timeouts.nanos(c);
    }

    /** The allocation in force: w_{g,c} and N_{g,s}. */
    public Allocation allocation() {
        return q.allocation;
    }

    /** Under locality dispatch, the request types mapped to server {@code s} and their share of its pool's requests; else null. */
    public String localityGroupOf(int s) {
        return q.picker.localityGroupOf(s);
    }

    /** Per pool dispatching by request type: its policy and mapping, for {@code /stats}. */
    public List<Map<String, Object>> localityStats() {
        return q.picker.localityStats();
    }

    /** The cap in force for server {@code s} here (the allocation's, or a local limit's below it). */
    public int effectiveCap(int s) {
        return q.capInForce(s);
    }

    /** Requests of the class waiting in its queue. */
    public int waiting(int classIndex) {
        return q.waiting.get(classIndex);
    }

    /** Requests of the class sent to a server and not yet answered. */
    public int executing(int classIndex) {
        return q.executing.get(classIndex);
    }

    /** Requests of every class sent to a server and not yet answered. */
    public int executingTotal() {
        int n = 0;
        for (int c = 0; c < q.classCount; c++) {
            n += q.executing.get(c);
        }
        return n;
    }

    /** The servers this gateway sends to. */
    public int serverCount() {
        return q.servers.length;
    }

    /** The traffic classes. */
    public int classCount() {
        return q.classCount;
    }
}
