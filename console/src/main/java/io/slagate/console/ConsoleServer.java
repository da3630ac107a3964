package io.slagate.console;

import io.slagate.bus.ControlBus;
import io.slagate.bus.GatewayRoster;
import io.slagate.bus.message.Topics;
import io.slagate.config.SlagateConfig;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.function.LongSupplier;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin console as a component: its own Jetty server (loopback by default), the users file
 * beside the configuration, an audit file next to it, and the live state fed from the bus.
 */
public final class ConsoleServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleServer.class);

    private final Server server;
    private final ServerConnector connector;
    private final UserStore users;
    private final LiveState state;

    private ConsoleServer(Server server, ServerConnector connector, UserStore users, LiveState state) {
        this.server = server;
        this.connector = connector;
        this.users = users;
        this.state = state;
    }

    /**
     * Starts the console; on the first start (no users file) prints the generated admin password
     * once on {@code out} — it is stored only as a hash and never logged.
     */
    /** Where the console keeps its users (beside the configuration file, by {@code console.usersFile}). */
    public static Path usersFile(SlagateConfig config) {
        return config.baseDir().resolve(config.console().usersFile());
    }

    public static ConsoleServer start(SlagateConfig config, ControlBus bus, PrintStream out) throws Exception {
        return start(config, bus, out, System::nanoTime);
    }

    /** As above, the login throttle on {@code throttleClock} (a test's, so that its waits do not depend on the machine's speed). */
    static ConsoleServer start(SlagateConfig config, ControlBus bus, PrintStream out, LongSupplier throttleClock)
            throws Exception {
        Path usersFile = usersFile(config);
        UserStore users = UserStore.open(usersFile);
        if (users.generatedPassword() != null) {
            out.println("slagate console: created user \"admin\" with password " + users.generatedPassword()
                    + " (shown this once; only its hash is stored in " + usersFile + ")");
        }
        LiveState state = new LiveState(50_000, config.gateway().stats().reportingInterval()
                .multipliedBy(config.controller().gatewayExpiry()),
                new GatewayRoster(config.controller().maxGateways(), config.bus().gatewayAccounts(), config.bus().user()),
                System::nanoTime);
        state.attach(bus);
        long timeout = config.console().sessionTimeout().toNanos();
        Path source = Path.of(config.source());
        ConfigEditor editor = new ConfigEditor(source.toFile().isFile() ? source : null, config);
        AuditLog audit = new AuditLog(usersFile.resolveSibling("console-audit.log"));
        bus.subscribe(Topics.DECISION, new TuningWriteBack(editor, audit));
        ConsoleHandler handler = new ConsoleHandler(editor, users, new Sessions(timeout, System::nanoTime),
                new LoginThrottle(throttleClock), audit, state, bus);
        QueuedThreadPool threads = new QueuedThreadPool(32, 2);
        threads.setName("console");
        Server server = new Server(threads);
        ServerConnector c = new ServerConnector(server);
        c.setHost(config.console().listen().host());
        c.setPort(config.console().listen().port());
        server.addConnector(c);
        server.setHandler(handler);
        server.start();
        LOG.info("console on http://{}:{}/ (users in {})", config.console().listen().host(), c.getLocalPort(), usersFile);
        return new ConsoleServer(server, c, users, state);
    }

    public int port() {
        return connector.getLocalPort();
    }

    public UserStore users() {
        return users;
    }

    /** What the console shows of the running system. */
    public LiveState state() {
        return state;
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }

    /** For tools: add or replace a user. */
    public void putUser(String name, Role role, char[] password) throws IOException {
        users.put(name, role, password);
    }
}
