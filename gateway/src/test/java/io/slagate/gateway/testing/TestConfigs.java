package io.slagate.gateway.testing;

import io.slagate.config.ConfigLoader;
import io.slagate.config.GatewaySettings;
import io.slagate.config.SlagateConfig;

/**
 * The gateway tests' configurations, on the client listener the test run asks for: the relay listener, the default
 * for plain HTTP, or Jetty's with {@code -Dslagate.test.listener=jetty} (the build runs the raw-HTTP tests both ways).
 * A configuration with TLS keeps Jetty's listener, the only one that serves it.
 */
public final class TestConfigs {
    private static final boolean JETTY = "jetty".equals(System.getProperty("slagate.test.listener"));

    private TestConfigs() {
    }

    public static SlagateConfig parse(String yaml, String source) {
        return onListener(ConfigLoader.parse(yaml, source));
    }

    public static SlagateConfig onListener(SlagateConfig c) {
        GatewaySettings g = c.gateway();
        if (!JETTY || g.tls() != null) {
            return c;
        }
        return c.withGateway(g.withClients(g.clients().withRelayListener(false)));
    }

    /** Whether this run's gateways read their clients with the relay listener. */
    public static boolean relay() {
        return !JETTY;
    }
}
