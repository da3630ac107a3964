package io.slagate.config;

import java.time.Duration;

/**
 * How the gateway proves who a customer is ({@code gateway.authentication}). With no mechanism set the
 * customer is the name a request claims (its Basic user name or {@code customerFrom}'s header), as
 * without this section.
 *
 * @param mode               {@code required}: a request without credentials is refused (401); {@code optional}: it is
 *                           served as anonymous. Wrong credentials are refused in both modes
 * @param realm              the realm named in {@code WWW-Authenticate}
 * @param htpasswd           an htpasswd file of bcrypt entries ({@code htpasswd -B}), or null
 * @param apiKeyHeader       the header carrying an API key, or null
 * @param apiKeys            the file of API key digests ({@code customer:sha256-hex} a line), or null
 * @param jwt                JWT bearer tokens, or null
 * @param clientCertificate  where a TLS client certificate's customer is read ({@code cn}, {@code san-dns},
 *                           {@code san-email}, {@code san-uri}), or null: certificates are not used
 * @param revocation         client certificates withdrawn before they expire (a CRL, a deny list), or {@link Revocation#NONE}
 * @param cacheEntries       verified credentials kept (by mechanism, identity and a digest of the secret)
 * @param cacheTtl           how long a verified credential is believed without being checked again
 * @param workers            threads for bcrypt and signature checks (never an event loop)
 * @param failures           failed attempts allowed per client (as the trusted proxies tell it); past it, attempts are
 *                           refused unchecked
 * @param nameFailures       failed attempts allowed per claimed name, across clients (but those that proved it lately)
 * @param successes          successful password checks allowed per customer: a valid credential cannot buy bcrypt
 *                           without bound
 * @param forwardCredentials whether the credential a request carries goes on to the server (Authorization, the API
 *                           key header, a UsernameToken); false: removed
 * @param identityHeader     a header the gateway sets to the verified customer (and removes from clients), or null
 * @param wsSecurity         what the gateway reads of a SOAP {@code wsse:Security} header
 */
public record AuthenticationSettings(Mode mode, String realm, String htpasswd, String apiKeyHeader, String apiKeys,
                                     JwtSettings jwt, String clientCertificate, Revocation revocation, int cacheEntries,
                                     Duration cacheTtl, int workers, Limit failures, Limit nameFailures, Limit successes,
                                     boolean forwardCredentials, String identityHeader, WsSecurity wsSecurity) {
    public enum Mode { REQUIRED, OPTIONAL }

    /** No mechanism: customer names are claimed, not proven. */
    public static final AuthenticationSettings OFF = new AuthenticationSettings(Mode.OPTIONAL, "slagate", null, null, null,
            null, null, Revocation.NONE, 10_000, Duration.ofMinutes(5), 2, new Limit(1, 10), new Limit(10, 100), new Limit(1, 10), false, null,
            WsSecurity.OFF);

    /** Whether any mechanism is configured. */
    public boolean on() {
        return htpasswd != null || apiKeys != null || jwt != null || clientCertificate != null || wsSecurity.usernameToken();
    }

    /** Whether passwords are checked: against {@link #htpasswd}, from Basic or from a UsernameToken. */
    public boolean passwords() {
        return htpasswd != null;
    }

    /** A generic cell rate: {@code burst} at once, then {@code rate} a second. */
    public record Limit(double rate, int burst) {
    }

    /**
     * Client certificates withdrawn before their expiry, read again when the files change.
     *
     * @param crl      a CRL file (PEM or DER) issued by a CA of the listener's trust store, or null
     * @param denyList a file of certificate serial numbers (hex) or SHA-256 fingerprints, one a line, or null
     */
    public record Revocation(String crl, String denyList) {
        public static final Revocation NONE = new Revocation(null, null);

        public boolean on() {
            return crl != null || denyList != null;
        }
    }

    /**
     * WS-Security in the SOAP header.
     *
     * @param usernameToken  whether a {@code wsse:UsernameToken} (PasswordText) is a credential, checked against the
     *                       htpasswd file
     * @param maxHeaderBytes how far into a body the SOAP header may reach; a longer one is refused unread
     * @param clockSkew      tolerance on {@code wsu:Timestamp}'s Created and Expires
     */
    public record WsSecurity(boolean usernameToken, int maxHeaderBytes, Duration clockSkew) {
        public static final WsSecurity OFF = new WsSecurity(false, 64 * 1024, Duration.ofMinutes(5));
    }

    /**
     * JWT bearer tokens.
     *
     * @param jwks      a JWKS file, or an https URL (http only on a loopback host) fetched off the request path
     * @param issuer    the {@code iss} a token must carry
     * @param audience  a value its {@code aud} must hold
     * @param claim     the claim naming the customer
     * @param clockSkew allowed on {@code exp} and {@code nbf}
     * @param refresh   how often the JWKS is fetched again (and, at most this often, on an unknown key id)
     */
    public record JwtSettings(String jwks, String issuer, String audience, String claim, Duration clockSkew, Duration refresh) {
    }
}
