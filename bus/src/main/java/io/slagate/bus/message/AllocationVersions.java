package io.slagate.bus.message;


/**
 * What an allocation version may be. A resource manager numbers its first allocation with the
 * wall-clock millisecond and counts up by one per control cycle (and a standby above every version
 * it has seen), so a real version never runs ahead of the clock by more than the clock skew between
 * hosts. A version beyond that is a forgery or a broken sender: accepted, it would make every later
 * real allocation look old, and arithmetic on it could overflow.
 */
public final class AllocationVersions {
    /** The clock skew between hosts tolerated: one hour. */
    public static final long MAX_AHEAD_MILLIS = 3_600_000L;

    private AllocationVersions() {
    }

    public static boolean plausible(long version, long nowMillis) {
        return version > 0 && version <= nowMillis + MAX_AHEAD_MILLIS;
    }
}
