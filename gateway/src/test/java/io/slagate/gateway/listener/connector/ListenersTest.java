package io.slagate.gateway.listener.connector;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.config.ConfigLoader;
import io.slagate.config.GatewaySettings;
import org.junit.jupiter.api.Test;

/** Which client listener a configuration gets (the relay's by default), and whose read buffers count against direct memory. */
class ListenersTest {
    private static final String MANY_BIG_BUFFERS = """
            gateway: { maxConnections: 1000000, requestBufferBytes: 64KiB%s }
            servers: [ { id: s1, url: "http://127.0.0.1:9001", concurrency: 10 } ]
            classes: [ { name: gold, target: 2s } ]
            """;

    @Test
    void readBuffersInDirectMemory_warnedOnJettysListener_notOnTheRelaysHeap() {
        GatewaySettings jetty = ConfigLoader.parse(MANY_BIG_BUFFERS.formatted(", listener: jetty"), "t.yaml").gateway();
        GatewaySettings relay = ConfigLoader.parse(MANY_BIG_BUFFERS.formatted(""), "t.yaml").gateway();

        assertFalse(Listeners.relay(jetty));
        assertNotNull(Listeners.directMemoryProblem(jetty), "a million 64 KiB buffers exceed any test JVM's direct memory");
        assertTrue(Listeners.relay(relay));
        assertNull(Listeners.directMemoryProblem(relay), "the relay listener reads into the heap");
    }
}
