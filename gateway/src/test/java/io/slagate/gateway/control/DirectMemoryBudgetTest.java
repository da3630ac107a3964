package io.slagate.gateway.control;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The start-time check that the connections' read buffers fit the JVM's direct memory, on known numbers. */
class DirectMemoryBudgetTest {
    private static final long MIB = 1 << 20;

    @Test
    void theDefaults_fitAnyUsualHeap_aHundredThousandAt8KiB_doNotFit512MiB() {
        assertNull(DirectMemoryBudget.problem(10_000, 8192, 512 * MIB), "10,000 x 8 KiB = 78 MiB of 512");
        String p = DirectMemoryBudget.problem(100_000, 8192, 512 * MIB);
        assertTrue(p != null && p.contains("781 MiB") && p.contains("153%") && p.contains("gateway.maxConnections 100000"), p);
        assertNull(DirectMemoryBudget.problem(100_000, 2048, 512 * MIB), "at 2 KiB: 195 MiB, under half");
        assertTrue(DirectMemoryBudget.problem(40_000, 8192, 512 * MIB) != null, "312 MiB: more than half, flagged");
    }

    /** The test JVM sets no -XX:MaxDirectMemorySize, so its limit is the heap's maximum (what the JDK itself uses). */
    @Test
    void theLimit_isThisJvmsOwn() {
        boolean set = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(a -> a.startsWith("-XX:MaxDirectMemorySize"));
        Assumptions.assumeFalse(set, "this JVM was given its own limit");
        Assertions.assertEquals(Runtime.getRuntime().maxMemory(), DirectMemoryBudget.limit());
    }
}
