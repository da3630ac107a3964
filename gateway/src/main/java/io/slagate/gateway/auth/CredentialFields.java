package io.slagate.gateway.auth;

import io.slagate.config.AuthenticationSettings;
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

    /** Whether the client's field {@code f} is kept from the server. */
    public boolean withheld(HttpField f) {
        if (authorization && f.getHeader() == HttpHeader.AUTHORIZATION) {
            return true;
        }
        return apiKeyHeader != null && f.is(apiKeyHeader) || identityHeader != null && f.is(identityHeader);
    }

    /** The header the gateway sets to the verified customer, or null. */
    public String identityHeader() {
        return identityHeader;
    }

    /** Whether a UsernameToken is taken out of the SOAP header before the request goes on. */
    public boolean removesUsernameToken() {
        return usernameToken;
    }
}
