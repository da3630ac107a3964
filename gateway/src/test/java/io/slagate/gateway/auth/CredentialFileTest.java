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

        String dummy = Bcrypt.dummy(c.entries().values());
        assertTrue(Bcrypt.verify("s3cret", c.entries().get("gold-customer"), dummy));
        assertFalse(Bcrypt.verify("S3cret", c.entries().get("gold-customer"), dummy));
        assertFalse(Bcrypt.verify("s3cret", null, dummy), "an unknown name never passes");
        assertFalse(Bcrypt.verify("s3cret" + "x".repeat(80), c.entries().get("gold-customer"), dummy),
                "a password past bcrypt's 72 bytes is refused, not matched on its prefix");
    }

    @Test
    void anEntryWrittenByApacheHtpasswd_isRead() throws Exception {
        // the output of `htpasswd -nbB gold-customer s3cret` (apache2-utils 2.4), kept verbatim
        Path f = Files.writeString(dir.resolve("h"), "gold-customer:$2y$05$edxy/4DwNB1m26ZpahsFVeI72XzUstFegTMoa8/KHlcg7cUI4LnrG\n\n");
        CredentialFile.Contents c = new CredentialFile(f, Bcrypt::problem, false).read();
        assertEquals(List.of(), c.problems());
        String dummy = Bcrypt.dummy(c.entries().values());
        assertTrue(Bcrypt.verify("s3cret", c.entries().get("gold-customer"), dummy));
        assertFalse(Bcrypt.verify("s3cret ", c.entries().get("gold-customer"), dummy));
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
    void theCache_forgetsAtItsTtl_atATokensExpiry_andWhenFull() {
        CredentialCache cache = new CredentialCache(2, 100);
        CredentialKey a = CredentialKey.of("Basic a");
        Authenticator.Result acme = Authenticator.Result.verified("acme");
        cache.put(a, acme, 0, Long.MAX_VALUE, 0);
        assertEquals(acme, cache.get(a, 99));
        assertEquals(null, cache.get(a, 100), "the TTL");
        cache.put(a, acme, 0, 50, 0);
        assertEquals(null, cache.get(a, 50), "a token's own expiry when sooner");
        cache.put(CredentialKey.of("1"), acme, 0, Long.MAX_VALUE, 0);
        cache.put(CredentialKey.of("2"), acme, 0, Long.MAX_VALUE, 0);
        cache.put(CredentialKey.of("3"), acme, 0, Long.MAX_VALUE, 0);
        assertTrue(cache.size() <= 2, "bounded");
        assertFalse(CredentialKey.of("Basic YTpi").equals(CredentialKey.of("Basic YTpj")), "one character apart: two keys");
    }

    /** A check that read the credentials before a revocation and ends after it: its verdict is not cached. */
    @Test
    void theCache_keepsNoVerdictOfACheckThatSpannedAClear() {
        CredentialCache cache = new CredentialCache(10, 1_000);
        CredentialKey a = CredentialKey.of("Basic a");
        Authenticator.Result acme = Authenticator.Result.verified("acme");
        long before = cache.generation();
        cache.clear(); // the revocation, while the check ran
        cache.put(a, acme, 0, Long.MAX_VALUE, before);
        assertEquals(null, cache.get(a, 1), "checked against revoked credentials: not believed later");
        cache.put(a, acme, 0, Long.MAX_VALUE, cache.generation());
        assertEquals(acme, cache.get(a, 1), "a check within one generation is cached");
    }
}
