package io.slagate.bus;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The gateways a receiver (the resource manager, the console) believes in, and who may speak for
 * each. A gateway is known once it joined, bound to the bus account its join came from (the
 * broker-stamped user; null on a bus without authentication), and only messages from that account
 * count for it. An account may join only the ids listed for it in {@code bus.gatewayAccounts}: an
 * account not listed joins nothing, so one gateway credential can neither invent gateways nor take a
 * real one's id while it restarts.
 * The receiver's own account may join any id: it is the receiver's own credential (the embedded
 * system's parts share one), and a deployment where every process shares one account has no
 * identity to bind, as on a bus without authentication.
 * At most {@code max} gateways are known at once. Not thread-safe: one thread per roster.
 */
public final class GatewayRoster {
    /** Why a message about a gateway was not taken. */
    public enum Refusal {
        NOT_JOINED("not joined"),
        OTHER_ACCOUNT("the gateway joined with another account"),
        NOT_BOUND("the account is not bound to this gateway id (bus.gatewayAccounts)"),
        FULL("the roster is full");

        private final String reason;

        Refusal(String reason) {
            this.reason = reason;
        }

        @Override
        public String toString() {
            return reason;
        }
    }

    private final Map<String, String> accountOf = new HashMap<>();
    private final Map<String, Set<String>> bound;
    private final String ownAccount;
    private int max;

    /**
     * @param bound      account → the gateway ids it may speak for
     * @param ownAccount the receiver's own bus account (null: none)
     */
    public GatewayRoster(int max, Map<String, List<String>> bound, String ownAccount) {
        this.max = max;
        Map<String, Set<String>> b = new HashMap<>();
        bound.forEach((account, ids) -> b.put(account, Set.copyOf(ids)));
        this.bound = Map.copyOf(b);
        this.ownAccount = ownAccount;
    }

    public void setMax(int max) {
        this.max = max;
    }

    /** A join from {@code account}: null when taken (or already known from it), else why not. */
    public Refusal join(String gatewayId, String account) {
        if (accountOf.containsKey(gatewayId)) {
            return Objects.equals(accountOf.get(gatewayId), account) ? null : Refusal.OTHER_ACCOUNT;
        }
        if (account != null && !account.equals(ownAccount)) {
            Set<String> ids = bound.get(account);
            if (ids == null || !ids.contains(gatewayId)) {
                return Refusal.NOT_BOUND;
            }
        }
        if (accountOf.size() >= max) {
            return Refusal.FULL;
        }
        accountOf.put(gatewayId, account);
        return null;
    }

    /** Whether statistics or a leave of {@code gatewayId} from {@code account} are to be believed. */
    public Refusal check(String gatewayId, String account) {
        if (!accountOf.containsKey(gatewayId)) {
            return Refusal.NOT_JOINED;
        }
        return Objects.equals(accountOf.get(gatewayId), account) ? null : Refusal.OTHER_ACCOUNT;
    }

    public boolean knows(String gatewayId) {
        return accountOf.containsKey(gatewayId);
    }

    public void leave(String gatewayId) {
        accountOf.remove(gatewayId);
    }

    /** Forgets the gateways the receiver no longer counts (expired for silence). */
    public void retain(Set<String> live) {
        for (String id : List.copyOf(accountOf.keySet())) {
            if (!live.contains(id)) {
                leave(id);
            }
        }
    }

    public int size() {
        return accountOf.size();
    }
}
