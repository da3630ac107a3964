package io.slagate.gateway.listener.connector;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS listener's key store and trust store, read again when their contents change: a renewed certificate, or a
 * CA added to or removed from the trust store, holds for every handshake from then on, without a restart. Checked
 * every second by digest; a store that cannot be read or loaded keeps the context in force, and says why.
 */
final class TlsStoreWatch extends AbstractLifeCycle {
    private static final Logger LOG = LoggerFactory.getLogger(TlsStoreWatch.class);

    private final SslContextFactory.Server ssl;
    private final Path[] stores;
    private final byte[][] digests;
    private ScheduledExecutorService timer;

    TlsStoreWatch(SslContextFactory.Server ssl, String keyStore, String trustStore) {
        this.ssl = ssl;
        this.stores = trustStore == null ? new Path[] {Path.of(keyStore)} : new Path[] {Path.of(keyStore), Path.of(trustStore)};
        this.digests = new byte[stores.length][];
        for (int i = 0; i < stores.length; i++) {
            digests[i] = digest(stores[i]);
        }
    }

    @Override
    protected void doStart() {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "slagate-tls-store-watch");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::check, 1, 1, TimeUnit.SECONDS);
    }

    @Override
    protected void doStop() {
        timer.shutdownNow();
    }

    /** Reloads the context when a store's contents changed; true when it did. */
    boolean check() {
        boolean changed = false;
        for (int i = 0; i < stores.length; i++) {
            byte[] d = digest(stores[i]);
            if (d != null && !Arrays.equals(d, digests[i])) {
                digests[i] = d;
                changed = true;
            }
        }
        if (!changed) {
            return false;
        }
        try {
            ssl.reload(f -> { });
            LOG.info("TLS stores read again ({}): new handshakes use them", Arrays.toString(stores));
            return true;
        } catch (Exception e) {
            LOG.warn("TLS stores changed but could not be loaded ({}); the ones in force stay", e.toString());
            return false;
        }
    }

    private static byte[] digest(Path p) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p));
        } catch (IOException | NoSuchAlgorithmException e) {
            LOG.warn("{} cannot be read ({}); the TLS context in force stays", p, e.toString());
            return null;
        }
    }
}
