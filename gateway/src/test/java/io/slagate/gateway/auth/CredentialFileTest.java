package io.slagate.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import at.favre.lib.crypto.bcrypt.BCrypt;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** htpasswd and API key files: what is an entry, what is refused (and named by its line), and the bcrypt check. */
class CredentialFileTest {
    @TempDir
    Path dir;

    @Test
    void htpasswd_takesBcryptEntries_andNamesEveryOtherLine() throws Exception {
        String gold = new String(BCrypt.with(BCrypt.Version.VERSION_2Y).hashToChar(4, "s3cret".toCharArray()));
        Path f = Files.writeString(dir.resolve("h"), String.join("\n",
                "# customers",
                "gold-customer:" + gold,
                "md5user:$apr1$abcdefgh$0123456789abcdefghijkl",
                "shauser:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=",
                "nocolon",
                "gold-customer:" + gold,
                "broken:$2y$05$tooShort",
                ""));
        CredentialFile.Contents c = new CredentialFile(f, Bcrypt::problem, false).read();
        assertEquals(List.of("gold-customer"), List.copyOf(c.entries().keySet()));
        assertEquals(5, c.problems().size(), c.problems().toString());
        assertTrue(c.problems().get(0).contains("line 3") && c.problems().get(0).contains("htpasswd -B"), c.problems().get(0));
        assertTrue(c.problems().get(3).contains("repeats the name gold-customer"), c.problems().get(3));

        int cost = Bcrypt.fileCost(c.entries().values());
        assertEquals(4, cost, "the file's one cost");
        assertTrue(Bcrypt.verify("s3cret", c.entries().get("gold-customer"), cost));
        assertFalse(Bcrypt.verify("S3cret", c.entries().get("gold-customer"), cost));
        assertFalse(Bcrypt.verify("s3cret", null, cost), "an unknown name never passes");
        assertFalse(Bcrypt.verify("s3cret" + "x".repeat(80), c.entries().get("gold-customer"), cost),
                "a password past bcrypt's 72 bytes is refused, not matched on its prefix");
    }

    @Test
    void anEntryWrittenByApacheHtpasswd_isRead() throws Exception {
        // the output of `htpasswd -nbB gold-customer s3cret` (apache2-utils 2.4), kept verbatim
        Path f = Files.writeString(dir.resolve("h"), "gold-customer:$2y$05$edxy/4DwNB1m26ZpahsFVeI72XzUstFegTMoa8/KHlcg7cUI4LnrG\n\n");
        CredentialFile.Contents c = new CredentialFile(f, Bcrypt::problem, false).read();
        assertEquals(List.of(), c.problems());
        assertTrue(Bcrypt.verify("s3cret", c.entries().get("gold-customer"), 5));
        assertFalse(Bcrypt.verify("s3cret ", c.entries().get("gold-customer"), 5));
    }

    @Test
    void apiKeyFile_holdsDigestsOnly() throws Exception {
        Path f = Files.writeString(dir.resolve("k"), "acme:" + CredentialKey.hex("key-1") + "\nplain:key-2\n");
        CredentialFile.Contents c = new CredentialFile(f, Credentials::apiKeyProblem, true).read();
        assertEquals("acme", c.entries().get(CredentialKey.hex("key-1")));
        assertEquals(1, c.problems().size());
        assertTrue(c.problems().get(0).contains("line 2"));
    }

    @Test
    void aFileOfMixedCosts_isCheckedAtItsDearest_andTheDummiesAreWellFormed() {
        String cheap = new String(BCrypt.with(BCrypt.Version.VERSION_2Y).hashToChar(4, "a".toCharArray()));
        String dear = new String(BCrypt.with(BCrypt.Version.VERSION_2Y).hashToChar(6, "b".toCharArray()));
        assertEquals(6, Bcrypt.fileCost(List.of(cheap, dear)));
        assertEquals(java.util.Map.of(4, 1, 6, 1), Bcrypt.costs(List.of(cheap, dear)));
        assertEquals(Bcrypt.DEFAULT_COST, Bcrypt.fileCost(List.of()), "an empty file: the console's cost");
        for (int cost = 4; cost <= 8; cost++) {
            assertEquals(null, Bcrypt.problem("x", Bcrypt.dummy(cost)), "the dummy of cost " + cost + " is an entry");
            assertFalse(Bcrypt.verify("no password", null, cost));
        }
        assertTrue(Bcrypt.verify("a", cheap, 6), "a cheaper entry still verifies when made up to the file's cost");
        assertTrue(Bcrypt.problem("x", "$2y$15$" + "a".repeat(53)).contains("at most 14"), "a cost that would take seconds is refused");
    }

    @Test
    void aRotationOfTheSameLength_isSeenByItsDigest() throws Exception {
        Path f = Files.writeString(dir.resolve("k"), "acme:" + CredentialKey.hex("key-1") + "\n");
        CredentialFile file = new CredentialFile(f, Credentials::apiKeyProblem, true);
        assertTrue(file.readIfChanged() != null, "never read: read");
        assertEquals(null, file.readIfChanged(), "the same text: nothing to do");
        java.nio.file.attribute.FileTime mtime = Files.getLastModifiedTime(f);
        Files.writeString(f, "acme:" + CredentialKey.hex("key-2") + "\n"); // same length
        Files.setLastModifiedTime(f, mtime);
        CredentialFile.Contents c = file.readIfChanged();
        assertTrue(c != null && c.entries().containsKey(CredentialKey.hex("key-2")), "same size and time, new text: read");
    }
}
