package io.slagate.gateway.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.slagate.config.AuthenticationSettings;
import java.security.Key;
import java.text.ParseException;
import java.util.Date;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * A JWT bearer token checked: a JWS signed by a key of the JWKS (RSA or EC; the algorithm must fit the key,
 * so an RSA public key is never taken for an HMAC secret), issued by the configured issuer for the configured
 * audience, within its validity (give or take the clock skew); its customer is the configured claim.
 */
final class JwtCheck {
    /**
     * What a token is: its customer, when it stops being valid (wall-clock milliseconds) and the key that signed it, or
     * why it is refused.
     */
    record Verdict(String customer, long notAfterMillis, boolean unknownKey, JWK key) {
        static final Verdict REFUSED = new Verdict(null, 0, false, null);
        static final Verdict UNKNOWN_KEY = new Verdict(null, 0, true, null);
    }

    private static final DefaultJWSVerifierFactory VERIFIERS = new DefaultJWSVerifierFactory();
    private final AuthenticationSettings.JwtSettings settings;
    private final LongSupplier wallMillis;

    JwtCheck(AuthenticationSettings.JwtSettings settings, LongSupplier wallMillis) {
        this.settings = settings;
        this.wallMillis = wallMillis;
    }

    Verdict check(String token, JwksKeys keys) {
        try {
            SignedJWT jwt = SignedJWT.parse(token);
            JWSHeader header = jwt.getHeader();
            JWK jwk = keys.key(header.getKeyID());
            if (jwk == null) {
                return Verdict.UNKNOWN_KEY;
            }
            if (jwk.getAlgorithm() != null && !jwk.getAlgorithm().equals(header.getAlgorithm())
                    || jwk.getKeyUse() != null && jwk.getKeyUse() != KeyUse.SIGNATURE) {
                return Verdict.REFUSED;
            }
            Key key = jwk instanceof RSAKey r ? r.toRSAPublicKey() : jwk instanceof ECKey e ? e.toECPublicKey() : null;
            if (key == null) {
                return Verdict.REFUSED;
            }
            JWSVerifier verifier = VERIFIERS.createJWSVerifier(header, key); // refuses an algorithm that does not fit the key
            if (!jwt.verify(verifier)) {
                return Verdict.REFUSED;
            }
            return claims(jwt.getJWTClaimsSet(), jwk);
        } catch (ParseException | JOSEException | IllegalStateException | ClassCastException e) {
            return Verdict.REFUSED;
        }
    }

    private Verdict claims(JWTClaimsSet c, JWK key) {
        long now = wallMillis.getAsLong();
        long skew = settings.clockSkew().toMillis();
        Date exp = c.getExpirationTime();
        Date nbf = c.getNotBeforeTime();
        List<String> aud = c.getAudience();
        if (exp == null || now > exp.getTime() + skew || nbf != null && now < nbf.getTime() - skew
                || !settings.issuer().equals(c.getIssuer()) || aud == null || !aud.contains(settings.audience())) {
            return Verdict.REFUSED;
        }
        Object customer = c.getClaim(settings.claim());
        if (!(customer instanceof String s) || s.isEmpty() || s.length() > 256) {
            return Verdict.REFUSED;
        }
        return new Verdict(s, exp.getTime() + skew, false, key);
    }
}
