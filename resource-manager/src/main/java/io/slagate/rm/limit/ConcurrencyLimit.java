package io.slagate.rm.limit;


/**
 * Finds a server's concurrency N_s online from what the gateways measure of it ({@code concurrency: auto}). One instance per server, fed once per control cycle; time enters only through the samples.
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
     * @param utilities    per class of its pool (in a fixed order), the utility of what was measured (eq. 7 on the window's
     *                     mean or goal percentile); NaN for a class without traffic; empty when unknown
     * @param answers      how many answers the window's service time is the mean of (throughput × window); NaN when
     *                     unknown, and then one window is taken as enough
     */
    record Sample(double throughput, double serviceSeconds, int inUse, int waiting, boolean goalMissed, double[] utilities,
                  double answers) {
        public Sample(double throughput, double serviceSeconds, int inUse, int waiting, boolean goalMissed, double[] utilities) {
            this(throughput, serviceSeconds, inUse, waiting, goalMissed, utilities, Double.NaN);
        }

        public Sample(double throughput, double serviceSeconds, int inUse, int waiting) {
            this(throughput, serviceSeconds, inUse, waiting, false);
        }

        public Sample(double throughput, double serviceSeconds, int inUse, int waiting, boolean goalMissed) {
            this(throughput, serviceSeconds, inUse, waiting, goalMissed, new double[0]);
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
