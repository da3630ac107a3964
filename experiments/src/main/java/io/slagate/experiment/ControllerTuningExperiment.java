package io.slagate.experiment;

import io.slagate.experiment.paper.ExperimentSetup;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.ControlMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.load.LoadGenerator;
import io.slagate.load.LoadSpec;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import io.slagate.rm.ControlLoop;
import io.slagate.rm.tune.Tuner;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The controller's own knobs ({@code slagate experiment tuning --controller}): one server with a tight N_s in
 * front of a sleep-bound service, premium and basic on it near capacity, so that how the manager splits the slots
 * decides who meets the goal. The controller starts on poor settings (weight resolution 2, damping 0.9, the M/M/1 model,
 * the gateways' statistics window at the longest they hold, 6 s) and the interleaved tuner (no safe side: reference,
 * trial, reference) tunes resolution, damping, model and window under a load
 * whose mix changes halfway. Then the start and the tuned settings take turns, start, tuned, tuned, start, under the
 * second phase's load, so both are measured in the same run on the same load. Ends with
 * {@code controller-knobs start U0 tuned U1 trials T best [resolution, damping, model, window]}.
 */
final class ControllerTuningExperiment {
    private static final String PARTITION = "controller";
    private final boolean quick;
    private final PrintStream log;

    ControllerTuningExperiment(boolean quick, PrintStream log) {
        this.quick = quick;
        this.log = log;
    }

