package io.slagate.gateway;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Every {@link GatewayProxyTest} again through Jetty's HttpClient, the upstream leg https servers
 * use and operators can fall back to ({@code -Dslagate.upstream=httpclient}). The property is read
 * when a gateway is built; test classes run one after another in this module.
 */
class GatewayProxyHttpClientLegTest extends GatewayProxyTest {
    @BeforeAll
    static void useHttpClientLeg() {
        System.setProperty("slagate.upstream", "httpclient");
    }

    @AfterAll
    static void useDirectLeg() {
        System.clearProperty("slagate.upstream");
    }
}
