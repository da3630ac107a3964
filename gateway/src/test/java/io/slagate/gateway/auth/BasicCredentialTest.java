package io.slagate.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** HTTP Basic read strictly: one accepted form per user and password, so variants never cost a second check. */
class BasicCredentialTest {
    private static String basic(byte[] userPass) {
        return "Basic " + Base64.getEncoder().encodeToString(userPass);
    }

    @Test
    void theCanonicalForm_isAccepted_andDecoded() {
        for (String up : new String[] {"a:b", "gold-customer:s3cret", "ab:", "é:ü€", "u:p:with:colons"}) {
            String h = basic(up.getBytes(StandardCharsets.UTF_8));
            assertTrue(BasicCredential.isBasic(h) && BasicCredential.canonical(h), h);
            BasicCredential.UserPass d = BasicCredential.decode(h);
            assertEquals(up, d.user() + ":" + d.password());
        }
    }

    @Test
    void everyOtherSpellingOfTheSameBytes_isRefused() {
        String h = basic("gold-customer:s3cret".getBytes(StandardCharsets.UTF_8)); // ends in one '='
        String token = h.substring(6);
        assertFalse(BasicCredential.canonical("Basic " + token.replace("=", "")), "padding left out");
        assertFalse(BasicCredential.canonical("Basic " + token + "="), "padding added");
        assertFalse(BasicCredential.canonical("Basic  " + token), "two spaces");
        assertFalse(BasicCredential.canonical("Basic " + token.substring(0, 4) + "\n" + token.substring(4)), "a line break");
        assertFalse(BasicCredential.canonical("Basic -" + token.substring(1)), "the URL alphabet");
        // the character before the '=' carries 2 spare bits: any other value decodes to the same bytes with Java's decoder
        char last = token.charAt(token.length() - 2);
        String spare = token.substring(0, token.length() - 2) + (char) (last + 1) + "=";
        assertTrue(java.util.Arrays.equals(Base64.getDecoder().decode(token), Base64.getDecoder().decode(spare)),
                "the lenient decoder takes both");
        assertFalse(BasicCredential.canonical("Basic " + spare), "only the form with zero spare bits is accepted");
        assertFalse(BasicCredential.isBasic("Basic"), "no token at all");
    }

    @Test
    void aUserPassThatIsNotUtf8_orHasAControlCharacter_orNoUser_isRefused() {
        assertNull(BasicCredential.decode(basic(new byte[] {'a', ':', (byte) 0xff})), "two invalid sequences would be one password");
        assertNull(BasicCredential.decode(basic("a:b\u0000".getBytes(StandardCharsets.UTF_8))));
        assertNull(BasicCredential.decode(basic("a\tb:c".getBytes(StandardCharsets.UTF_8))));
        assertNull(BasicCredential.decode(basic(":nouser".getBytes(StandardCharsets.UTF_8))));
        assertNull(BasicCredential.decode(basic("nocolon".getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void theSchemesSpellings_shareOneCacheKey_andTwoMechanismsNever() {
        String token = basic("a:b".getBytes(StandardCharsets.UTF_8)).substring(6);
        assertEquals(CredentialKey.of('B', "Basic " + token, 6), CredentialKey.of('B', "bASIC " + token, 6));
        assertFalse(CredentialKey.of('B', "Basic " + token, 6).equals(CredentialKey.of('J', "Basic " + token, 6)));
        assertFalse(CredentialKey.of('J', "x.\u0141.y", 0).equals(CredentialKey.of('J', "x.A.y", 0)),
                "a character past ASCII is never cut to one byte");
    }
}