    List<String> run(Path out, String command) throws Exception {
        int phaseSeconds = quick ? 160 : 300;
        int compareSeconds = quick ? 30 : 60;
        int settleSeconds = 8;
        List<double[]> series = new CopyOnWriteArrayList<>(); // second, all traffic's utility, (unused)
        List<Tuner.Trial> trials;
        double[] best;
        double[] start;
        List<double[]> windows = new ArrayList<>(); // from, to, which (0 start, 1 tuned)
        try (BackendServer backend = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.of(Duration.ofMillis(50), 0))) {
            try (RunningSystem sys = RunningSystem.start(ConfigLoader.parse(yaml(backend.urls().get(0)), "controller-tuning"), true)) {
                ControlLoop rm = sys.controlLoop();
                long t0 = System.nanoTime();
                ScheduledExecutorService sampler = TuningExperiment.sampleSides(rm, series, t0);
                try {
                    load(sys, List.of(new LoadSpec.Phase(Duration.ofSeconds(phaseSeconds), List.of(45.0, 25.0)),
                            new LoadSpec.Phase(Duration.ofSeconds(phaseSeconds), List.of(25.0, 45.0))), 51);
                    trials = rm.tuner().trials();
                    best = rm.tuner().bestValues();
                    start = rm.tuner().initialValues();
                    log.printf(Locale.ROOT, "controller tuning: %d trials, from %s to %s%n", trials.size(), Arrays.toString(start),
                            Arrays.toString(best));
                    rm.command(new ControlMessage(BusMessage.SCHEMA, ControlMessage.TUNING_STOP, null, null, null, 0, 0, "experiment",
                            System.currentTimeMillis()));
                    abba(sys, start, best, series, t0, settleSeconds, compareSeconds, windows);
                } finally {
                    sampler.shutdownNow();
                }
            }
        }
        double[] sum = new double[2];
        int[] n = new int[2];
        StringBuilder windowText = new StringBuilder();
        for (double[] w : windows) {
            double m = TuningExperiment.mean(series, w[0], w[1], 1);
            windowText.append(String.format(Locale.ROOT, "%s %.3f; ", w[2] == 0 ? "start" : "tuned", m));
            if (Double.isFinite(m)) {
                sum[(int) w[2]] += m;
                n[(int) w[2]]++;
            }
        }
        double u0 = n[0] == 0 ? Double.NaN : sum[0] / n[0];
        double u1 = n[1] == 0 ? Double.NaN : sum[1] / n[1];
        String line = String.format(Locale.ROOT, "controller-knobs start %.3f tuned %.3f trials %d best %s", u0, u1, trials.size(),
                describe(best));
        Path dir = out.resolve("tuning");
        Files.createDirectories(dir);
        ResultsFile.write(dir.resolve(quick ? "CONTROLLER-short.md" : "CONTROLLER.md"),
                report(command, trials, series, line, describe(start), windowText.toString().trim(), phaseSeconds, compareSeconds));
        return List.of(line);
    }

    /**
     * The start and tuned settings in turn, start, tuned, tuned, start (ABBA: a load that drifts steadily over the four
     * periods favours neither), each after a settle time, under the second phase's load; each period's measured span
     * (from, to, 0 start or 1 tuned) into {@code windows}.
     */
    private void abba(RunningSystem sys, double[] start, double[] best, List<double[]> series, long t0, int settleSeconds,
                      int compareSeconds, List<double[]> windows) throws Exception {
        ControlLoop rm = sys.controlLoop();
        List<LoadSpec.Phase> phases = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            phases.add(new LoadSpec.Phase(Duration.ofSeconds(settleSeconds + compareSeconds), List.of(25.0, 45.0)));
        }
        double base = (System.nanoTime() - t0) / 1e9;
        ScheduledExecutorService switcher = Executors.newSingleThreadScheduledExecutor();
        for (int i = 0; i < 4; i++) {
            int which = i == 1 || i == 2 ? 1 : 0;
            double[] values = which == 0 ? start : best;
            double from = base + i * (settleSeconds + compareSeconds);
            windows.add(new double[] {from + settleSeconds, from + settleSeconds + compareSeconds, which});
            switcher.schedule(() -> {
                try {
                    rm.putTuned(PARTITION, values);
                } catch (Exception e) {
                    log.println("could not put the settings " + Arrays.toString(values) + ": " + e);
                }
            }, Math.max(0, (long) ((from - (System.nanoTime() - t0) / 1e9) * 1000)), TimeUnit.MILLISECONDS);
        }
        try {
            load(sys, phases, 53);
        } finally {
            switcher.shutdownNow();
        }
    }

    private static String describe(double[] v) {
        if (v.length < 3) {
            return Arrays.toString(v);
        }
        return String.format(Locale.ROOT, "[resolution %.2f, damping %.2f, model %s%s]", v[0], v[1], v[2] < 0.5 ? "auto" : "mm1",
                v.length > 3 ? String.format(Locale.ROOT, ", window %.1f s", v[3]) : "");
    }

    private void load(RunningSystem sys, List<LoadSpec.Phase> phases, long seed) throws Exception {
        LoadSpec spec = new LoadSpec(sys.url(), "/services/StockUtility", null,
                List.of(new LoadSpec.ClassSpec("premium", "getQuote", ExperimentSetup.PREMIUM_USER, false, Duration.ofMillis(150)),
                        new LoadSpec.ClassSpec("basic", "getQuote", ExperimentSetup.BASIC_USER, false, Duration.ofMillis(400))),
                phases, true, Duration.ZERO, Duration.ZERO, seed, Duration.ofSeconds(30), null);
        new LoadGenerator(spec, null).run();
    }

    /** One server with N_s 4 (80 requests/s of 50 ms), two classes, the controller on poor settings, tuned interleaved. */
    static String yaml(String url) {
        return String.format(Locale.ROOT, """
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  stats: { reportingInterval: 500ms, window: 6s }
                servers:
                  - { id: s1, url: "%s", concurrency: 4 }
                classes:
                  - { name: premium, target: 150ms, queueBound: 100000, queueTimeout: 5s }
                  - { name: basic, target: 400ms, queueBound: 100000, queueTimeout: 5s }
                classification:
                  subscriptions: { %s: { "*": gold } }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                bus: { url: "vm://slagate-controller-tuning", listen: "" }
                controller:
                  cycle: 1s
                  combining: min
                  resolution: 2
                  damping: 0.9
                  model: mm1
                  tuning:
                    partitions:
                      %s:
                        interleaved: true
                        knobs:
                          - { name: resolution, min: 0.25, max: 2 }
                          - { name: damping, min: 0.1, max: 0.9 }
                          - { name: model, choices: [auto, mm1] }
                          - { name: window, min: 0.5, max: 6 }
                    strategy: simplex
                    period: 15s
                    settle: 6s
                    minGain: 0.03
                    abortDrop: 0.5
                    stallTrials: 8
                    drift: 0.1
                """, url, ExperimentSetup.PREMIUM_USER, PARTITION);
    }

    private static String report(String command, List<Tuner.Trial> trials, List<double[]> series, String line, String start,
                                 String windows, int phase, int compare) {
        StringBuilder md = new StringBuilder("# Experiment tuning --controller — the controller's own knobs, interleaved\n\n");
        md.append("Produced by `").append(command).append("` on ").append(Experiments.cores()).append(", ")
                .append(LocalDate.now()).append(".\n\n");
        md.append(String.format(Locale.ROOT, """
                One server of a sleep-bound service (50 ms a request) with N_s = 4 (80 requests/s), premium (target 150 ms) and
                basic (target 400 ms) on it, open-loop: 45/s and 25/s for %d s, then 25/s and 45/s for %d s (70 of 80 requests/s:
                how the manager splits the four slots decides who meets the goal). Utility: the minimum over the classes of eq. 7
                on what was measured. The controller starts on %s; the interleaved tuner (no safe side, `interleaved: true`:
                every trial runs on all traffic for 15 s between two 15 s periods of the best settings, 6 s to settle after each
                change, as long as the longest window, so that a period measures its own setting's answers only; promoted at
                +0.03 over the mean of the two references: a first run with 8 s periods and +0.01 promoted on noise, its
                references alone moving by ±0.05 between periods) tunes the weight resolution (0.25 to 2), the damping (0.1 to
                0.9), the model (auto or mm1) and the gateways' statistics window (0.5 to 6 s; a poor start has 120 s,
                which would need a settle of 120 s per change, beyond a short run). Then, under the second phase's load, the start and the tuned
                settings take turns (start, tuned, tuned, start; %d s each after 8 s to settle), so both are measured in the same
                run on the same load: %s

                | trial | resolution | damping | model | window (s) | trial U | references' U | outcome |
                |---:|---:|---:|---|---:|---:|---:|---|
                """, phase, phase, start, compare, windows));
        for (Tuner.Trial t : trials) {
            double[] v = t.values();
            md.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %.3f | %.3f | %s |%n", t.number(),
                    v.length > 0 ? String.format(Locale.ROOT, "%.2f", v[0]) : "–", v.length > 1 ? String.format(Locale.ROOT, "%.2f", v[1]) : "–",
                    v.length > 2 ? (v[2] < 0.5 ? "auto" : "mm1") : "–", v.length > 3 ? String.format(Locale.ROOT, "%.1f", v[3]) : "–",
                    t.experimental(), t.safe(), t.outcome()));
        }
        md.append("\nAll traffic's utility per second:\n\n");
        StringBuilder s = new StringBuilder();
        for (double[] x : series) {
            s.append(String.format(Locale.ROOT, "%.0f:%.2f ", x[0], x[1]));
        }
        md.append(s.toString().trim()).append("\n\n```\n").append(line).append("\n```\n");
        return md.toString();
    }
}
