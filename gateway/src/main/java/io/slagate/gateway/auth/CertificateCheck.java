package io.slagate.gateway.auth;

import io.slagate.config.AuthenticationSettings;
import io.slagate.config.TlsSettings;
import io.slagate.gateway.auth.Authenticator.Result;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The customer of a TLS client certificate, read once per connection and kept in its attributes with the revocation
 * generation it was judged under: a connection whose certificate is revoked later (CRL, deny list) is refused from
 * its next request on.
 */
final class CertificateCheck {
    private static final Logger LOG = LoggerFactory.getLogger(CertificateCheck.class);
    private static final String ATTRIBUTE = CertificateCheck.class.getName();

    /** What a connection's certificate proved (an empty customer: refused), and under which revocations. */
    private record Judged(String customer, long generation) {
    }

    private final String from;
    private final CertificateRevocation revocation;

    CertificateCheck(String from, AuthenticationSettings.Revocation settings, List<X509Certificate> trusted) {
        this.from = from;
        this.revocation = settings.on() ? new CertificateRevocation(settings, trusted) : null;
    }

    /** The listener's trust store's certificates (CRLs must be signed by one), or none. */
    static List<X509Certificate> trustStore(TlsSettings tls) {
        if (tls == null || tls.trustStore() == null) {
            return List.of();
        }
        try (InputStream in = Files.newInputStream(Path.of(tls.trustStore()))) {
            KeyStore ks = KeyStore.getInstance(tls.trustStoreType());
            ks.load(in, tls.trustStorePassword() == null ? null : tls.trustStorePassword().toCharArray());
            List<X509Certificate> out = new ArrayList<>();
            for (String alias : Collections.list(ks.aliases())) {
                Certificate c = ks.getCertificate(alias);
                if (c instanceof X509Certificate x) {
                    out.add(x);
                }
            }
            return out;
        } catch (Exception e) {
            LOG.warn("the trust store {} cannot be read ({}); a CRL cannot be checked against it", tls.trustStore(), e.toString());
            return List.of();
        }
    }

    void reload() {
        if (revocation != null) {
            revocation.reload();
        }
    }

    /** The customer of the connection's client certificate, or null: none was presented. */
    Result check(Request request) {
        long generation = revocation == null ? 0 : revocation.generation();
        Object known = request.getConnectionMetaData().getAttribute(ATTRIBUTE);
        if (known instanceof Judged j && j.generation == generation) {
            return j.customer.isEmpty() ? Result.REFUSED : Result.verified(j.customer);
        }
        if (!(request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE) instanceof EndPoint.SslSessionData ssl)) {
            return null;
        }
        X509Certificate[] chain = ssl.peerCertificates();
        if (chain == null || chain.length == 0) {
            return null;
        }
        String customer = revocation != null && revocation.revoked(chain[0]) ? null : ClientCertificates.customer(chain[0], from);
        request.getConnectionMetaData().setAttribute(ATTRIBUTE, new Judged(customer == null ? "" : customer, generation));
        return customer == null ? Result.REFUSED : Result.verified(customer);
    }
}
