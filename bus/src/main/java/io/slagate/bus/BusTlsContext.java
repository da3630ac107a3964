package io.slagate.bus;

import io.slagate.config.BusTls;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import org.apache.activemq.broker.SslContext;

/** The key and trust material of {@link BusTls}, loaded for ActiveMQ's SSL transports. */
final class BusTlsContext {
    private BusTlsContext() {
    }

    /** The broker side: its certificate and key; the trust store too when given (client certificates). */
    static SslContext brokerContext(BusTls tls) throws Exception {
        TrustManagerFactory tmf = null;
        if (tls.trustStore() != null) {
            tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(load(tls.trustStore(), tls.trustStoreType(), tls.trustStorePassword()));
        }
        return new SslContext(keyManagers(tls), tmf == null ? null : tmf.getTrustManagers(), null);
    }

    /** The certificate and key of {@code tls.keyStore}: the broker's, or a client's for a broker that requires one. */
    static KeyManager[] keyManagers(BusTls tls) throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(load(tls.keyStore(), tls.keyStoreType(), tls.keyStorePassword()), chars(tls.keyStorePassword()));
        return kmf.getKeyManagers();
    }

    static KeyStore load(String path, String type, String password) throws Exception {
        KeyStore ks = KeyStore.getInstance(type);
        try (InputStream in = Files.newInputStream(Path.of(path))) {
            ks.load(in, chars(password));
        }
        return ks;
    }

    private static char[] chars(String password) {
        return password == null ? null : password.toCharArray();
    }
}
