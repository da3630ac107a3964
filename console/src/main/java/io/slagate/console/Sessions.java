package io.slagate.console;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Logged-in sessions: an unguessable token (the {@code HttpOnly} cookie) with the user, role and a
 * separate CSRF token that every change must echo in a header. A session idle longer than the
 * timeout is gone. The clock is injected so that expiry is tested without waiting.
 */
public final class Sessions {
    private static final SecureRandom RANDOM = new SecureRandom();

    public record Session(String token, String user, Role role, String csrf, long lastSeenNanos) {
    }

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final long timeoutNanos;
    private final LongSupplier clock;

    public Sessions(long timeoutNanos, LongSupplier clock) {
        this.timeoutNanos = timeoutNanos;
        this.clock = clock;
    }

    public Session create(String user, Role role) {
        Session s = new Session(token(), user, role, token(), clock.getAsLong());
        sessions.put(s.token(), s);
        return s;
    }

    /** The live session of a token, its idle time reset; null when unknown or expired. */
    public Session get(String token) {
        if (token == null) {
            return null;
        }
        Session s = sessions.get(token);
        if (s == null) {
            return null;
        }
        long now = clock.getAsLong();
        if (now - s.lastSeenNanos() > timeoutNanos) {
            sessions.remove(token);
            return null;
        }
        Session touched = new Session(s.token(), s.user(), s.role(), s.csrf(), now);
        sessions.put(token, touched);
        return touched;
    }

    /** Ends every session of a user (deleted, role or password changed): they must log in again. */
    public void removeUser(String user) {
        sessions.values().removeIf(s -> s.user().equals(user));
    }

    public void remove(String token) {
        if (token != null) {
            sessions.remove(token);
        }
    }

    private static String token() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
