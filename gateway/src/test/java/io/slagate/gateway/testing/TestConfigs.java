package io.slagate.gateway.testing;

import io.slagate.config.ConfigLoader;
import io.slagate.config.GatewaySettings;
import io.slagate.config.SlagateConfig;

/**
 * The gateway tests' configurations, on the client listener the test run asks for: Jetty's by default,
 * the relay's with {@code -Dslagate.test.listener=relay} (the build runs the raw-HTTP tests both ways).
 * A configuration with TLS keeps Jetty's listener, the only one that serves it.
 */
public final class TestConfigs {
    private static final boolean RELAY = "relay".equals(System.getProperty("slagate.test.listener"));

    private TestConfigs() {
    }

    public static SlagateConfig parse(String yaml, String source) {
        return onListener(ConfigLoader.parse(yaml, source));
    }

    public static SlagateConfig onListener(SlagateConfig c) {
        GatewaySettings g = c.gateway();
        if (!RELAY || g.tls() != null) {
            return c;
        }
        return c.withGateway(g.withClients(g.clients().withRelayListener(true)));
    }

    /** Whether this run's gateways read their clients with the relay listener. */
    public static boolean relay() {
        return RELAY;
    }
}
