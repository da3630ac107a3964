package io.slagate.gateway.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A certificate authority for tests, made with openssl as an operator's would be: client certificates it signs (as
 * PKCS12 key stores), their revocation, and its CRL. Keys are made at test time in a temporary folder; none is kept.
 */
public final class TestCa {
    private final Path dir;
    private final String password;

    public TestCa(Path dir, String name, String password) throws Exception {
        this.dir = dir;
        this.password = password;
        Files.createDirectories(dir.resolve("newcerts"));
        Files.writeString(dir.resolve("index.txt"), "");
        Files.writeString(dir.resolve("crlnumber"), "01\n");
        Files.writeString(dir.resolve("ca.cnf"), """
                [ ca ]
                default_ca = test
                [ test ]
                dir = %s
                database = $dir/index.txt
                new_certs_dir = $dir/newcerts
                crlnumber = $dir/crlnumber
                certificate = $dir/ca.pem
                private_key = $dir/ca.key
                default_md = sha256
                default_crl_days = 1
                policy = any
                [ any ]
                commonName = supplied
                """.formatted(dir));
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-subj", "/CN=" + name,
                "-days", "2", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
    }

    /** The CA's certificate (PEM). */
    public Path certificate() {
        return dir.resolve("ca.pem");
    }

    /** A client certificate for {@code cn}, signed by this CA: a PKCS12 key store with its key, under the CA's password. */
    public Path client(String cn) throws Exception {
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", cn + ".key", "-out", cn + ".csr", "-subj", "/CN=" + cn);
        openssl("x509", "-req", "-in", cn + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", cn + ".pem",
                "-days", "2");
        openssl("pkcs12", "-export", "-in", cn + ".pem", "-inkey", cn + ".key", "-out", cn + ".p12", "-passout", "pass:" + password,
                "-name", cn);
        return dir.resolve(cn + ".p12");
    }

    /** The PEM certificate of a client made by {@link #client}. */
    public Path clientCertificate(String cn) {
        return dir.resolve(cn + ".pem");
    }

    /** Revokes {@code cn}'s certificate and writes the CRL (PEM) to {@code crl}. */
    public void revoke(String cn, Path crl) throws Exception {
        openssl("ca", "-config", "ca.cnf", "-revoke", cn + ".pem");
        openssl("ca", "-config", "ca.cnf", "-gencrl", "-out", crl.toString());
    }

    /** The CRL with nothing revoked yet. */
    public void emptyCrl(Path crl) throws Exception {
        openssl("ca", "-config", "ca.cnf", "-gencrl", "-out", crl.toString());
    }

    private void openssl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", cmd) + ": " + out);
        }
    }
}
