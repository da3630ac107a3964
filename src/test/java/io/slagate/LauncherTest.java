package io.slagate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.console.Role;
import io.slagate.console.UserStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Launcher commands that end by themselves, through {@code Main.run} as {@code bin/slagate} calls it. */
class LauncherTest {
    private static final Pattern NEW_PASSWORD = Pattern.compile("has the new password (\\S+) ");

    /** A command's exit code and what it printed. */
    record Outcome(int code, String out, String err) {
    }

    /** Runs {@code bin/slagate ARGS} in this JVM, through {@code Main.run}. */
    static Outcome run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static String password(Outcome o) {
        Matcher m = NEW_PASSWORD.matcher(o.out());
        assertTrue(m.find(), o.out() + o.err());
        return m.group(1);
    }

    @Test
    void consolePassword_resetsALostPassword_andCanCreateAnAdmin(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("slagate.yaml");
        Files.writeString(config, """
                servers: [ { id: s1, url: "http://127.0.0.1:9001", concurrency: 4 } ]
                classes: [ { name: basic, target: 1s } ]
                """);
        UserStore first = UserStore.open(dir.resolve("console-users.json")); // as the first console start does
        String lost = first.generatedPassword();
        assertNotNull(lost);

        Outcome reset = run("console-password", "--config", config.toString());
        assertEquals(0, reset.code(), reset.err());
        String fresh = password(reset);
        UserStore after = UserStore.open(dir.resolve("console-users.json"));
        assertEquals(Role.ADMIN, after.authenticate("admin", fresh.toCharArray()));
        assertNull(after.authenticate("admin", lost.toCharArray()), "the lost password no longer works");
        assertTrue(!Files.readString(dir.resolve("console-users.json")).contains(fresh), "only the hash is stored");

        Outcome other = run("console-password", "operator", "--config", config.toString());
        assertEquals(0, other.code(), other.err());
        assertEquals(Role.ADMIN, UserStore.open(dir.resolve("console-users.json")).authenticate("operator", password(other).toCharArray()));

        Outcome bad = run("console-password", "operator", "--bogus", "--config", config.toString());
        assertEquals(1, bad.code());
        assertTrue(bad.err().contains("unknown option --bogus"), bad.err());
    }

    /** An experiment option given to the wrong experiment is refused before anything starts, naming the option. */
    @Test
    void twoTier_isForExperimentTuningAlone() {
        for (String[] args : new String[][] {{"experiment", "A", "--two-tier", "--short"},
                {"experiment", "tuning", "--two-tier", "--workloads", "--short"}}) {
            Outcome o = run(args);
            assertEquals(1, o.code(), String.join(" ", args) + ": " + o.out());
            assertTrue(o.err().contains("--two-tier is for experiment tuning (alone)"), o.err());
        }
    }

    /** --paired is experiment B's, and a pair count that gives no interval is refused before anything starts. */
    @Test
    void paired_isForExperimentB_withAtLeastTwoPairs() {
        for (String[] args : new String[][] {{"experiment", "C", "--paired", "--short"}, {"experiment", "B", "--paired", "--sweep"}}) {
            Outcome o = run(args);
            assertEquals(1, o.code(), String.join(" ", args) + ": " + o.out());
            assertTrue(o.err().contains("--paired is for experiment B"), o.err());
        }
        Outcome one = run("experiment", "B", "--paired", "--pairs", "1", "--short");
        assertEquals(1, one.code(), one.out());
        assertTrue(one.err().contains("--pairs needs at least 2"), one.err());
    }
}
