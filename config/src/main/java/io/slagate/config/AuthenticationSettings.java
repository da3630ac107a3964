package io.slagate.config;

import java.time.Duration;

/**
 * How the gateway proves who a customer is ({@code gateway.authentication}). With no mechanism set the
 * customer is the name a request claims (its Basic user name or {@code customerFrom}'s header), as
 * without this section.
 *
 * @param mode              {@code required}: a request without credentials is refused (401); {@code optional}: it is
 *                          served as anonymous. Wrong credentials are refused in both modes
 * @param realm             the realm named in {@code WWW-Authenticate}
 * @param htpasswd          an htpasswd file of bcrypt entries ({@code htpasswd -B}), or null
 * @param apiKeyHeader      the header carrying an API key, or null
 * @param apiKeys           the file of API key digests ({@code customer:sha256-hex} a line), or null
 * @param jwt               JWT bearer tokens, or null
 * @param clientCertificate where a TLS client certificate's customer is read ({@code cn}, {@code san-dns},
 *                          {@code san-email}, {@code san-uri}), or null: certificates are not used
 * @param cacheEntries      verified credentials kept (by a digest of the whole credential)
 * @param cacheTtl          how long a verified credential is believed without being checked again
 * @param workers           threads for bcrypt and signature checks (never an event loop)
 * @param failureRate       failed attempts per second allowed per client address (and per claimed name from an
 *                          address that failed), beyond the burst; past it, attempts are refused unchecked
 * @param failureBurst      failed attempts allowed at once before the rate applies
 */
public record AuthenticationSettings(Mode mode, String realm, String htpasswd, String apiKeyHeader, String apiKeys,
                                     JwtSettings jwt, String clientCertificate, int cacheEntries, Duration cacheTtl,
                                     int workers, double failureRate, int failureBurst) {
    public enum Mode { REQUIRED, OPTIONAL }

    /** No mechanism: customer names are claimed, not proven. */
    public static final AuthenticationSettings OFF = new AuthenticationSettings(Mode.OPTIONAL, "slagate", null, null, null,
            null, null, 10_000, Duration.ofMinutes(5), 2, 1, 10);

    /** Whether any mechanism is configured. */
    public boolean on() {
        return htpasswd != null || apiKeys != null || jwt != null || clientCertificate != null;
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
