package io.slagate.bus.message;


/**
 * How a change that came over the bus is attributed in logs and audit entries: the operator the
 * console names, always beside the bus account the broker authenticated the sender as. Only the
 * console's role may publish changes, so the operator's name is the console's word; the account is
 * the broker's, which no sender can forge.
 */
public final class Senders {
    private Senders() {
    }

    public static String describe(String claimedUser, String account) {
        String user = claimedUser == null || claimedUser.isBlank() ? "?" : claimedUser;
        return account == null ? user + " (bus without authentication)" : user + " (bus account " + account + ")";
    }
}
