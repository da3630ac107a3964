package io.slagate.gateway.sched;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server the resource manager just moved to another pool is on probation there: its first
 * answers to that pool's requests say whether it serves that pool's service at all. {@value #REFUSALS} answers in a
 * row that say "no such service here" (404, 405, 410, 501) before any other answer refuse the move; any other
 * answer (a 2xx, or a SOAP fault: the service exists) accepts it. Exactly one verdict, from whichever thread
 * completes the deciding answer.
 */
final class MoveProbation {
    /** Refusals in a row that refuse the move. */
    static final int REFUSALS = 3;
    private static final int UNDECIDED = 0;
    private static final int DECIDED = -1;

    final int from;
    final int to;
    /** Refusals so far, or {@link #DECIDED}. */
    private final AtomicInteger state = new AtomicInteger(UNDECIDED);

    MoveProbation(int from, int to) {
        this.from = from;
        this.to = to;
    }

    enum Verdict { UNDECIDED, ACCEPTED, REFUSED }

    /** One answer of the server to a request of the new pool. */
    Verdict answer(int status) {
        boolean refusal = refuses(status);
        while (true) {
            int s = state.get();
            if (s == DECIDED) {
                return Verdict.UNDECIDED; // decided by another answer
            }
            int next = !refusal || s + 1 >= REFUSALS ? DECIDED : s + 1;
            if (state.compareAndSet(s, next)) {
                return next != DECIDED ? Verdict.UNDECIDED : refusal ? Verdict.REFUSED : Verdict.ACCEPTED;
            }
        }
    }

    /** Whether an HTTP status says the server has no such service (as opposed to a service that failed a request). */
    static boolean refuses(int status) {
        return status == 404 || status == 405 || status == 410 || status == 501;
    }
}
