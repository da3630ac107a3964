package io.slagate.rm;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The gateways the resource manager splits the servers among, and who may speak for each: a gateway
 * is known once it joined, bound to the bus account its join came from (the broker-authenticated
 * user, null on a bus without authentication), and only statistics from that account count for it.
 * At most {@code max} gateways are known at once, so a flood of invented ones cannot take the real
 * gateways' shares. Loop thread only.
 */
final class GatewayRoster {
    /** Why a message about a gateway was not taken. */
    enum Refusal { NOT_JOINED, OTHER_ACCOUNT, FULL }

    private final Map<String, String> accountOf = new HashMap<>();
    private int max;

    GatewayRoster(int max) {
        this.max = max;
    }

    void setMax(int max) {
        this.max = max;
    }

    /** A join from {@code account}: null when taken (or already known from it), else why not. */
    Refusal join(String gatewayId, String account) {
        if (accountOf.containsKey(gatewayId)) {
            return Objects.equals(accountOf.get(gatewayId), account) ? null : Refusal.OTHER_ACCOUNT;
        }
        if (accountOf.size() >= max) {
            return Refusal.FULL;
        }
        accountOf.put(gatewayId, account);
        return null;
    }

    /** Whether statistics or a leave of {@code gatewayId} from {@code account} are to be believed. */
    Refusal check(String gatewayId, String account) {
        if (!accountOf.containsKey(gatewayId)) {
            return Refusal.NOT_JOINED;
        }
        return Objects.equals(accountOf.get(gatewayId), account) ? null : Refusal.OTHER_ACCOUNT;
    }

    void leave(String gatewayId) {
        accountOf.remove(gatewayId);
    }

    /** Forgets the gateways the manager no longer counts (expired for silence). */
    void retain(Set<String> live) {
        accountOf.keySet().retainAll(live);
    }

    int size() {
        return accountOf.size();
    }
}
