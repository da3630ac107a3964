package io.slagate;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The running processes of a configuration file, for {@code slagate stop}: each running role writes its pid beside the
 * configuration ({@code slagate.yaml} → {@code slagate.start.pid}) and removes it when it ends.
 */
final class PidFiles {
    /** The roles a configuration's processes run as, each with its own pid file. */
    static final java.util.List<String> ROLES = java.util.List.of("start", "gateway", "resource-manager", "console");

    /** How long {@code stop} waits for a process to finish its shutdown (the last SLA flush, the drained requests). */
    static final long STOP_WAIT_SECONDS = 60;

    private PidFiles() {
    }

    static Path of(Path config, String role) {
        Path abs = config.toAbsolutePath();
        String name = abs.getFileName().toString().replaceFirst("\\.ya?ml$", "");
        return abs.resolveSibling(name + "." + role + ".pid");
    }

    /** Writes this process's pid for {@code role}, removed when the process ends. */
    static void write(Path config, String role, PrintStream err) {
        Path file = of(config, role);
        try {
            Optional<ProcessHandle> other = running(file);
            if (other.isPresent() && other.get().pid() != ProcessHandle.current().pid()) {
                err.println("slagate: " + file + " names process " + other.get().pid() + ", still running; `slagate stop` stops this one");
            }
            Files.writeString(file, ProcessHandle.current().pid() + "\n", StandardCharsets.US_ASCII);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    if (Files.readString(file).trim().equals(Long.toString(ProcessHandle.current().pid()))) {
                        Files.delete(file);
                    }
                } catch (IOException ignored) {
                    // gone already
                }
            }, "slagate-pid-file"));
        } catch (IOException e) {
            err.println("slagate: cannot write " + file + " (" + e.getMessage() + "): `slagate stop` will not find this process");
        }
    }

    /**
     * The live slagate process a pid file names, if any: a pid the system reused for another program since is not it
     * (its command line must be slagate's, and it must have started before the file was written).
     */
    static Optional<ProcessHandle> running(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        long pid;
        try {
            pid = Long.parseLong(Files.readString(file).trim());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        java.time.Instant written = Files.getLastModifiedTime(file).toInstant();
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .filter(p -> p.info().commandLine().map(c -> c.contains("slagate.jar") || c.contains("io.slagate.")).orElse(false))
                .filter(p -> p.info().startInstant().map(t -> !t.isAfter(written.plusSeconds(1))).orElse(false));
    }

    /** Stops every role running from {@code config}: asks each to end and waits for it. Its exit code. */
    static int stop(Path config, PrintStream out, PrintStream err) {
        Path abs = config.toAbsolutePath();
        int stopped = 0;
        try {
            for (String role : ROLES) {
                Path f = of(config, role);
                Optional<ProcessHandle> p = running(f);
                if (p.isEmpty()) {
                    Files.deleteIfExists(f); // a process that died without its shutdown
                    continue;
                }
                p.get().destroy(); // SIGTERM: the shutdown hook stops the system in order
                try {
                    p.get().onExit().get(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    err.println("slagate stop: process " + p.get().pid() + " did not end within " + STOP_WAIT_SECONDS + " s");
                    return 3;
                } catch (java.util.concurrent.ExecutionException | InterruptedException e) {
                    err.println("slagate stop: waiting for process " + p.get().pid() + ": " + e);
                    return 3;
                }
                out.println("slagate stop: process " + p.get().pid() + " (" + f.getFileName() + ") stopped");
                stopped++;
            }
        } catch (IOException e) {
            err.println("slagate stop: " + e.getMessage());
            return 3;
        }
        if (stopped == 0) {
            out.println("slagate stop: nothing of " + abs + " is running");
        }
        return 0;
    }
}
