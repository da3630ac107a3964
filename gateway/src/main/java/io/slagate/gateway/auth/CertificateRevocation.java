package io.slagate.gateway.auth;

import io.slagate.config.AuthenticationSettings;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CRL;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client certificates withdrawn before they expire: those a CRL lists, and those a deny list names by serial number
 * or SHA-256 fingerprint. Both files are read again when their text changes; each change moves {@link #generation}
 * on, so a connection that proved itself with a certificate revoked since is refused on its next request, not at its
 * next handshake. A CRL is used only when a CA of the trust store signed it; a file that cannot be read or checked
 * keeps what was in force, and says why.
 */
final class CertificateRevocation {
    private static final Logger LOG = LoggerFactory.getLogger(CertificateRevocation.class);

    private final Path crlFile;
    private final Path denyFile;
    private final List<X509Certificate> issuers;
    private final AtomicLong generation = new AtomicLong();
    private volatile List<X509CRL> crls = List.of();
    private volatile Set<String> denied = Set.of();
    private byte[] crlDigest;
    private byte[] denyDigest;

    /** @param issuers the trust store's certificates: a CRL must be signed by one of them */
    CertificateRevocation(AuthenticationSettings.Revocation settings, List<X509Certificate> issuers) {
        this.crlFile = settings.crl() == null ? null : Path.of(settings.crl());
        this.denyFile = settings.denyList() == null ? null : Path.of(settings.denyList());
        this.issuers = List.copyOf(issuers);
        reload();
        if (crlFile != null && crlDigest == null || denyFile != null && denyDigest == null) {
            // no revocation in force at all is not a state to start in: the operator said some certificates are withdrawn
            throw new IllegalStateException("gateway.authentication.revocation: " + (crlFile != null && crlDigest == null
                    ? crlFile + " is no usable CRL" : denyFile + " cannot be read") + " (the log says why)");
        }
    }

    /** Moves on whenever what is revoked changes. */
    long generation() {
        return generation.get();
    }

    /** Reads the files whose text changed; true when what is revoked changed. */
    synchronized boolean reload() {
        boolean changed = false;
        if (crlFile != null) {
            byte[] bytes = read(crlFile);
            if (bytes != null && !Arrays.equals(CredentialKey.digest(bytes), crlDigest)) {
                List<X509CRL> parsed = crls(bytes);
                if (parsed != null) {
                    crls = parsed;
                    crlDigest = CredentialKey.digest(bytes);
                    changed = true;
                    LOG.info("{}: {} revoked certificate(s) in force", crlFile, parsed.stream()
                            .mapToInt(c -> c.getRevokedCertificates() == null ? 0 : c.getRevokedCertificates().size()).sum());
                }
            }
        }
        if (denyFile != null) {
            byte[] bytes = read(denyFile);
            if (bytes != null && !Arrays.equals(CredentialKey.digest(bytes), denyDigest)) {
                denied = denyList(new String(bytes, StandardCharsets.UTF_8));
                denyDigest = CredentialKey.digest(bytes);
                changed = true;
                LOG.info("{}: {} certificate(s) denied", denyFile, denied.size());
            }
        }
        if (changed) {
            generation.incrementAndGet();
        }
        return changed;
    }

    /** Whether {@code cert} was withdrawn: listed by a CRL of its issuer, or named in the deny list. */
    boolean revoked(X509Certificate cert) {
        for (X509CRL crl : crls) {
            if (crl.getIssuerX500Principal().equals(cert.getIssuerX500Principal()) && crl.isRevoked(cert)) {
                return true;
            }
        }
        Set<String> deny = denied;
        if (deny.isEmpty()) {
            return false;
        }
        if (deny.contains("serial:" + cert.getSerialNumber().toString(16))) {
            return true;
        }
        try {
            byte[] fingerprint = MessageDigest.getInstance("SHA-256").digest(cert.getEncoded());
            return deny.contains("sha256:" + HexFormat.of().formatHex(fingerprint));
        } catch (GeneralSecurityException e) {
            return true; // a certificate that cannot be fingerprinted is not let through a deny list
        }
    }

    private static byte[] read(Path file) {
        try {
            if (Files.size(file) > CredentialFile.MAX_BYTES) {
                throw new IOException("over " + CredentialFile.MAX_BYTES + " bytes");
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            LOG.warn("{} cannot be read ({}); the revocations held stay in force", file, e.toString());
            return null;
        }
    }

    /** The CRLs of {@code bytes} (PEM or DER), each signed by a CA of the trust store; null when any is not. */
    private List<X509CRL> crls(byte[] bytes) {
        List<X509CRL> out = new ArrayList<>();
        try {
            for (CRL c : CertificateFactory.getInstance("X.509").generateCRLs(new ByteArrayInputStream(bytes))) {
                X509CRL crl = (X509CRL) c;
                if (crl.getNextUpdate() != null && crl.getNextUpdate().getTime() < System.currentTimeMillis()) {
                    LOG.warn("{}: the CRL of {} was due for renewal at {}; it is used until a newer one is put in its place",
                            crlFile, crl.getIssuerX500Principal(), crl.getNextUpdate().toInstant());
                }
                if (!signedByIssuer(crl)) {
                    LOG.warn("{}: a CRL from {} is signed by no CA of the trust store; the revocations held stay in force",
                            crlFile, crl.getIssuerX500Principal());
                    return null;
                }
                out.add(crl);
            }
            return List.copyOf(out);
        } catch (GeneralSecurityException | ClassCastException e) {
            LOG.warn("{} is not a CRL ({}); the revocations held stay in force", crlFile, e.toString());
            return null;
        }
    }

    private boolean signedByIssuer(X509CRL crl) {
        for (X509Certificate ca : issuers) {
            if (ca.getSubjectX500Principal().equals(crl.getIssuerX500Principal())) {
                try {
                    crl.verify(ca.getPublicKey());
                    return true;
                } catch (GeneralSecurityException wrongKey) {
                    // another CA of the same name may have signed it
                }
            }
        }
        return false;
    }

    /**
     * A deny list's entries: a serial number in hex ({@code 0x1f}, {@code 1F}, with or without colons) or a SHA-256
     * fingerprint (64 hex digits, with or without colons), one a line; blank lines and {@code #} comments skipped.
     */
    static Set<String> denyList(String text) {
        Set<String> out = new HashSet<>();
        for (String line : text.split("\\R")) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String hex = t.replace(":", "").toLowerCase(Locale.ROOT);
            hex = hex.startsWith("0x") ? hex.substring(2) : hex;
            if (!hex.matches("[0-9a-f]{1,128}")) {
                LOG.warn("deny list line '{}' is neither a serial number nor a SHA-256 fingerprint in hex; left out",
                        t.length() > 80 ? t.substring(0, 80) : t);
            } else if (hex.length() == 64) {
                out.add("sha256:" + hex);
            } else {
                out.add("serial:" + new BigInteger(hex, 16).toString(16));
            }
        }
        return Set.copyOf(out);
    }
}
