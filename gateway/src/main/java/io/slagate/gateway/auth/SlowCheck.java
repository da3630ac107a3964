package io.slagate.gateway.auth;

import java.util.function.Consumer;
import java.util.function.Function;

/** A check run on the checking pool ({@link Authenticator#await}): a bcrypt or signature check, or a wait for one. */
interface SlowCheck {
    /** The cache entry its verdict fills: concurrent checks of one credential share one run. */
    CredentialKey key();

    /** The cache's generation when its credentials were read. */
    long generation();

    /** The client whose check it is (its checks in flight are bounded), or null. */
    String client();

    /** Its verdict, or null when it hands one to {@code later} itself. */
    CredentialCache.Verdict run(Consumer<CredentialCache.Verdict> later);

    /** It will not run (the pool is full, or the same check is running): what it reserved is given back. */
    default void abandoned() {
    }

    /**
     * {@code client}'s check of {@code key} read at {@code generation}: {@code run} on the pool, {@code abandoned} when it
     * is not run.
     */
    static SlowCheck of(CredentialKey key, long generation, String client,
                        Function<Consumer<CredentialCache.Verdict>, CredentialCache.Verdict> run, Runnable abandoned) {
        return new SlowCheck() {
            @Override
            public String client() {
                return client;
            }

            @Override
            public CredentialKey key() {
                return key;
            }

            @Override
            public long generation() {
                return generation;
            }

            @Override
            public CredentialCache.Verdict run(Consumer<CredentialCache.Verdict> later) {
                return run.apply(later);
            }

            @Override
            public void abandoned() {
                abandoned.run();
            }
        };
    }
}
