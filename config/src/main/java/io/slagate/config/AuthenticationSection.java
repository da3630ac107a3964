package io.slagate.config;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/** The {@code gateway.authentication:} section: which credentials prove a customer, and what a failure costs. */
final class AuthenticationSection {
    static final String[] CLIENT_CERTIFICATE = {"cn", "san-dns", "san-email", "san-uri"};

    private AuthenticationSection() {
    }

    static AuthenticationSettings authentication(ConfigNode g) {
        if (g.child("authentication").isMissing()) {
            return AuthenticationSettings.OFF;
        }
        ConfigNode a = g.object("authentication");
        AuthenticationSettings d = AuthenticationSettings.OFF;
        AuthenticationSettings.Mode mode = a.choice("mode", AuthenticationSettings.Mode.REQUIRED,
                s -> switch (s) {
                    case "required" -> AuthenticationSettings.Mode.REQUIRED;
                    case "optional" -> AuthenticationSettings.Mode.OPTIONAL;
                    default -> null;
                }, "required", "optional");
        String realm = a.string("realm", d.realm());
        if (realm != null && !realm.matches("[A-Za-z0-9 ._-]{1,64}")) {
            a.problem("realm", realm, "must be 1-64 letters, digits, spaces, '.', '_' or '-'");
            realm = d.realm();
        }
        String htpasswd = null;
        if (!a.child("basic").isMissing()) {
            ConfigNode b = a.object("basic");
            htpasswd = ConfigLoader.readable(b, "htpasswd", b.requiredString("htpasswd"));
        }
        String keyHeader = null;
        String keys = null;
        if (!a.child("apiKey").isMissing()) {
            ConfigNode k = a.object("apiKey");
            keyHeader = k.string("header", "X-Api-Key");
            if (keyHeader != null && !ConfigLoader.HEADER.matcher(keyHeader).matches()) {
                k.problem("header", keyHeader, "must be an HTTP header name, e.g. X-Api-Key");
            }
            keys = ConfigLoader.readable(k, "file", k.requiredString("file"));
        }
        AuthenticationSettings.JwtSettings jwt = a.child("jwt").isMissing() ? null : jwt(a.object("jwt"));
        String cert = null;
        if (!a.child("clientCertificate").isMissing()) {
            cert = a.choice("clientCertificate", null, s -> List.of(CLIENT_CERTIFICATE).contains(s) ? s : null, CLIENT_CERTIFICATE);
        }
        ConfigNode c = a.object("cache");
        String identity = a.string("identityHeader", null);
        if (identity != null && !ConfigLoader.HEADER.matcher(identity).matches()) {
            a.problem("identityHeader", identity, "must be an HTTP header name, e.g. X-Authenticated-Customer");
        }
        AuthenticationSettings s = new AuthenticationSettings(mode, realm, htpasswd, keyHeader, keys, jwt, cert, revocation(a),
                c.integer("entries", d.cacheEntries(), 1, 10_000_000),
                c.duration("ttl", d.cacheTtl(), Duration.ofSeconds(1), Duration.ofDays(1)),
                a.integer("workers", d.workers(), 1, 64), limit(a, "failures", d.failures()),
                limit(a, "failuresPerName", d.nameFailures()), limit(a, "successes", d.successes()),
                a.bool("forwardCredentials", false), identity, wsSecurity(a, htpasswd));
        if (!s.on()) {
            a.problemHere("names no mechanism; set one or more of basic.htpasswd, apiKey.file, jwt.jwks, clientCertificate,"
                    + " wsSecurity.usernameToken");
        }
        return s;
    }

    /** {@code name: {rate, burst}}: a generic cell rate. */
    private static AuthenticationSettings.Limit limit(ConfigNode a, String name, AuthenticationSettings.Limit d) {
        ConfigNode f = a.object(name);
        return new AuthenticationSettings.Limit(f.number("rate", d.rate(), 0.001, 1e6), f.integer("burst", d.burst(), 1, 1_000_000));
    }

    private static AuthenticationSettings.Revocation revocation(ConfigNode a) {
        if (a.child("revocation").isMissing()) {
            return AuthenticationSettings.Revocation.NONE;
        }
        ConfigNode r = a.object("revocation");
        return new AuthenticationSettings.Revocation(ConfigLoader.existingFile(r, "crl"), ConfigLoader.existingFile(r, "denyList"));
    }

    private static AuthenticationSettings.WsSecurity wsSecurity(ConfigNode a, String htpasswd) {
        AuthenticationSettings.WsSecurity d = AuthenticationSettings.WsSecurity.OFF;
        ConfigNode w = a.object("wsSecurity");
        boolean token = w.bool("usernameToken", false);
        if (token && htpasswd == null) {
            w.problem("usernameToken", true, "needs basic.htpasswd: a UsernameToken's password is checked against it");
        }
        return new AuthenticationSettings.WsSecurity(token,
                (int) w.bytes("maxHeaderBytes", d.maxHeaderBytes(), 1024, 1024 * 1024),
                w.duration("clockSkew", d.clockSkew(), Duration.ZERO, Duration.ofHours(1)));
    }

    private static AuthenticationSettings.JwtSettings jwt(ConfigNode j) {
        String jwks = j.requiredString("jwks");
        if (jwks != null && (jwks.startsWith("https://") || jwks.startsWith("http://"))) {
            URI u;
            try {
                u = URI.create(jwks);
            } catch (IllegalArgumentException e) {
                u = null;
            }
            if (u == null || u.getHost() == null) {
                j.problem("jwks", jwks, "is not a URL; write https://issuer.example/.well-known/jwks.json or a file path");
            } else if (jwks.startsWith("http://") && !loopback(u.getHost())) {
                j.problem("jwks", jwks, "is plain http to another host: anyone on the path could swap the keys; use https");
            }
        } else if (jwks != null) {
            ConfigLoader.readable(j, "jwks", jwks);
        }
        String issuer = j.requiredString("issuer");
        String audience = j.requiredString("audience");
        String claim = j.string("claim", "sub");
        return new AuthenticationSettings.JwtSettings(jwks, issuer, audience, claim,
                j.duration("clockSkew", Duration.ofSeconds(30), Duration.ZERO, Duration.ofMinutes(10)),
                j.duration("refresh", Duration.ofMinutes(10), Duration.ofSeconds(1), Duration.ofDays(1)));
    }

    /** Whether {@code host} is the loopback: the name {@code localhost}, or a literal loopback address (never a name like 127.x.example). */
    static boolean loopback(String host) {
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        java.net.InetAddress a = Cidr.literal(host);
        return a != null && a.isLoopbackAddress();
    }
}
