package io.slagate.gateway.upstream;

import io.slagate.config.HealthSettings;
import io.slagate.config.ServerConfig;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.sched.ServerSlots;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpMethod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Passive health checking: a server that fails to connect or times out {@code failuresToEject}
 * times in a row is taken out of rotation (its slots are no longer offered), probed after a
 * backoff that doubles while probes fail, and brought back as soon as it answers anything over HTTP.
 */
final class HealthMonitor {
    private static final Logger LOG = LoggerFactory.getLogger(HealthMonitor.class);

    private final QueueManager queues;
    private final HttpClient client;
    private final ScheduledExecutorService timer;
    private final HealthSettings settings;
    private final String[] probeUrls;
    private final String[] ids;
    private final AtomicInteger[] consecutiveFailures;
    private final AtomicBoolean[] ejected;
    private final long[] backoffMillis;
    private final long probeTimeoutMillis;

    HealthMonitor(QueueManager queues, HttpClient client, ScheduledExecutorService timer, List<ServerConfig> servers,
                  HealthSettings settings, long probeTimeoutMillis) {
        this.queues = queues;
        this.client = client;
        this.timer = timer;
        this.settings = settings;
        this.probeTimeoutMillis = probeTimeoutMillis;
        int n = servers.size();
        probeUrls = new String[n];
        ids = new String[n];
        consecutiveFailures = new AtomicInteger[n];
        ejected = new AtomicBoolean[n];
        backoffMillis = new long[n];
        for (int i = 0; i < n; i++) {
            probeUrls[i] = servers.get(i).baseUrl() + servers.get(i).healthPath();
            ids[i] = servers.get(i).id();
            consecutiveFailures[i] = new AtomicInteger();
            ejected[i] = new AtomicBoolean();
        }
    }

    void answered(ServerSlots s) {
        consecutiveFailures[s.index()].set(0);
    }

    void failed(ServerSlots s) {
        int i = s.index();
        if (consecutiveFailures[i].incrementAndGet() >= settings.failuresToEject() && ejected[i].compareAndSet(false, true)) {
            synchronized (backoffMillis) {
                backoffMillis[i] = settings.backoff().toMillis();
            }
            LOG.warn("server {} taken out of rotation after {} consecutive failures; probing {} in {} ms",
                    ids[i], consecutiveFailures[i].get(), probeUrls[i], backoffMillis[i]);
            queues.setInRotation(i, false);
            schedule(i);
        }
    }

    boolean isEjected(int serverIndex) {
        return ejected[serverIndex].get();
    }

    private void schedule(int i) {
        long delay;
        synchronized (backoffMillis) {
            delay = backoffMillis[i];
        }
        try {
            timer.schedule(() -> probe(i), delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            // the gateway is stopping
        }
    }

    private void probe(int i) {
        if (!client.isRunning()) {
            return; // this request path was stopped (the gateway, or a configuration replaced at run time)
        }
        try {
            client.newRequest(probeUrls[i]).method(HttpMethod.GET).timeout(probeTimeoutMillis, TimeUnit.MILLISECONDS)
                    .send(result -> {
                        if (result.getResponse() != null && result.getResponse().getStatus() > 0) {
                            consecutiveFailures[i].set(0);
                            ejected[i].set(false);
                            LOG.info("server {} answered its probe ({}); back in rotation", ids[i], result.getResponse().getStatus());
                            queues.setInRotation(i, true);
                        } else {
                            synchronized (backoffMillis) {
                                backoffMillis[i] = Math.min(backoffMillis[i] * 2, settings.maxBackoff().toMillis());
                            }
                            LOG.info("server {} probe failed ({}); next probe in {} ms", ids[i],
                                    result.getFailure() == null ? "no answer" : result.getFailure().toString(), backoffMillis[i]);
                            schedule(i);
                        }
                    });
        } catch (RuntimeException e) {
            LOG.warn("probing server {} failed; retrying", ids[i], e);
            schedule(i);
        }
    }
}
