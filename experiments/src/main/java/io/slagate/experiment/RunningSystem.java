package io.slagate.experiment;

import io.slagate.node.EmbeddedSystem;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.Gateway;
import io.slagate.rm.ControlLoop;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A gateway for one experiment run: alone (fcfs, priority, static wrr), or with broker and resource manager. */
final class RunningSystem implements AutoCloseable {
    /** Corrected predictions out of range over every run of this process with a controller (counted as each closes). */
    private static final java.util.concurrent.atomic.AtomicLong OUT_OF_RANGE = new java.util.concurrent.atomic.AtomicLong();
    private final EmbeddedSystem embedded;
    private final Gateway gateway;

    private RunningSystem(EmbeddedSystem embedded, Gateway gateway) {
        this.embedded = embedded;
        this.gateway = gateway;
    }

    static RunningSystem start(SlagateConfig config, boolean controller) throws Exception {
        if (controller) {
            EmbeddedSystem s = EmbeddedSystem.start(config, EmbeddedSystem.Parts.CORE);
            return new RunningSystem(s, s.gateway());
        }
        return new RunningSystem(null, new Gateway(config).start());
    }

    String url() {
        return "http://127.0.0.1:" + gateway.port();
    }

    String statsUrl() {
        return "http://127.0.0.1:" + gateway.adminPort() + "/stats";
    }

    Gateway gateway() {
        return gateway;
    }

    /** The resource manager's last decision, or null without one (no controller, or no cycle yet). */
    DecisionMessage lastDecision() {
        return embedded == null || embedded.controlLoop() == null ? null : embedded.controlLoop().status().lastDecision();
    }

    /** The automatic N_s the resource manager holds for a server (−1 without one, or before its first cycle). */
    int concurrency(String server) {
        return embedded == null || embedded.controlLoop() == null ? -1 : embedded.controlLoop().status().figures().concurrencyOf(server);
    }

    /** The resource manager's capacity deficit for the pool, in servers (NaN without a controller or a cycle yet). */
    double capacityDeficitServers(String pool) {
        return embedded == null || embedded.controlLoop() == null ? Double.NaN : embedded.controlLoop().status().figures().deficitServersOf(pool);
    }

    /**
     * Reloads the configuration from {@code file}, as SIGHUP does: the gateway applies it live (servers added or gone
     * included) and publishes it, so the manager decides with it from its next cycle.
     *
     * @return the problems, or empty when it was taken
     */
    List<String> reload(Path file) {
        if (embedded == null) {
            throw new IllegalStateException("a reload goes through the embedded system: start it with the controller");
        }
        return embedded.reload(file);
    }

    /** The resource manager (null without one). */
    ControlLoop controlLoop() {
        return embedded == null ? null : embedded.controlLoop();
    }

    /** Servers the manager moved between pools (0 without a controller). */
    long poolMoves() {
        return embedded == null || embedded.controlLoop() == null ? 0 : embedded.controlLoop().status().pools().moves();
    }

    Map<String, String> serverPools() {
        return embedded == null || embedded.controlLoop() == null ? Map.of() : embedded.controlLoop().status().serverPools();
    }

    List<String> poolMoveLog() {
        return embedded == null || embedded.controlLoop() == null ? List.of() : embedded.controlLoop().status().pools().moveLog();
    }

    /** Per flow, the forecaster in use and the forecasters' recent one-cycle errors (empty without a controller). */
    Map<String, String> forecastErrors() {
        return embedded == null || embedded.controlLoop() == null ? Map.of() : embedded.controlLoop().status().figures().forecastErrors();
    }

    /** Control cycles the manager ran at once for a flash-crowd alarm (0 without a controller). */
    long flashCrowdCycles() {
        return embedded == null || embedded.controlLoop() == null ? 0 : embedded.controlLoop().status().counts().flashCrowdCycles();
    }

    /** Adds a closing manager's out-of-range predictions to the process's count (null: no manager). */
    static void counted(ControlLoop manager) {
        if (manager != null) {
            OUT_OF_RANGE.addAndGet(manager.status().counts().predictionsOutOfRange());
        }
    }

    /** The resource manager's corrected predictions that were not a positive number, over every closed run of this process. */
    static long predictionsOutOfRange() {
        return OUT_OF_RANGE.get();
    }

    @Override
    public void close() throws Exception {
        if (embedded != null) {
            counted(embedded.controlLoop());
            embedded.close();
        } else {
            gateway.stop(Duration.ofSeconds(5));
        }
    }
}
