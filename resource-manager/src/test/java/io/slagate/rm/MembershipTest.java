package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.GatewayRoster;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.RosterMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MembershipTest {
    private static HeartbeatMessage beat(String gw, String event) {
        return new HeartbeatMessage(BusMessage.SCHEMA, gw, "gateway", event, 0, 0);
    }

    @Test
    void statisticsCrossingALeave_areDroppedQuietly_butStillNeverBelieved() {
        Membership m = new Membership("rm1", new GatewayRoster(8, Map.of("gw-account", List.of("gw1")), "rm"), () -> 8);
        assertEquals(Membership.Change.JOINED, m.onHeartbeat(beat("gw1", HeartbeatMessage.JOIN), "gw-account"));
        assertTrue(m.believeStats("gw1", "gw-account"));
        assertEquals(Membership.Change.LEFT, m.onHeartbeat(beat("gw1", HeartbeatMessage.LEAVE), "gw-account"));
        assertFalse(m.believeStats("gw1", "gw-account"), "the last report after a leave");
        assertFalse(m.believeStats("gw1", "other-account"), "nor anyone else's for it");
        assertEquals(2, m.refusedMessages(), "both counted");
        assertEquals(Membership.Change.JOINED, m.onHeartbeat(beat("gw1", HeartbeatMessage.JOIN), "gw-account"));
        assertTrue(m.believeStats("gw1", "gw-account"), "believed again once it joins again");
    }

    @Test
    void aRefusedJoin_isToldToTheGatewayId_onceEveryTenSeconds() {
        List<String> told = new ArrayList<>();
        long[] now = {0};
        Membership m = new Membership("rm1", new GatewayRoster(8, Map.of("gw1", List.of("gw1")), "rm"), () -> 8,
                (topic, msg) -> told.add(topic + " " + ((RosterMessage) msg).account() + " " + ((RosterMessage) msg).reason()),
                () -> now[0]);
        assertEquals(Membership.Change.NONE, m.onHeartbeat(beat("gw2", HeartbeatMessage.JOIN), "gw1"));
        assertEquals(Membership.Change.NONE, m.onHeartbeat(beat("gw2", HeartbeatMessage.ALIVE), "gw1"));
        assertEquals(List.of("slagate.allocation.gateway.gw2 gw1 the account is not bound to this gateway id (bus.gatewayAccounts)"), told);
        now[0] += 10_000_000_000L;
        m.onHeartbeat(beat("gw2", HeartbeatMessage.ALIVE), "gw1");
        assertEquals(2, told.size(), "told again after 10 s");
        assertEquals(3, m.refusedMessages(), "every refused beat counted");
    }

    @Test
    void reportsClaimingMoreClassesOrServersThanConfigured_areRefusedAndCounted() {
        Membership m = new Membership("rm1", new GatewayRoster(8, Map.of(), "rm"), () -> 8);
        List<FlowStatsMessage> flows = new ArrayList<>();
        List<ServerStatusMessage> servers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            flows.add(new FlowStatsMessage("c" + i, 1, 1, 0, 0.1, 0.1, 0.1, 1, 1, 1));
            servers.add(new ServerStatusMessage("s" + i, 4, 1, true));
        }
        StatsMessage real = new StatsMessage(BusMessage.SCHEMA, "gw1", 1, 0, 5, 0, flows, servers);
        assertTrue(m.plausible(real, 3, 3), "as many as configured");
        assertFalse(m.plausible(real, 2, 3), "a class more than configured");
        assertFalse(m.plausible(real, 3, 2), "a server more than configured");
        assertEquals(2, m.refusedMessages());
    }
}
