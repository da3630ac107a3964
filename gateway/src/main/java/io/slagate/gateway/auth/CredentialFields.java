package io.slagate.gateway.auth;

import io.slagate.config.AuthenticationSettings;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;

/**
 * What of a client's credentials goes on to the server. By default nothing: the gateway proved the customer, and a
 * server has no use for the secret (a leaked server log, or a compromised server, would hold every customer's). The
 * fields of the configured mechanisms are removed ({@code Authorization} for Basic and JWT, the API key header), and
 * a UsernameToken from the SOAP header; with {@code forwardCredentials} they pass as they came. The identity header,
 * when configured, is always removed from what a client sent and set by the gateway to the verified customer, so a
 * server may believe it.
 */
public final class CredentialFields {
    private final boolean authorization;
    private final String apiKeyHeader;
    private final String identityHeader;
    private final boolean usernameToken;

    private CredentialFields(AuthenticationSettings a) {
        boolean strip = !a.forwardCredentials();
        this.authorization = strip && (a.htpasswd() != null || a.jwt() != null);
        this.apiKeyHeader = strip && a.apiKeys() != null ? a.apiKeyHeader() : null;
        this.identityHeader = a.identityHeader();
        this.usernameToken = strip && a.wsSecurity().usernameToken();
    }

    /** The policy of {@code a}, or null when authentication is off (then a request's fields all go on). */
    public static CredentialFields of(AuthenticationSettings a) {
        return a.on() ? new CredentialFields(a) : null;
    }

    /**
     * Whether the client's field {@code f} is kept from the server: also under a name that differs by '_' for '-', which
     * servers behind CGI-style adapters read as the same header.
     */
    public boolean withheld(HttpField f) {
        if (authorization && f.getHeader() == HttpHeader.AUTHORIZATION) {
            return true;
        }
        return apiKeyHeader != null && same(f, apiKeyHeader) || identityHeader != null && same(f, identityHeader);
    }

    private static boolean same(HttpField f, String name) {
        String n = f.getName();
        return n.length() == name.length() && (f.is(name) || n.indexOf('_') >= 0 && n.replace('_', '-').equalsIgnoreCase(name));
    }

    /** The header the gateway sets to the verified customer, or null. */
    public String identityHeader() {
        return identityHeader;
    }

    /**
     * The verified customer as the identity header carries it: printable ASCII as it is, every other byte of its UTF-8
     * (and '%') percent-encoded, so two names never arrive as one and no name can break the header.
     */
    public static String identityValue(String customer) {
        boolean plain = true;
        for (int i = 0; i < customer.length() && plain; i++) {
            char c = customer.charAt(i);
            plain = c > 0x20 && c < 0x7f && c != '%';
        }
        if (plain) {
            return customer;
        }
        StringBuilder out = new StringBuilder();
        for (byte b : customer.getBytes(StandardCharsets.UTF_8)) {
            if (b > 0x20 && b < 0x7f && b != '%') {
                out.append((char) b);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(b >> 4 & 0xf, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
            }
        }
        return out.toString();
    }

    /** Whether a UsernameToken is taken out of the SOAP header before the request goes on. */
    public boolean removesUsernameToken() {
        return usernameToken;
    }
}
