package io.slagate.gateway.stats;

import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import io.slagate.gateway.soap.FaultReason;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What counts toward a class's objective, request by request, for the classes of one configuration (those stating an
 * {@code objective}). Good: a server's answer (not a 5xx) within the class's goal threshold. Bad: one past it, a
 * server's failure, and a fault the customer did not cause (a queue timeout or a full queue, an unreachable or failed
 * server, a deadline that could not be met, the gateway shutting down). Not counted: what the client caused
 * (a malformed or unauthenticated request, a body too large or too slow, a client gone away) and what its own quota
 * refused, which never reaches this.
 *
 * <p>Without authentication a customer's name is whatever the client claims: then only the names the configuration
 * knows (subscriptions, quotas, customers' own objectives) are counted under their own name, and every other claim as
 * {@code other}, so that no client can take the ledger's places (or a real customer's series) by inventing names.
 */
public final class SlaCounts {
    private final SlaLedger ledger;
    private final String[] names;
    /** Per class: its goal threshold (nanoseconds), or −1 when it states no objective (not counted). */
    private final long[] goalNanos;
    /** Per class with an objective: its counts by customer. */
    private final Map<String, SlaLedger.Counts>[] customers;
    /** The names counted under their own name when names are claimed, not proven; null: every name is proven. */
    private final Set<String> claimable;

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
        claimable = config.gateway().authentication().on() ? null : knownNames(config);
    }

    private static Set<String> knownNames(SlagateConfig config) {
        Set<String> names = new HashSet<>(config.classification().subscriptions().keySet());
        names.addAll(config.classification().customerQuotas().keySet());
        for (TrafficClassConfig tc : config.classes()) {
            if (tc.objective() != null) {
                names.addAll(tc.objective().customers().keySet());
            }
        }
        return Set.copyOf(names);
    }

    /** The name a request is counted under: its customer, unless that is a claim the configuration does not know. */
    private String counted(String customer) {
        return customer == null || claimable == null || claimable.contains(customer) ? customer : SlaLedger.OTHER;
    }

    /** A server answered class {@code c}'s request of {@code customer} (null: none) with {@code status}, after {@code responseNanos}. */
    public void answered(int c, String customer, long responseNanos, int status) {
        if (goalNanos[c] < 0) {
            return;
        }
        SlaLedger.Counts k = ledger.counts(names[c], customers[c], counted(customer));
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
        ledger.counts(names[c], customers[c], counted(customer)).total.increment();
    }
}
