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
        a.allowOnly("mode", "realm", "basic", "apiKey", "jwt", "clientCertificate", "cache", "workers", "failures");
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
            b.allowOnly("htpasswd");
            htpasswd = ConfigLoader.readable(b, "htpasswd", b.requiredString("htpasswd"));
        }
        String keyHeader = null;
        String keys = null;
        if (!a.child("apiKey").isMissing()) {
            ConfigNode k = a.object("apiKey");
            k.allowOnly("header", "file");
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
        c.allowOnly("entries", "ttl");
        ConfigNode f = a.object("failures");
        f.allowOnly("rate", "burst");
        AuthenticationSettings s = new AuthenticationSettings(mode, realm, htpasswd, keyHeader, keys, jwt, cert,
                c.integer("entries", d.cacheEntries(), 1, 10_000_000),
                c.duration("ttl", d.cacheTtl(), Duration.ofSeconds(1), Duration.ofDays(1)),
                a.integer("workers", d.workers(), 1, 64),
                f.number("rate", d.failureRate(), 0.001, 1e6), f.integer("burst", d.failureBurst(), 1, 1_000_000));
        if (!s.on()) {
            a.problemHere("names no mechanism; set one or more of basic.htpasswd, apiKey.file, jwt.jwks, clientCertificate");
        }
        return s;
    }

    private static AuthenticationSettings.JwtSettings jwt(ConfigNode j) {
        j.allowOnly("jwks", "issuer", "audience", "claim", "clockSkew", "refresh");
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

    static boolean loopback(String host) {
        return host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]") || host.equals("::1");
    }
}
