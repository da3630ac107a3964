package io.slagate.gateway.control;

import java.util.Locale;

/**
 * Whether the client connections' read buffers fit the JVM's direct memory (issue 22). Jetty keeps a connection's read
 * buffer ({@code gateway.requestBufferBytes}) while its request is unanswered, so {@code maxConnections} waiting requests
 * hold that many buffers. Past the JVM's limit, buffer allocations fail and the server stops reading from every
 * connection, not only the new ones (bare Jetty with 12,000 waiting requests and a 64 MB limit answered nothing). Other
 * buffers (answers being relayed, the upstream leg's) need direct memory too, so more than half the limit is flagged.
 */
public final class DirectMemoryBudget {
    private DirectMemoryBudget() {
    }

    /** The JVM's direct-memory limit in bytes: {@code -XX:MaxDirectMemorySize}, or the heap's maximum by default. */
    public static long limit() {
        try {
            com.sun.management.HotSpotDiagnosticMXBean hotspot =
                    java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            long set = Long.parseLong(hotspot.getVMOption("MaxDirectMemorySize").getValue());
            return set > 0 ? set : Runtime.getRuntime().maxMemory();
        } catch (RuntimeException notHotSpot) {
            return Runtime.getRuntime().maxMemory();
        }
    }

    /**
     * @return why the buffers may not fit (for a warning at start), or null when {@code maxConnections} full buffers take
     *         at most half of {@code limitBytes}
     */
    public static String problem(int maxConnections, int bufferBytes, long limitBytes) {
        long need = (long) maxConnections * bufferBytes;
        if (need <= limitBytes / 2) {
            return null;
        }
        return String.format(Locale.ROOT, "gateway.maxConnections %d waiting requests hold %d MiB of read buffers "
                        + "(gateway.requestBufferBytes %d each), %.0f%% of the JVM's direct-memory limit of %d MiB; past it the "
                        + "gateway stops reading from every connection. Lower maxConnections or requestBufferBytes, or raise "
                        + "-XX:MaxDirectMemorySize", maxConnections, need >> 20, bufferBytes, 100.0 * need / limitBytes,
                limitBytes >> 20);
    }
}
