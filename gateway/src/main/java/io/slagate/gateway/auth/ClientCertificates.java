package io.slagate.gateway.auth;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * The customer a TLS client certificate names: its subject's CN, or its first subject alternative name of a
 * type (DNS, e-mail, URI). The certificate was checked against the listener's trust store by the TLS
 * handshake; here it is only read.
 */
final class ClientCertificates {
    private ClientCertificates() {
    }

    /** The customer of {@code cert} by {@code from} ({@code cn}, {@code san-dns}, {@code san-email}, {@code san-uri}), or null. */
    static String customer(X509Certificate cert, String from) {
        String name = from.equals("cn") ? commonName(cert) : alternativeName(cert, switch (from) {
            case "san-email" -> 1;
            case "san-dns" -> 2;
            default -> 6;
        });
        return name == null || name.isEmpty() || name.length() > 256 ? null : name;
    }

    private static String commonName(X509Certificate cert) {
        try {
            List<Rdn> rdns = new LdapName(cert.getSubjectX500Principal().getName()).getRdns();
            for (int i = rdns.size() - 1; i >= 0; i--) { // the most specific CN
                if (rdns.get(i).getType().equalsIgnoreCase("CN")) {
                    return rdns.get(i).getValue().toString();
                }
            }
            return null;
        } catch (InvalidNameException e) {
            return null;
        }
    }

    private static String alternativeName(X509Certificate cert, int type) {
        try {
            Collection<List<?>> names = cert.getSubjectAlternativeNames();
            if (names == null) {
                return null;
            }
            for (List<?> n : names) {
                if (n.size() >= 2 && n.get(0) instanceof Integer t && t == type && n.get(1) instanceof String s) {
                    return s;
                }
            }
            return null;
        } catch (CertificateParsingException e) {
            return null;
        }
    }
}
