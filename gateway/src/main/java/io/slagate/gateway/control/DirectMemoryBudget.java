package io.slagate.gateway.control;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import com.sun.management.HotSpotDiagnosticMXBean;

/**
 * Whether the client connections' read buffers fit the JVM's direct memory. A connection holds its read buffer
 * ({@code gateway.requestBufferBytes}) while it reads a request (the gateway gives it back once the request was read
 * whole, so a request waiting in a queue holds none), so {@code maxConnections} clients sending at once, slow ones
 * included, hold that many buffers. Past the JVM's limit, buffer allocations fail and the server stops reading from
 * every connection, not only the new ones (bare Jetty with 12,000 held requests and a 64 MB limit answered nothing).
 * Other buffers (answers being relayed, the upstream leg's) need direct memory too, so more than half the limit is
 * flagged.
 */
public final class DirectMemoryBudget {
    private DirectMemoryBudget() {
    }

    /** The JVM's direct-memory limit in bytes: {@code -XX:MaxDirectMemorySize}, or the heap's maximum by default. */
    public static long limit() {
        try {
            HotSpotDiagnosticMXBean hotspot =
                    ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
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
        return String.format(Locale.ROOT, "gateway.maxConnections %d connections reading requests at once hold %d MiB of read buffers "
                        + "(gateway.requestBufferBytes %d each), %.0f%% of the JVM's direct-memory limit of %d MiB; past it the "
                        + "gateway stops reading from every connection. Lower maxConnections or requestBufferBytes, or raise "
                        + "-XX:MaxDirectMemorySize", maxConnections, need >> 20, bufferBytes, 100.0 * need / limitBytes,
                limitBytes >> 20);
    }
}
