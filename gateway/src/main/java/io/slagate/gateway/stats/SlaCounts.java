package io.slagate.gateway.stats;

import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.gateway.soap.FaultReason;
import java.util.Map;

/**
 * What counts toward a class's objective, request by request, for the classes of one configuration (those stating an
 * {@code objective}). Good: a server's answer (not a 5xx) within the class's goal threshold. Bad: one past it, a
 * server's failure, and a fault the customer did not cause (a queue timeout or a full queue, an unreachable or failed
 * server, a deadline that could not be met, the gateway shutting down). Not counted: what the client caused
 * (a malformed or unauthenticated request, a body too large or too slow, a client gone away) and what its own quota
 * refused, which never reaches this.
 */
public final class SlaCounts {
    private final SlaLedger ledger;
    private final String[] names;
    /** Per class: its goal threshold (nanoseconds), or −1 when it states no objective (not counted). */
    private final long[] goalNanos;
    /** Per class with an objective: its counts by customer. */
    private final Map<String, SlaLedger.Counts>[] customers;

    @SuppressWarnings("unchecked")
    public SlaCounts(SlagateConfig config, SlaLedger ledger) {
        this.ledger = ledger;
        int n = config.classes().size();
        names = new String[n];
        goalNanos = new long[n];
        customers = new Map[n];
        for (int c = 0; c < n; c++) {
            TrafficClassConfig tc = config.classes().get(c);
            names[c] = tc.name();
            boolean counted = tc.objective() != null && tc.hasGoal();
            goalNanos[c] = counted ? (long) (tc.goalSeconds() * 1e9) : -1;
            customers[c] = counted ? ledger.of(tc.name()) : null;
        }
    }

    /** A server answered class {@code c}'s request of {@code customer} (null: none) with {@code status}, after {@code responseNanos}. */
    public void answered(int c, String customer, long responseNanos, int status) {
        if (goalNanos[c] < 0) {
            return;
        }
        SlaLedger.Counts k = ledger.counts(names[c], customers[c], customer);
        k.total.increment();
        if (status < 500 && responseNanos <= goalNanos[c]) {
            k.good.increment();
        }
    }

    /** The gateway answered class {@code c}'s request of {@code customer} itself, for {@code reason}. */
    public void faulted(int c, String customer, FaultReason reason) {
        if (goalNanos[c] < 0 || reason.senderFault()) {
            return;
        }
        ledger.counts(names[c], customers[c], customer).total.increment();
    }
}
