package io.slagate.gateway.auth;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * HTTP Basic credentials read strictly (RFC 7617): the scheme in any case, one space, then the user-pass in
 * canonical base64 (the standard alphabet, padded, no bits after the last byte) and nothing else; the user-pass
 * UTF-8 with no control characters and a colon after a non-empty user id. So one user and password have exactly one
 * form that is accepted: the cache holds it once, and no variant of a valid credential costs another check.
 */
final class BasicCredential {
    /** Where the base64 starts: after {@code Basic} and its one space. */
    static final int TOKEN = 6;
    /** The longest name an htpasswd file's line may have. */
    static final int MAX_USER = 256;

    /** A user-pass as decoded. */
    record UserPass(String user, String password) {
    }

    private BasicCredential() {
    }

    /** Whether {@code header} has the Basic scheme (in any case) followed by a space. */
    static boolean isBasic(String header) {
        return header.length() > TOKEN && header.regionMatches(true, 0, "Basic", 0, 5) && header.charAt(5) == ' ';
    }

    /** Whether the base64 after the scheme is canonical: checked in place, nothing allocated. */
    static boolean canonical(String header) {
        int n = header.length() - TOKEN;
        if (n == 0 || n % 4 != 0) {
            return false;
        }
        int end = header.length();
        int pad = header.charAt(end - 1) != '=' ? 0 : header.charAt(end - 2) == '=' ? 2 : 1;
        for (int i = TOKEN; i < end - pad; i++) {
            if (value(header.charAt(i)) < 0) {
                return false;
            }
        }
        // the last data character may carry only the bits of a whole byte: 4 of its 6 with two '=', 2 with one
        int last = pad == 0 ? 0 : value(header.charAt(end - pad - 1));
        return pad == 0 || (last & (pad == 2 ? 0x0f : 0x03)) == 0;
    }

    /** The user and password of a canonical credential, or null: not UTF-8, a control character, no colon, no user. */
    static UserPass decode(String header) {
        byte[] raw = Base64.getDecoder().decode(header.substring(TOKEN));
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw)).toString();
        } catch (CharacterCodingException notUtf8) {
            return null; // else two different byte strings could decode to one password
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                return null;
            }
        }
        int colon = text.indexOf(':');
        // a name longer than any an htpasswd file holds is no customer's: refused before it could key a limiter's cell
        return colon <= 0 || colon > MAX_USER ? null : new UserPass(text.substring(0, colon), text.substring(colon + 1));
    }

    private static int value(char c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        return c == '+' ? 62 : c == '/' ? 63 : -1;
    }
}
