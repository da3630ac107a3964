package io.slagate.rm;

import io.slagate.bus.message.ServerStatusMessage;
import java.util.Collection;

/** What the gateways' last reports say of one server, taken together. */
final class GatewayReports {
    private GatewayReports() {
    }

    /**
     * While a gateway reports a local limit on the server (its service times jumped), the server's capacity is
     * what the gateways hold it to now, Σ_g of their reported caps; −1 while none does. The gateways give the
     * slots back as it recovers, and the next cycle's figure follows.
     */
    static int locallyLimitedCapacity(Collection<ResourceManager.Report> gateways, String serverId) {
        boolean limited = false;
        int sum = 0;
        for (ResourceManager.Report r : gateways) {
            if (r.stats() == null) {
                continue;
            }
            for (ServerStatusMessage ss : r.stats().servers()) {
                if (ss.serverId().equals(serverId)) {
                    limited |= ss.locallyLimited();
                    sum += Math.max(0, ss.cap());
                }
            }
        }
        return limited ? sum : -1;
    }

    /** Down only when at least one gateway reports the server and none has it in rotation. */
    static boolean serverUp(Collection<ResourceManager.Report> gateways, String serverId) {
        boolean reported = false;
        for (ResourceManager.Report r : gateways) {
            if (r.stats() == null) {
                continue;
            }
            for (ServerStatusMessage ss : r.stats().servers()) {
                if (ss.serverId().equals(serverId)) {
                    reported = true;
                    if (ss.inRotation()) {
                        return true;
                    }
                }
            }
        }
        return !reported;
    }
}
