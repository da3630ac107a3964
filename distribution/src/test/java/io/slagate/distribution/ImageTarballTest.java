package io.slagate.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OCI image tarball: a layout whose every blob matches its digest, a non-root image whose
 * entrypoint is the runtime it carries; and, where the test may chroot (as root), that runtime
 * really runs slagate from the image's own files alone.
 */
class ImageTarballTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String run(Path dir, List<String> cmd) throws Exception {
        return run(dir, cmd, null);
    }

    /** {@code env}: the whole environment (an image's), or null for this process's. */
    private static String run(Path dir, List<String> cmd, JsonNode env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        if (env != null) {
            pb.environment().clear();
            env.forEach(e -> pb.environment().put(e.asText().substring(0, e.asText().indexOf('=')), e.asText().substring(e.asText().indexOf('=') + 1)));
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
        return out;
    }

    private static JsonNode blob(Path layout, String digest) throws Exception {
        return JSON.readTree(verified(layout, digest));
    }

    /** A blob's bytes, after checking that they hash to its name. */
    private static byte[] verified(Path layout, String digest) throws Exception {
        assertTrue(digest.startsWith("sha256:"), digest);
        byte[] bytes = Files.readAllBytes(layout.resolve("blobs/sha256").resolve(digest.substring(7)));
        assertEquals(digest.substring(7), HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)), "digest of " + digest);
        return bytes;
    }

    @Test
    void layout_digestsMatch_nonRoot_andItsJavaRunsSlagate(@TempDir Path dir) throws Exception {
        Path image = Path.of(System.getProperty("slagate.image"));
        assertTrue(Files.isRegularFile(image), "the image tarball was built: " + image);
        Path layout = Files.createDirectories(dir.resolve("layout"));
        run(dir, List.of("tar", "xf", image.toString(), "-C", layout.toString()));
        assertEquals("1.0.0", JSON.readTree(layout.resolve("oci-layout").toFile()).get("imageLayoutVersion").asText());
        JsonNode index = JSON.readTree(layout.resolve("index.json").toFile());
        JsonNode manifest = blob(layout, index.get("manifests").get(0).get("digest").asText());
        JsonNode config = blob(layout, manifest.get("config").get("digest").asText());
        assertEquals("10001:10001", config.get("config").get("User").asText(), "not root");
        assertEquals("/opt/java/bin/java", config.get("config").get("Entrypoint").get(0).asText());
        assertEquals(1, manifest.get("layers").size());
        String layerDigest = manifest.get("layers").get(0).get("digest").asText();
        byte[] layer = verified(layout, layerDigest);
        assertEquals(layer.length, manifest.get("layers").get(0).get("size").asLong());
        JsonNode docker = JSON.readTree(layout.resolve("manifest.json").toFile()).get(0);
        assertEquals("blobs/sha256/" + layerDigest.substring(7), docker.get("Layers").get(0).asText(), "docker load's manifest names the same layer");

        Path rootfs = Files.createDirectories(dir.resolve("rootfs"));
        run(dir, List.of("tar", "xzf", layout.resolve("blobs/sha256").resolve(layerDigest.substring(7)).toString(), "-C", rootfs.toString()));
        for (String f : List.of("opt/java/bin/java", "opt/slagate/lib/slagate.jar", "etc/slagate/slagate.yaml", "etc/passwd")) {
            assertTrue(Files.exists(rootfs.resolve(f)), f + " in the image");
        }
        assumeTrue(isRoot() && Files.isExecutable(Path.of("/usr/sbin/chroot")), "running the image's java needs chroot (root)");
        List<String> java = new ArrayList<>(List.of("/usr/sbin/chroot", "--userspec=10001:10001", rootfs.toString()));
        config.get("config").get("Entrypoint").forEach(a -> java.add(a.asText()));
        java.addAll(List.of("check-config", "--config", "/etc/slagate/slagate.yaml"));
        // the image's environment, as a runtime gives it (a chroot has no /proc, where the loader would find $ORIGIN)
        String out = run(dir, java, config.get("config").get("Env"));
        assertTrue(out.contains("loadBalancing: least-outstanding"), "the image's own java and files run slagate: " + out);
    }

    private static boolean isRoot() throws IOException {
        return "0".equals(new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim());
    }
}
