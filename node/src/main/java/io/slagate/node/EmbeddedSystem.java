package io.slagate.node;

import io.slagate.bus.ControlBus;
import io.slagate.bus.EmbeddedBroker;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.ConfigMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.BusSettings;
import io.slagate.config.ConfigCheck;
import io.slagate.config.ConfigException;
import io.slagate.config.SlagateConfig;
import io.slagate.console.ConsoleServer;
import io.slagate.sla.SlaWriter;
import io.slagate.rm.BudgetSource;
import io.slagate.gateway.Gateway;
import io.slagate.gateway.agent.GatewayAgent;
import io.slagate.rm.ControlLoop;
import io.slagate.rm.Overrides;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The components one process runs, started in dependency order and stopped in the reverse one:
 * the embedded broker, the resource manager, the gateway, each connected to the control bus. The
 * launcher's {@code start} runs all of them; {@code gateway} and {@code resource-manager} run one
 * against an external broker.
 */
public final class EmbeddedSystem implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedSystem.class);

    private final Deque<AutoCloseable> stopOrder = new ArrayDeque<>();
    private EmbeddedBroker broker;
    private Gateway gateway;
    private GatewayAgent agent;
    private ControlLoop controlLoop;
    private ControlBus gatewayBus;
    private ConsoleServer console;
    private SlaWriter slaWriter;
    /** A bus client any process with a control plane has, for publishing a reloaded configuration. */
    private ControlBus reloadBus;
    private final List<ControlBus> buses = new CopyOnWriteArrayList<>();

    /** Which components to run. */
    public record Parts(boolean broker, boolean resourceManager, boolean gateway, boolean console) {
        public static final Parts ALL = new Parts(true, true, true, true);
        /** The embedded system without the console (experiments, tests). */
        public static final Parts CORE = new Parts(true, true, true, false);
        public static final Parts GATEWAY = new Parts(false, false, true, false);
        public static final Parts RESOURCE_MANAGER = new Parts(false, true, false, false);
        public static final Parts CONSOLE = new Parts(false, false, false, true);
    }

    public static EmbeddedSystem start(SlagateConfig config, Parts parts) throws Exception {
        EmbeddedSystem s = new EmbeddedSystem();
        try {
            s.startParts(config, parts);
        } catch (Exception e) {
            s.close();
            throw e;
        }
        return s;
    }

    private void startParts(SlagateConfig config, Parts parts) throws Exception {
        if (parts.broker() && config.bus().embedded() && config.bus().user() == null && !config.bus().accounts().isEmpty()) {
            config = config.withBus(config.bus().withCredentials(IN_PROCESS_USER, inProcessPassword()));
        }
        String url = startBroker(config.bus(), parts);
        if (parts.resourceManager()) {
            startResourceManager(config, url, parts.gateway());
        }
        if (parts.gateway()) {
            startGateway(config, url);
        }
        if (parts.console()) {
            ControlBus consoleBus = busClient(url, config.bus(), "console-" + config.gateway().id());
            stopOrder.push(consoleBus);
            reloadBus = consoleBus;
            console = ConsoleServer.start(config, consoleBus, System.out);
            stopOrder.push(console);
            consoleBus.start();
        }
    }

    /** The broker of this process, if it runs one: the URL its parts reach the bus at (null: none to reach, a gateway alone). */
    private String startBroker(BusSettings bus, Parts parts) throws Exception {
        String url = bus.url();
        if (parts.broker() && bus.embedded()) {
            broker = EmbeddedBroker.start(brokerName(url), bus.listen(), bus.user(), bus.password(), bus.accounts(), bus.tls(),
                    bus.network());
            stopOrder.push(broker);
            return broker.vmUrl(); // in-VM: no sockets between components of one process
        }
        if (url.startsWith("vm:")) {
            if (parts.resourceManager() || parts.console()) {
                throw new IllegalStateException("bus.url " + url + " is an in-VM broker, which only `start` runs; point bus.url"
                        + " at the broker of another process, e.g. tcp://127.0.0.1:61616");
            }
            // a gateway alone with the in-VM default: no broker to reach, so it runs standalone
            LOG.warn("bus.url is {} (in-VM) and this process runs no broker: the gateway runs standalone with the static"
                    + " allocation; set bus.url to a broker (e.g. tcp://127.0.0.1:61616) to join a control plane", url);
            return null;
        }
        return url;
    }

    private void startResourceManager(SlagateConfig config, String url, boolean withGateway) {
        // unique per process: several managers (active and standbys) may share one configuration
        String host = System.getenv().getOrDefault("HOSTNAME", "local");
        String id = "rm-" + host + "-" + ProcessHandle.current().pid();
        ControlBus rmBus = busClient(url, config.bus(), id);
        stopOrder.push(rmBus);
        reloadBus = rmBus;
        MeterRegistry registry = withGateway
                ? null : new SimpleMeterRegistry();
        if (withGateway) {
            gateway = new Gateway(config); // the manager's metrics go to the gateway's /metrics
            registry = gateway.registry();
        }
        controlLoop = new ControlLoop(id, config, rmBus, new Overrides(), registry);
        if (broker != null && config.bus().listen().isEmpty()) {
            controlLoop.soleManager(); // an in-VM broker with no listener: no other manager can be on it
        }
        stopOrder.push(controlLoop);
        // the SLA counts are written where a manager runs; the store's lease keeps it to one writer among them
        SlaWriter sla = SlaWriter.start(id + "@" + host, config, rmBus);
        slaWriter = sla;
        stopOrder.push(sla);
        ControlLoop loop = controlLoop;
        sla.configuration(() -> { // a reload's objectives and controller.errorBudget, as the manager applied them
            var status = loop.status();
            return status == null ? config : status.config();
        });
        controlLoop.budgetSource(name -> { // controller.errorBudget: what the store last said of each class's budget
            double[] b = sla.budget(name);
            return b == null ? null : new BudgetSource.State(b[0], b[1]);
        });
        rmBus.start();
        controlLoop.start();
    }

    /** The gateway, with its agent on the bus unless there is no bus to reach (then standalone, on the static allocation). */
    private void startGateway(SlagateConfig config, String url) throws Exception {
        if (gateway == null) {
            gateway = new Gateway(config);
        }
        if (url == null) {
            gateway.start();
            stopOrder.push(() -> gateway.stop(Duration.ofSeconds(10)));
            return;
        }
        gatewayBus = busClient(url, config.bus(), config.gateway().id());
        stopOrder.push(gatewayBus);
        agent = new GatewayAgent(gateway, gatewayBus);
        gateway.start();
        stopOrder.push(() -> gateway.stop(Duration.ofSeconds(10)));
        stopOrder.push(agent); // first to stop: the leave goes out while the gateway drains
        gatewayBus.start();
    }

    /**
     * Reloads the configuration file (SIGHUP): a file that does not load is refused with its
     * problems and the running configuration stays; one that loads is applied by this process's
     * gateway (classification, live) and published on the bus, so that every resource manager and
     * gateway applies it too. Requests in flight are not touched.
     *
     * @return the problems, or an empty list when the new configuration was taken
     */
    public List<String> reload(Path file) {
        SlagateConfig next;
        try {
            next = ConfigCheck.check(file);
        } catch (ConfigException e) {
            LOG.error("configuration reload refused; the running configuration stays: {}", e.getMessage());
            return e.problems();
        }
        String yaml;
        try {
            yaml = Files.readString(file);
        } catch (IOException e) {
            LOG.error("configuration reload: cannot read {}: {}", file, e.getMessage());
            return List.of(e.getMessage());
        }
        if (gateway != null && !gateway.reconfigure(next)) {
            LOG.warn("the reloaded configuration changes gateway settings (listeners, TLS, timeouts, statistics);"
                    + " this gateway applies those on its next restart, the rest now");
        }
        ControlBus bus = gatewayBus != null ? gatewayBus : reloadBus;
        if (bus != null) {
            bus.publish(Topics.CONFIG, new ConfigMessage(
                    BusMessage.SCHEMA, System.currentTimeMillis(), yaml, "reload:" + file,
                    System.currentTimeMillis()));
        }
        LOG.info("configuration reloaded from {}", file);
        return List.of();
    }

    public ConsoleServer console() {
        return console;
    }

    /** The SLA counts' writer of this process's manager, or null when it runs none. */
    public SlaWriter slaWriter() {
        return slaWriter;
    }

    /**
     * The account of this process's own parts when its broker has role accounts and no
     * {@code bus.user}: an admin account whose password is drawn at start and never leaves the process.
     */
    static final String IN_PROCESS_USER = "slagate-in-process";

    private static String inProcessPassword() {
        byte[] b = new byte[24];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** A component's own connection to the bus at {@code url}, with this process's credentials. */
    private ControlBus busClient(String url, BusSettings bus, String name) {
        ControlBus b = new ControlBus(url, bus.user(), bus.password(), bus.tls(), name);
        buses.add(b);
        return b;
    }

    /** Runs {@code callback} (on a bus thread) when the broker refuses the credentials of any of this process's bus clients. */
    public void onBusRefused(Consumer<String> callback) {
        for (ControlBus b : buses) {
            b.onRefused(callback);
        }
    }

    private static String brokerName(String url) {
        if (url.startsWith("vm://")) {
            String rest = url.substring("vm://".length());
            int q = rest.indexOf('?');
            return q < 0 ? rest : rest.substring(0, q);
        }
        return "slagate";
    }

    public Gateway gateway() {
        return gateway;
    }

    public GatewayAgent agent() {
        return agent;
    }

    public ControlLoop controlLoop() {
        return controlLoop;
    }

    public EmbeddedBroker broker() {
        return broker;
    }

    public ControlBus gatewayBus() {
        return gatewayBus;
    }

    @Override
    public synchronized void close() {
        while (!stopOrder.isEmpty()) {
            AutoCloseable c = stopOrder.pop();
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("stopping {}: {}", c.getClass().getSimpleName(), e.toString());
            }
        }
    }
}
