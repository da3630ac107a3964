package io.slagate;

import io.slagate.node.EmbeddedSystem;
import io.slagate.bus.EmbeddedBroker;
import io.slagate.config.BusSettings;
import io.slagate.config.ConfigCheck;
import io.slagate.config.ConfigException;
import io.slagate.config.ConfigLoader;
import io.slagate.config.ServerConfig;
import io.slagate.config.SlagateConfig;
import io.slagate.console.ConsoleServer;
import io.slagate.console.PasswordHasher;
import io.slagate.console.Role;
import io.slagate.console.UserStore;
import io.slagate.load.LoadCommand;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.Summary;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.JmsEndpoint;
import io.slagate.load.service.ServiceTime;
import io.slagate.load.service.WorkingSetModel;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The launcher's entry point ({@code bin/slagate COMMAND [options]}). A bad configuration ends the
 * process with the loader's message (every problem, each naming its key) and exit code 2, never a
 * stack trace; a process that cannot start exits with 3, and one whose bus credentials the broker
 * refuses with 4 ("bus authentication refused").
 */
public final class Main {
    private static final String USAGE = """
            usage: slagate COMMAND [--config FILE]

            commands:
              start             the embedded system in one JVM: ActiveMQ broker, resource manager, gateway,
                                admin console (http://127.0.0.1:8082/)
              gateway           one gateway node, on the broker at bus.url
              resource-manager  the global resource manager, on the broker at bus.url
              console           the admin console, on the broker at bus.url
              broker            a standalone ActiveMQ broker for several nodes, on bus.listen (bus.user and
                                bus.passwordEnv for authentication); reads only bus:
              check-config      loads and checks the configuration as a start would (every key, the files and
                                environment variables it names, its key stores), prints the effective
                                configuration with defaults filled in and secrets masked; exit 0, or 2 with
                                every problem
              slo-rules         Prometheus recording and alerting rules for every class's objective
                                (multi-window, multi-burn-rate), on standard output (docs/SLA.md);
                                --openslo: the objectives as OpenSLO v1 documents instead
              console-password [USER]
                                a lost console password: a new random one for USER (default admin), printed
                                once; restart a running console afterwards
              stop              stops what start (or gateway, resource-manager, console) runs from this
                                configuration, and waits until it has ended
              sla-report        attainment per customer and class from the SLA store against each contract's
                                objective (slagate sla-report --help)
              demo              the embedded system, two synthetic backends on the configured servers' ports and
                                a load that changes mix every 2 minutes: watch the console differentiate
              backend           synthetic StockUtility SOAP servers (Axis2): --port N (repeat) [--mean 1s]
                                [--cpu 0.1] [--host 127.0.0.1]; defaults: ports 9001 and 9002, mean 20ms;
                                [--jms tcp://broker:61616 [--jms-consumers 10]]: the first one also serves
                                SOAP over JMS on queue StockUtility (broker credentials from
                                SLAGATE_BROKER_USER / SLAGATE_BROKER_PASSWORD); [--store-cache 1000]: each
                                also serves the Bookstore (TPC-W's interactions over 4000 items,
                                its own LRU cache of that many items)
              load              SOAP load through the gateway (slagate load --help)
              experiment NAME   the paper's experiments A, B or C, or sla (a noisy customer, late work
                                under overload), or slowdown (a server 3x slower, with the
                                gateway's local limit and without), or ahead (a ramp with the
                                load forecast and without), or locality (round-robin,
                                least-loaded, LARD and locality dispatch on a TPC-W-like store with
                                per-server caches), or tuning (online tuning of backend and
                                slagate knobs with a safe/experimental split), or capacity (the
                                capacity signal acted on as an autoscaler would), or quota (a customer's
                                quota held across three gateways), or scale (the control plane with up to
                                500 gateways on a network of two brokers, one of them lost), or budget
                                (one contract 80% spent at half time: the shipped controller and
                                errorBudget: true, one run each; --point N clients per customer, 15)
                                [--short] [--scale 0.05] [--resolution 1]
                                [--out docs/experiments]; C --point L_P,L_B --sweep: one point against the
                                best static weights (an empirical oracle), ending with "capture MODEL VALUE";
                                [--percentile 95]: with p95 goals, also "attainment RUN premium P basic B";
                                C --sweep: the grid, then each saturated point against the oracle;
                                A --auto [--steady]: the knee, then concurrency: auto from 1 and 200 on two
                                backends; --steady: 11 minutes of constant load, N_s's variation;
                                B --sweep: each phase beside its best static weights, and settling times;
                                B --paired [--pairs 8]: the controller against the twin's best static split
                                and phase oracle, seed by seed in alternating order, ending "B paired pairs N
                                gap-to-best-static mean M ci95 LO..HI gap-to-phase-oracle ...";
                                A --auto: then concurrency: auto from N_s = 1 and 200, ending "knee K auto N";
                                tuning --workloads: each workload's best worker pool by brute force, then the
                                tuner following a change of workload (Active Harmony's finding);
                                tuning --two-tier: both tiers' defaults (200 workers, N_s 32) against what the
                                tuner finds from them, under a load where the defaults cost
                                tuning --controller: the controller's own knobs (resolution, damping, model)
                                tuned without a safe side, then start and tuned settings alternately
              simulate          the controller in the twin: the manager's and the gateway's own code against
                                simulated clients and servers in virtual time, every policy on the same
                                seeds (slagate simulate --help)
              help              this text

            options:
              --config FILE   configuration file (default: $SLAGATE_CONFIG, else config/slagate.yaml
                              in the current directory, else the one shipped with slagate)
            """;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || List.of("help", "--help", "-h").contains(args[0])) {
            out.print(USAGE);
            return args.length == 0 ? 1 : 0;
        }
        String command = args[0];
        List<String> rest = new ArrayList<>(List.of(args).subList(1, args.length));
        if (rest.contains("--help") || rest.contains("-h")) {
            out.print(switch (command) {
                case "load" -> LoadCommand.USAGE;
                case "simulate" -> SimulateCommand.USAGE;
                case "sla-report" -> SlaReportCommand.USAGE;
                default -> USAGE;
            });
            return 0;
        }
        Integer tool = runTool(command, rest, out, err);
        return tool != null ? tool : runNode(command, rest, out, err);
    }

    /** The commands that need no configuration file (backend, load, experiment): their exit code, or null for another command. */
    private static Integer runTool(String command, List<String> rest, PrintStream out, PrintStream err) {
        try {
            return switch (command) {
                case "backend" -> runBackend(rest, out, err);
                case "load" -> runLoad(rest, out, err);
                case "experiment" -> ExperimentCommand.run(rest, out, err);
                case "simulate" -> SimulateCommand.run(rest, out, err);
                case "sla-report" -> SlaReportCommand.run(ConfigLoader.load(configPath(rest)), rest, out, err);
                case "stop" -> {
                    Path config = configPath(rest);
                    if (!rest.isEmpty()) {
                        throw new IllegalArgumentException("unknown option " + rest.get(0));
                    }
                    yield PidFiles.stop(config, out, err);
                }
                case "slo-rules" -> {
                    boolean openSlo = rest.remove("--openslo");
                    SlagateConfig c = ConfigLoader.load(configPath(rest));
                    out.print(openSlo ? OpenSlo.of(c) : SloRules.of(c));
                    if (!rest.isEmpty()) {
                        throw new IllegalArgumentException("unknown option " + rest.get(0));
                    }
                    yield 0;
                }
                default -> null;
            };
        } catch (IllegalArgumentException e) {
            err.println("slagate " + command + ": " + e.getMessage());
            return 1;
        } catch (ConfigException e) {
            err.println("slagate " + command + ": configuration refused: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            err.println("slagate " + command + ": failed: " + e);
            return 3;
        }
    }

    /** The commands that run a node (or the broker, or print the console's password) from a configuration file. */
    private static int runNode(String command, List<String> rest, PrintStream out, PrintStream err) {
        Path configPath;
        try {
            configPath = configPath(rest);
        } catch (IllegalArgumentException e) {
            err.println("slagate: " + e.getMessage());
            return 1;
        }
        String user = "admin";
        if (command.equals("console-password") && !rest.isEmpty() && !rest.get(0).startsWith("-")) {
            user = rest.remove(0);
        }
        if (!rest.isEmpty()) {
            err.println("slagate: unknown option " + rest.get(0) + "\n" + USAGE);
            return 1;
        }
        if (command.equals("broker")) { // the broker reads only bus: (a broker-only file has no servers or classes)
            try {
                return runBroker(ConfigLoader.loadBus(configPath), out, err);
            } catch (ConfigException e) {
                err.println("slagate: configuration refused: " + e.getMessage());
                return 2;
            }
        }
        SlagateConfig config;
        try {
            config = ConfigCheck.check(configPath);
        } catch (ConfigException e) {
            err.println("slagate: configuration refused: " + e.getMessage());
            return 2;
        }
        return switch (command) {
            case "start" -> runUntilStopped(config, configPath, EmbeddedSystem.Parts.ALL, "start", err);
            case "gateway" -> runUntilStopped(config, configPath, EmbeddedSystem.Parts.GATEWAY, "gateway", err);
            case "resource-manager" -> runUntilStopped(config, configPath, EmbeddedSystem.Parts.RESOURCE_MANAGER, "resource-manager", err);
            case "console" -> runUntilStopped(config, configPath, EmbeddedSystem.Parts.CONSOLE, "console", err);
            case "demo" -> runDemo(config, out, err);
            case "console-password" -> consolePassword(config, user, out, err);
            case "check-config" -> {
                StringBuilder notes = new StringBuilder();
                ConfigCheck.notes(config).forEach(n -> notes.append("# note: ").append(n).append('\n'));
                out.print("# " + configPath + ": the configuration loads; as it runs, defaults filled in, secrets masked\n"
                        + notes + ConfigCheck.effective(config));
                yield 0;
            }
            default -> {
                err.println("slagate: unknown command " + command + "\n" + USAGE);
                yield 1;
            }
        };
    }

    private static Path configPath(List<String> rest) {
        int i = rest.indexOf("--config");
        if (i >= 0) {
            if (i + 1 >= rest.size()) {
                throw new IllegalArgumentException("--config needs a file");
            }
            Path p = Path.of(rest.get(i + 1));
            rest.remove(i + 1);
            rest.remove(i);
            return p;
        }
        String env = System.getenv("SLAGATE_CONFIG");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        Path local = Path.of("config", "slagate.yaml");
        if (Files.exists(local)) {
            return local;
        }
        String home = System.getProperty("slagate.home");
        return home == null ? local : Path.of(home, "config", "slagate.yaml");
    }

    /** A lost console password: a new random one for {@code user} (an admin, created if missing), printed once. */
    private static int consolePassword(SlagateConfig config, String user, PrintStream out, PrintStream err) {
        Path file = ConsoleServer.usersFile(config);
        try {
            UserStore users = UserStore.open(file);
            String password = PasswordHasher.randomPassword();
            if (users.exists(user)) {
                users.update(user, null, password.toCharArray());
            } else {
                users.put(user, Role.ADMIN, password.toCharArray());
            }
            out.println("slagate console: user \"" + user + "\" has the new password " + password
                    + " (shown this once; only its hash is stored in " + file + "); restart a running console to use it");
            return 0;
        } catch (IOException | IllegalArgumentException e) {
            err.println("slagate console-password: " + e.getMessage());
            return 3;
        }
    }

    private static int runUntilStopped(SlagateConfig config, Path configPath, EmbeddedSystem.Parts parts, String role,
                                       PrintStream err) {
        PidFiles.write(configPath, role, err); // before the start: `slagate stop` finds a process still starting
        EmbeddedSystem system;
        try {
            system = EmbeddedSystem.start(config, parts);
        } catch (Exception e) {
            err.println("slagate: could not start: " + e.getMessage());
            return 3;
        }
        try {
            // kill -HUP PID reloads the configuration file; a bad one is refused and the running one stays
            sun.misc.Signal.handle(new sun.misc.Signal("HUP"), sig -> system.reload(configPath));
        } catch (IllegalArgumentException e) {
            err.println("slagate: no SIGHUP on this platform; reload through the console");
        }
        // refused bus credentials end the process: running on without the control plane (a gateway on its static
        // caps beside the other gateways' shares) would overcommit the servers, and a wrong password does not heal
        AtomicReference<String> refused = new AtomicReference<>();
        CountDownLatch stop = new CountDownLatch(1);
        system.onBusRefused(reason -> {
            refused.compareAndSet(null, reason);
            stop.countDown();
        });
        awaitShutdown(system::close, stop);
        if (refused.get() != null) {
            err.println("slagate: " + refused.get() + "; exiting");
            system.close();
            return 4;
        }
        return 0;
    }

    private static int runBroker(BusSettings bus, PrintStream out, PrintStream err) {
        String listen = bus.listen().isEmpty() ? "tcp://127.0.0.1:61616" : bus.listen();
        if (bus.user() == null && bus.accounts().isEmpty()) {
            err.println("slagate broker: refusing to listen on " + listen + " without authentication; set bus.user with "
                    + "bus.passwordEnv, or bus.accounts with roles");
            return 2;
        }
        EmbeddedBroker broker;
        try {
            broker = EmbeddedBroker.start("slagate", listen, bus.user(), bus.password(),
                    bus.accounts(), bus.tls(), bus.network());
        } catch (Exception e) {
            err.println("slagate broker: could not start on " + listen + ": " + e.getMessage());
            return 3;
        }
        out.println("slagate broker: listening on " + broker.tcpUrl() + (bus.user() == null && bus.accounts().isEmpty()
                ? " (no authentication)" : " (" + bus.accounts().size() + " accounts with roles"
                + (bus.user() == null ? "" : ", admin " + bus.user()) + ")")
                + (bus.network().isEmpty() ? "" : "; in a network with " + String.join(", ", bus.network())));
        awaitShutdown(() -> {
            try {
                broker.close();
            } catch (Exception e) {
                err.println("slagate broker: stopping: " + e.getMessage());
            }
        }, new CountDownLatch(1));
        return 0;
    }

    /**
     * The embedded system plus synthetic backends on the ports of the configured servers (1 s mean
     * service, mostly asleep, as in the paper) and closed-loop Premium and Basic clients whose mix
     * changes every two minutes: light, heavy, Basic-heavy, Premium-heavy, again and again.
     */
    private static int runDemo(SlagateConfig config, PrintStream out, PrintStream err) {
        List<Integer> ports = new ArrayList<>();
        for (ServerConfig s : config.servers()) {
            URI u = s.url();
            if (!"127.0.0.1".equals(u.getHost()) && !"localhost".equals(u.getHost())) {
                err.println("slagate demo: server " + s.id() + " is at " + s.url() + "; the demo starts its backends on this"
                        + " machine, so use a configuration whose servers are on 127.0.0.1");
                return 1;
            }
            ports.add(u.getPort());
        }
        try {
            BackendServer backend = BackendServer.start("127.0.0.1", ports,
                    ServiceTime.paper(1.0, 0.02));
            EmbeddedSystem system = EmbeddedSystem.start(config, EmbeddedSystem.Parts.ALL);
            List<LoadSpec.Phase> phases = new ArrayList<>();
            int n = config.servers().stream().mapToInt(ServerConfig::concurrency).sum();
            double[][] mixes = {{n / 2.0, n / 2.0}, {2.0 * n, 2.0 * n}, {n / 2.0, 2.0 * n}, {2.0 * n, n / 2.0}};
            for (int r = 0; r < 60; r++) {
                for (double[] m : mixes) {
                    phases.add(new LoadSpec.Phase(Duration.ofMinutes(2), List.of(m[0], m[1])));
                }
            }
            String premium = config.classes().get(0).name();
            String basic = config.classes().get(config.classes().size() - 1).name();
            LoadSpec spec = new LoadSpec("http://127.0.0.1:" + system.gateway().port(),
                    "/services/StockUtility", null,
                    List.of(new LoadSpec.ClassSpec(premium, "getQuote", "gold-customer", false, null),
                            new LoadSpec.ClassSpec(basic, "getQuote", "silver-customer", false, null)),
                    phases, false, Duration.ofSeconds(1), Duration.ZERO, 1, Duration.ofMinutes(2), null);
            out.println("slagate demo: gateway http://127.0.0.1:" + system.gateway().port() + ", console http://"
                    + config.console().listen().host() + ":" + system.console().port() + "/ — clients of " + premium
                    + " (customer gold-customer) and " + basic + " change mix every 2 minutes; Ctrl-C stops");
            Thread load = new Thread(() -> {
                try {
                    new LoadGenerator(spec, null).run();
                } catch (Exception e) {
                    err.println("slagate demo: the load stopped: " + e);
                }
            }, "demo-load");
            load.setDaemon(true);
            load.start();
            awaitShutdown(() -> {
                system.close();
                try {
                    backend.close();
                } catch (Exception e) {
                    err.println("slagate demo: stopping the backends: " + e.getMessage());
                }
            }, new CountDownLatch(1));
            return 0;
        } catch (Exception e) {
            err.println("slagate demo: could not start: " + e.getMessage());
            return 3;
        }
    }

    private static int runBackend(List<String> args, PrintStream out, PrintStream err) throws Exception {
        List<Integer> ports = new ArrayList<>();
        String host = "127.0.0.1";
        Duration mean = Duration.ofMillis(20);
        double cpu = 0.1;
        String jms = null;
        int consumers = 10;
        int storeCache = -1;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            String v = args.get(++i);
            switch (a) {
                case "--port" -> ports.add(Integer.parseInt(v));
                case "--host" -> host = v;
                case "--mean" -> mean = LoadCommand.duration(a, v);
                case "--cpu" -> cpu = Double.parseDouble(v);
                case "--jms" -> jms = v;
                case "--jms-consumers" -> consumers = Integer.parseInt(v);
                case "--store-cache" -> storeCache = Integer.parseInt(v);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (ports.isEmpty()) {
            ports = List.of(9001, 9002);
        }
        ServiceTime t = ServiceTime.of(mean, cpu);
        JmsEndpoint endpoint = jms == null ? null
                : new JmsEndpoint(jms, consumers, System.getenv("SLAGATE_BROKER_USER"),
                        System.getenv("SLAGATE_BROKER_PASSWORD"));
        if (storeCache < -1) {
            throw new IllegalArgumentException("--store-cache takes a number of items, 0 or more");
        }
        BackendServer backend = BackendServer.start(host, ports, t, endpoint,
                storeCache < 0 ? null : WorkingSetModel.store(storeCache));
        out.println("slagate backend: StockUtility at " + backend.urls() + " (WSDL: /services/StockUtility?wsdl)"
                + (storeCache < 0 ? "" : " and Bookstore (/services/Bookstore, 4000 items, a cache of " + storeCache + " per server)")
                + (jms == null ? "" : " and on JMS queue StockUtility at " + jms + " (" + consumers + " consumers)"));
        awaitShutdown(() -> {
            try {
                backend.close();
            } catch (Exception e) {
                err.println("slagate backend: stopping: " + e.getMessage());
            }
        }, new CountDownLatch(1));
        return 0;
    }

    private static int runLoad(List<String> args, PrintStream out, PrintStream err) throws Exception {
        LoadSpec spec = LoadCommand.parse(args);
        Summary s = new LoadGenerator(spec, err).run();
        out.println(new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(s));
        out.println("results in " + spec.out());
        return s.lost() == 0 ? 0 : 4;
    }

    /** Returns when the process is told to stop (its shutdown hook has run {@code onStop}) or {@code stopped} is counted down. */
    private static void awaitShutdown(Runnable onStop, CountDownLatch stopped) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            onStop.run();
            stopped.countDown();
        }, "slagate-shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
