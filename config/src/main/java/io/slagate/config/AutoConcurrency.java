package io.slagate.config;


/**
 * {@code concurrency: auto} on a server: the resource manager finds N_s online (the knee of the server's
 * throughput against the requests it executes), between {@code min} and {@code max}, starting at
 * {@code start}.
 */
public record AutoConcurrency(int min, int max, int start) {
    public AutoConcurrency {
        if (min < 1 || max < min || start < min || start > max) {
            throw new IllegalArgumentException("need 1 ≤ min ≤ start ≤ max: " + min + ", " + start + ", " + max);
        }
    }

    public static final int DEFAULT_MAX = 1000;
}
