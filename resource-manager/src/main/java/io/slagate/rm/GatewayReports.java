package io.slagate.rm;

import io.slagate.bus.message.ServerStatusMessage;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * What the gateways' last reports say of each server, taken together, in one pass over the reports (O(G·S): asked
 * server by server, it would be O(G·S²) per cycle). Immutable once built.
 */
final class GatewayReports {
    /** One server as the reports tell it. */
    static final class Server {
        private int reports;
        private boolean inRotation;
        private boolean limited;
        private int caps;
        private int outstanding;
        private double service;
        private int serviceSeen;


        /**
         * While a gateway reports a local limit on the server (its service times jumped), the server's capacity is what
         * the gateways hold it to now, Σ_g of their reported caps; −1 while none does. The gateways give the slots back
         * as it recovers, and the next cycle's figure follows.
         */
        int locallyLimitedCapacity() {
            return limited ? caps : -1;
        }

        /** Requests outstanding on it, summed over the gateways. */
        int outstanding() {
            return outstanding;
        }

        /** The gateways' mean service time of it (s), 0 when none measured one. */
        double meanServiceSeconds() {
            return serviceSeen == 0 ? 0 : service / serviceSeen;
        }
    }

    private static final Server UNREPORTED = new Server();

    private final Map<String, Server> servers = new HashMap<>();
    private int reporting;

    GatewayReports(Collection<GatewayReport> gateways) {
        for (GatewayReport r : gateways) {
            if (r.stats() == null) {
                continue;
            }
            reporting++;
            for (ServerStatusMessage ss : r.stats().servers()) {
                Server s = servers.computeIfAbsent(ss.serverId(), k -> new Server());
                s.reports++;
                s.inRotation |= ss.inRotation();
                s.limited |= ss.locallyLimited();
                s.caps += Math.max(0, ss.cap());
                s.outstanding += Math.max(0, ss.outstanding());
                if (Double.isFinite(ss.meanServiceSeconds()) && ss.meanServiceSeconds() > 0) {
                    s.service += ss.meanServiceSeconds();
                    s.serviceSeen++;
                }
            }
        }
    }

    /**
     * Down only when every reporting gateway has it out of rotation: a gateway that left it out of its report has it
     * idle and in rotation ({@link ServerStatusMessage#idle}).
     */
    boolean up(String id) {
        Server s = server(id);
        return s.reports == 0 || s.inRotation || s.reports < reporting;
    }

    /** The server {@code id} as reported (one no gateway reports: up, unlimited, idle). */
    Server server(String id) {
        return servers.getOrDefault(id, UNREPORTED);
    }
}
