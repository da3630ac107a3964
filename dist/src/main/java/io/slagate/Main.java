package io.slagate;

import io.slagate.config.ConfigException;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The launcher's entry point ({@code bin/slagate COMMAND [options]}). A bad configuration ends the
 * process with the loader's message (every problem, each naming its key) and exit code 2, never a
 * stack trace.
 */
public final class Main {
    private static final String USAGE = """
            usage: slagate COMMAND [--config FILE]

            commands:
              start             the embedded system in one JVM: ActiveMQ broker, resource manager, gateway
              gateway           one gateway node, on the broker at bus.url
              resource-manager  the global resource manager, on the broker at bus.url
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
            out.print(USAGE);
            return 0;
        }
        Path configPath;
        try {
            configPath = configPath(rest);
        } catch (IllegalArgumentException e) {
            err.println("slagate: " + e.getMessage());
            return 1;
        }
        if (!rest.isEmpty()) {
            err.println("slagate: unknown option " + rest.get(0) + "\n" + USAGE);
            return 1;
        }
        SlagateConfig config;
        try {
            config = ConfigLoader.load(configPath);
        } catch (ConfigException e) {
            err.println("slagate: configuration refused: " + e.getMessage());
            return 2;
        }
        return switch (command) {
            case "start" -> runUntilStopped(config, EmbeddedSystem.Parts.ALL, err);
            case "gateway" -> runUntilStopped(config, EmbeddedSystem.Parts.GATEWAY, err);
            case "resource-manager" -> runUntilStopped(config, EmbeddedSystem.Parts.RESOURCE_MANAGER, err);
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

    private static int runUntilStopped(SlagateConfig config, EmbeddedSystem.Parts parts, PrintStream err) {
        EmbeddedSystem system;
        try {
            system = EmbeddedSystem.start(config, parts);
        } catch (Exception e) {
            err.println("slagate: could not start: " + e.getMessage());
            return 3;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            system.close();
            stopped.countDown();
        }, "slagate-shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }
}
