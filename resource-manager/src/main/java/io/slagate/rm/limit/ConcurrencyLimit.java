package io.slagate.rm.limit;

/**
 * Finds a server's concurrency N_s online from what the gateways measure of it ({@code concurrency: auto},
 * issue 17). One instance per server, fed once per control cycle; time enters only through the samples.
 */
public interface ConcurrencyLimit {
    /**
     * One control cycle's view of the server over the statistics window.
     *
     * @param throughput   answers per second, summed over the gateways
     * @param serviceSeconds mean service time of those answers (NaN without answers)
     * @param inUse        requests executing on it now, summed over the gateways
     * @param waiting      requests of its pool waiting in the gateways' queues now
     * @param goalMissed   whether a class of its pool with traffic measured a response time beyond its goal
     */
    record Sample(double throughput, double serviceSeconds, int inUse, int waiting, boolean goalMissed) {
        public Sample(double throughput, double serviceSeconds, int inUse, int waiting) {
            this(throughput, serviceSeconds, inUse, waiting, false);
        }
    }

    /** Takes a cycle's sample and returns N_s for the next cycle. */
    int update(Sample s);

    /** N_s in force. */
    int limit();

    /** The knee estimate (slots), NaN until one was measured. */
    double knee();

    /** Why the limit last changed (or held), for the log and the console. */
    String reason();
}
