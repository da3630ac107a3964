package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.GatewayRoster;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.HeartbeatMessage;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MembershipTest {
    private static HeartbeatMessage beat(String gw, String event) {
        return new HeartbeatMessage(BusMessage.SCHEMA, gw, "gateway", event, 0, 0);
    }

    @Test
    void statisticsCrossingALeave_areDroppedQuietly_butStillNeverBelieved() {
        Membership m = new Membership("rm1", new GatewayRoster(8, Map.of(), "rm"), () -> 8);
        assertEquals(Membership.Change.JOINED, m.onHeartbeat(beat("gw1", HeartbeatMessage.JOIN), "gw-account"));
        assertTrue(m.believeStats("gw1", "gw-account"));
        assertEquals(Membership.Change.LEFT, m.onHeartbeat(beat("gw1", HeartbeatMessage.LEAVE), "gw-account"));
        assertFalse(m.believeStats("gw1", "gw-account"), "the last report after a leave");
        assertFalse(m.believeStats("gw1", "other-account"), "nor anyone else's for it");
        assertEquals(2, m.refusedMessages(), "both counted");
        assertEquals(Membership.Change.JOINED, m.onHeartbeat(beat("gw1", HeartbeatMessage.JOIN), "gw-account"));
        assertTrue(m.believeStats("gw1", "gw-account"), "believed again once it joins again");
    }
}
