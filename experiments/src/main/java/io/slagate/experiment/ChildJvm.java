package io.slagate.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A slagate component in a JVM of its own ({@code slagate broker}, {@code slagate resource-manager}), started from this
 * JVM's own classpath, its output in a log file: what the scale experiment measures apart (CPU from /proc, heap from
 * {@code jstat}) and kills as a machine would die ({@link #kill}: SIGKILL, no goodbye on the bus).
 */
final class ChildJvm implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Path log;

    private ChildJvm(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** {@code slagate COMMAND --config CONFIG} with these extra environment variables (the passwords). */
    static ChildJvm start(String name, String command, Path config, Map<String, String> env, Path dir, String heap)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse("java"));
        cmd.add("-Xmx" + heap);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("io.slagate.Main");
        cmd.add(command);
        cmd.add("--config");
        cmd.add(config.toString());
        Path log = dir.resolve(name + ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly, "stop-" + name)); // never outlives the experiment
        return new ChildJvm(name, p, log);
    }

    /** Waits until the log has {@code line} (the component says it is up), at most {@code seconds}. */
    ChildJvm awaitLog(String line, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited: " + tail());
            }
            if (Files.exists(log) && Files.readString(log).contains(line)) {
                return this;
            }
            Thread.sleep(50); // polling a child's log: its start-up, not a condition of this process
        }
        throw new IllegalStateException(name + " did not log '" + line + "' within " + seconds + " s: " + tail());
    }

    private String tail() throws IOException {
        String s = Files.exists(log) ? Files.readString(log) : "";
        return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
    }

    long pid() {
        return process.pid();
    }

    /** CPU seconds used so far (user + system, from /proc); NaN where there is no /proc. */
    double cpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime, stime in clock ticks (USER_HZ = 100)
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** Heap in use now, in MiB (young and old generations, from {@code jstat -gc}); NaN when jstat is not at hand. */
    double heapMiB() {
        try {
            Path java = Path.of(ProcessHandle.current().info().command().orElse("java"));
            Path jstat = java.resolveSibling("jstat");
            Process p = new ProcessBuilder(jstat.toString(), "-gc", String.valueOf(process.pid())).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor(10, TimeUnit.SECONDS);
            List<String> lines = out.strip().lines().filter(l -> !l.startsWith("Picked up")).toList();
            String[] head = lines.get(0).trim().split("\\s+");
            String[] val = lines.get(lines.size() - 1).trim().split("\\s+");
            double kb = 0;
            for (int i = 0; i < head.length; i++) {
                if (List.of("S0U", "S1U", "EU", "OU").contains(head[i])) {
                    kb += Double.parseDouble(val[i]);
                }
            }
            return kb / 1024;
        } catch (Exception e) {
            return Double.NaN;
        }
    }

    /** Dies at once (SIGKILL): its connections drop without a goodbye, as a machine's loss would. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            kill();
        }
    }
}
