package io.slagate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code slagate stop} stops only what its own configuration's pid files name, and only slagate. */
class PidFilesTest {
    @TempDir
    Path dir;

    private static String run(Path config) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = PidFiles.stop(config, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, code);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aReusedPid_orAnotherConfigurationsFile_isNotStopped() throws Exception {
        Path config = Files.writeString(dir.resolve("slagate.yaml"), "");
        Process other = new ProcessBuilder("sleep", "60").start(); // a pid the system handed to another program
        try {
            Files.writeString(PidFiles.of(config, "start"), other.pid() + "\n");
            // another configuration beside it whose name begins the same: not this one's
            Files.writeString(dir.resolve("slagate.prod.start.pid"), other.pid() + "\n");
            String said = run(config);
            assertTrue(said.contains("nothing of"), said);
            assertTrue(other.isAlive(), "not slagate: left alone");
            assertFalse(Files.exists(PidFiles.of(config, "start")), "the stale file is removed");
            assertTrue(Files.exists(dir.resolve("slagate.prod.start.pid")), "the other configuration's file is not this one's to touch");
        } finally {
            other.destroy();
            other.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void pidFiles_areNamedByConfigurationAndRole() {
        assertEquals(dir.resolve("edge.gateway.pid").toAbsolutePath(), PidFiles.of(dir.resolve("edge.yaml"), "gateway"));
        assertEquals(dir.resolve("slagate.start.pid").toAbsolutePath(), PidFiles.of(dir.resolve("slagate.yml"), "start"));
    }
}
