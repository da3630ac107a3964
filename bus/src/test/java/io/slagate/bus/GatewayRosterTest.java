package io.slagate.bus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GatewayRosterTest {
    @Test
    void withoutBindings_anAccountSpeaksForOneGatewayAtATime() {
        GatewayRoster r = new GatewayRoster(64, Map.of(), "rm");
        assertNull(r.join("gw1", "gw1"));
        assertNull(r.join("gw1", "gw1"), "joining again is fine");
        assertEquals(GatewayRoster.Refusal.ACCOUNT_TAKEN, r.join("fake-1", "gw1"));
        assertEquals(GatewayRoster.Refusal.OTHER_ACCOUNT, r.join("gw1", "gw2"));
        assertEquals(GatewayRoster.Refusal.OTHER_ACCOUNT, r.check("gw1", "gw2"));
        assertNull(r.join("gw2", "gw2"));
        r.leave("gw1");
        assertNull(r.join("gw1b", "gw1"), "once its gateway left, the account may join another id");
        r.retain(Set.of("gw2"));
        assertNull(r.join("gw1c", "gw1"), "nor after it expired");
    }

    @Test
    void theReceiversOwnAccount_andNoAuthentication_joinAnyNumber() {
        GatewayRoster r = new GatewayRoster(64, Map.of(), "slagate");
        for (int i = 0; i < 3; i++) {
            assertNull(r.join("gw" + i, "slagate"), "one account shared by every process: no identity to bind");
            assertNull(r.join("anon" + i, null), "no authentication on the bus");
        }
        assertEquals(6, r.size());
    }

    @Test
    void withBindings_onlyTheListedIds_andUnlistedAccountsNone() {
        GatewayRoster r = new GatewayRoster(64, Map.of("edge", List.of("gw3", "gw4"), "gw1", List.of("gw1")), "rm");
        assertNull(r.join("gw3", "edge"));
        assertNull(r.join("gw4", "edge"));
        assertEquals(GatewayRoster.Refusal.NOT_BOUND, r.join("gw5", "edge"));
        assertEquals(GatewayRoster.Refusal.NOT_BOUND, r.join("gw3b", "stranger"));
        assertNull(r.join("gw9", "rm"), "the receiver's own credential is its own process's");
    }

    @Test
    void atMostMax() {
        GatewayRoster r = new GatewayRoster(2, Map.of(), null);
        assertNull(r.join("a", null));
        assertNull(r.join("b", null));
        assertEquals(GatewayRoster.Refusal.FULL, r.join("c", null));
        r.setMax(3);
        assertNull(r.join("c", null));
    }
}
