package io.slagate.gateway.auth;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Failed authentication attempts, limited per client and per claimed name ({@link CellRates}: {@code burst} at
 * once, then {@code rate} a second). An attempt reserves its failure before any work is done for it, malformed
 * ones included, and gives it back only once it has proven itself; so checks in flight count against the burst
 * and no concurrency gets past it, and an attempt refused here has cost no bcrypt.
 *
 * <p>Who is limited: the client is the address the trusted proxy chain names ({@link ClientAddress}), so clients
 * behind one balancer are told apart and none pays for another's failures. A name is limited across clients, so
 * rotating addresses buys no more guesses at one customer than the name's own budget; that budget is larger than a
 * client's (by default ten times), so one client cannot hold a name's cell spent by itself: locking a customer out
 * takes a flood from many clients at once. Even then the clients that proved a name lately are not held to its limit,
 * and a cached credential is never checked here at all.
 *
 * <p>Checks in flight are counted per client as well ({@link #startCheck}): a client has at most
 * {@link #CHECKS_IN_FLIGHT} bcrypt or signature checks queued or running, so a few clients cannot fill the checking
 * pool's queue for everyone (concurrent requests with one credential share one check and count once).
 */
final class FailureLimiter {
    static final int MAX_KEYS = 100_000;
    /** Clients remembered per name as having proven it. */
    static final int PROVEN_CLIENTS = 16;
    /** Checks a client may have queued or running at once. */
    static final int CHECKS_IN_FLIGHT = 2;

    /** What {@link #reserve} took, to be given back by {@link #succeeded} or {@link #cancelled}. */
    static final int REFUSED = 0;
    static final int CLIENT = 1;
    static final int CLIENT_AND_NAME = 2;

    private final CellRates clients;
    private final CellRates names;
    /** Name → the last clients that proved it (bounded, as the cells are). */
    private final ConcurrentHashMap<String, AtomicReferenceArray<String>> proven = new ConcurrentHashMap<>();
    /** Client → its checks queued or running (an entry only while there are some). */
    private final ConcurrentHashMap<String, Integer> inFlight = new ConcurrentHashMap<>();

    /** The same budget for a client and for a name: tests of one limit at a time. */
    FailureLimiter(double ratePerSecond, int burst) {
        this(ratePerSecond, burst, ratePerSecond, burst);
    }

    FailureLimiter(double clientRate, int clientBurst, double nameRate, int nameBurst) {
        this.clients = new CellRates(clientRate, clientBurst, MAX_KEYS);
        this.names = new CellRates(nameRate, nameBurst, MAX_KEYS);
    }

    /** A check of {@code client}'s is to be queued: false (nothing taken) when it has {@link #CHECKS_IN_FLIGHT} already. */
    boolean startCheck(String client) {
        boolean[] taken = {false};
        inFlight.compute(client, (c, n) -> {
            int now = n == null ? 0 : n;
            if (now >= CHECKS_IN_FLIGHT) {
                return n;
            }
            taken[0] = true;
            return now + 1;
        });
        return taken[0];
    }

    /** A check {@link #startCheck} let in has ended (or was never run). */
    void endCheck(String client) {
        inFlight.computeIfPresent(client, (c, n) -> n <= 1 ? null : n - 1);
    }

    /**
     * Reserves a failure for an attempt from {@code client} claiming {@code name} (null: none), before it is checked.
     *
     * @return {@link #REFUSED} (nothing reserved: refuse the attempt unchecked), {@link #CLIENT} or {@link #CLIENT_AND_NAME}
     */
    int reserve(String client, String name, long now) {
        if (!clients.take(client, now)) {
            return REFUSED;
        }
        if (name == null || provedBy(name, client)) {
            return CLIENT;
        }
        if (!names.take(name, now)) {
            clients.giveBack(client);
            return REFUSED;
        }
        return CLIENT_AND_NAME;
    }

    /** The attempt proved itself: its reservation is given back, and {@code client} is remembered as one that proves {@code name}. */
    void succeeded(String client, String name, int reserved) {
        cancelled(client, name, reserved);
        if (name != null) {
            remember(name, client);
        }
    }

    /** The attempt was never checked (the pool was full, or it joined the same check under way): nothing is owed. */
    void cancelled(String client, String name, int reserved) {
        if (reserved >= CLIENT) {
            clients.giveBack(client);
        }
        if (reserved == CLIENT_AND_NAME) {
            names.giveBack(name);
        }
    }

    /** An attempt that did no work and reserved nothing was refused: charged now, unless the client's burst is spent. */
    boolean failedAtOnce(String client, long now) {
        return clients.take(client, now);
    }

    private boolean provedBy(String name, String client) {
        AtomicReferenceArray<String> p = proven.get(name);
        if (p == null) {
            return false;
        }
        for (int i = 0; i < PROVEN_CLIENTS; i++) {
            if (client.equals(p.get(i))) {
                return true;
            }
        }
        return false;
    }

    private void remember(String name, String client) {
        if (provedBy(name, client)) {
            return;
        }
        if (proven.size() >= MAX_KEYS) {
            proven.keySet().stream().findAny().ifPresent(proven::remove);
        }
        AtomicReferenceArray<String> p = proven.computeIfAbsent(name, n -> new AtomicReferenceArray<>(PROVEN_CLIENTS));
        // the oldest goes: slots shift by one, the newest in front (a race may lose one remembrance, never mix names)
        for (int i = PROVEN_CLIENTS - 1; i > 0; i--) {
            p.set(i, p.get(i - 1));
        }
        p.set(0, client);
    }

    /** Forgets what is owed no more; run now and then off the request path. Proven clients are kept while bounded. */
    void sweep(long now) {
        clients.sweep(now);
        names.sweep(now);
    }

    int trackedClients() {
        return clients.size();
    }

    int trackedNames() {
        return names.size();
    }
}
