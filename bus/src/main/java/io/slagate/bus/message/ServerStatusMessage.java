package io.slagate.bus.message;


/**
 * One server as a gateway sees it: its cap N_{g,s} in force, outstanding requests, whether in rotation, and over the
 * statistics window its answers per second and their mean service time (s; NaN without answers); whether a
 * local limit holds it below the allocation's cap here (then {@code cap} is the reduced one); under locality
 * dispatch, the request types mapped to it and their share of the pool's requests, as text ({@code null} otherwise);
 * for a movable server, the pool it serves now ({@code null} otherwise), and the pool it was moved to and
 * refused to serve (no such service there), until the manager's allocation no longer asks for it ({@code null} otherwise).
 */
public record ServerStatusMessage(String serverId, int cap, int outstanding, boolean inRotation, double throughput,
                                  double meanServiceSeconds, boolean locallyLimited, String localityGroup, String servingPool,
                                  String refusedPool) {
    /**
     * Whether there is nothing to say of the server beyond "in rotation": no cap here, nothing outstanding, no answers
     * measured, no local limit, locality or pool. A gateway leaves such servers out of its report (with hundreds of
     * gateways each holds slots on a few servers only); a receiver reads a server a reporting gateway left out as idle
     * and in rotation there.
     */
    public boolean idle() {
        return cap == 0 && outstanding == 0 && inRotation && !(throughput > 0) && !locallyLimited && localityGroup == null
                && servingPool == null && refusedPool == null;
    }

    /** The longest locality description a gateway sends (the rest is cut). */
    public static final int MAX_LOCALITY_CHARS = 1000;

    public ServerStatusMessage {
        if (servingPool != null && servingPool.length() > 64) {
            servingPool = servingPool.substring(0, 64);
        }
        if (refusedPool != null && refusedPool.length() > 64) {
            refusedPool = refusedPool.substring(0, 64);
        }
        if (localityGroup != null && localityGroup.length() > MAX_LOCALITY_CHARS) {
            localityGroup = localityGroup.substring(0, MAX_LOCALITY_CHARS) + "…";
        }
    }

    public ServerStatusMessage(String serverId, int cap, int outstanding, boolean inRotation, double throughput,
                               double meanServiceSeconds, boolean locallyLimited) {
        this(serverId, cap, outstanding, inRotation, throughput, meanServiceSeconds, locallyLimited, null, null, null);
    }

    public ServerStatusMessage(String serverId, int cap, int outstanding, boolean inRotation, double throughput,
                               double meanServiceSeconds, boolean locallyLimited, String localityGroup) {
        this(serverId, cap, outstanding, inRotation, throughput, meanServiceSeconds, locallyLimited, localityGroup, null, null);
    }

    /** Without the window's figures (a sender that does not measure them). */
    public ServerStatusMessage(String serverId, int cap, int outstanding, boolean inRotation) {
        this(serverId, cap, outstanding, inRotation, Double.NaN, Double.NaN, false);
    }

    public ServerStatusMessage(String serverId, int cap, int outstanding, boolean inRotation, double throughput,
                               double meanServiceSeconds) {
        this(serverId, cap, outstanding, inRotation, throughput, meanServiceSeconds, false);
    }
}
