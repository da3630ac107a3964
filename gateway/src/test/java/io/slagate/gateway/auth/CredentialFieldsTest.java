package io.slagate.gateway.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import org.junit.jupiter.api.Test;

/** The verified customer as the identity header carries it: never ambiguous, never able to break the header. */
class CredentialFieldsTest {
    @Test
    void plainNames_goAsTheyAre_othersPercentEncoded() {
        assertEquals("gold-customer", CredentialFields.identityValue("gold-customer"));
        assertEquals("%C5%81ukasz", CredentialFields.identityValue("Łukasz"));
        assertNotEquals(CredentialFields.identityValue("Łukasz"), CredentialFields.identityValue("Žukasz"), "no two names as one");
        assertEquals("a%20b%25c%0D%0A", CredentialFields.identityValue("a b%c\r\n"));
        String encoded = CredentialFields.identityValue("\u0000\u007f");
        assertFalse(encoded.chars().anyMatch(c -> c < 0x21 || c > 0x7e), encoded);
        assertTrue(CredentialFields.identityValue("%41").startsWith("%25"), "a literal % is encoded, so %41 is not read as A");
    }
}
