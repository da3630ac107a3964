package io.slagate;

import ch.qos.logback.classic.Level;
import io.slagate.experiment.twin.AlikePlants;
import io.slagate.experiment.twin.Calibration;
import io.slagate.experiment.twin.ErrorBudgetTwin;
import io.slagate.experiment.twin.PolicyComparison;
import io.slagate.experiment.twin.Scenario;
import io.slagate.experiment.twin.TwinExperiments;
import io.slagate.experiment.twin.TwinReport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.slf4j.LoggerFactory;

/**
 * {@code bin/slagate simulate --experiment B|C}: the paper's experiment in the twin, the real manager and scheduler in
 * virtual time, every policy on the same seeds; prints each phase's figures and the summary line.
 */
final class SimulateCommand {
    static final String USAGE = """
            usage: slagate simulate --config FILE --load FILE [--seeds N] [--out DIR] [--threads T]
                   slagate simulate --experiment B [--seeds N] [--phase-seconds S] [--first-seed K] [--threads T]
                   slagate simulate --experiment C [--point P,B] [--seeds N] [--phase-seconds S] [--first-seed K] [--threads T]
              The experiment in the twin: the resource manager's and the gateway's own code against simulated clients
              and servers in virtual time (paper-seconds). Every seed runs the controller, each static weight split
              from 1:9 to 9:1, and the phase oracle; gaps are paired by seed with their 95% intervals.
              --config, --load   a what-if: the configuration's classes, servers, weights and controller under
                                 the load file's clients (docs/examples/load.yaml), in simulated time; per
                                 class the response times, target attainment and utility under the
                                 controller, the configured weights and the best static weights a sweep
                                 finds; the controller's weights and response times over time in
                                 DIR/slagate-simulate.csv and .svg (DIR: --out, default the current directory)
              --seeds N          seeds (default 100; a what-if: the load file's seeds:, else 10)
              --phase-seconds S  each phase's length in paper-seconds (default 500: the real experiment's --short)
              --point P,B        experiment C's point: premium and basic clients (default 20,20)
              --basic-rate R     experiment C with Basic an open Poisson stream of R requests per second in
                                 place of its clients (the point's B is then not used)
              --grid             experiment C on the paper's grid, 5 to 20 clients of each class: per point
                                 the gap to the best static split and the settling
              --first-seed K     the first seed (default 1); seeds K..K+N-1
              --weights FILE     B and C: the controller's split at every cycle of every seed, as CSV
                                 (seed, second, phase, each class's share): what settling is read from
              --controller KEYS  more controller settings for B and C, as in a configuration's controller:
                                 mapping, e.g. "minGain: 0.1, damping: 0.3" (a change judged before it ships;
                                 cycle, combining, resolution and model are the experiment's own)
              --threads T        runs at once (default: the cores)
              --experiment budget  two customers alone in two classes alike, one having spent 80% of its error
                                 budget with half the period gone: the shipped controller, the controller with
                                 errorBudget: true and every static split, each over the rest of the period
                                 (--phase-seconds, default 2000) on the same seeds (default 50); --point A,B
                                 their clients (default 15,15), --target S (4), --objective F (0.95)
              --experiment calibration  the twin's side of its calibration: B's full phases under the
                                 controller, C's grid under FCFS (docs/experiments/twin/RESULTS.md)
              --experiment alike  B's change to Φ_D beside a plant alike in every report the manager has by
                                 the third cycle after it (Basic's clients give way to an open stream at
                                 their own rate): the splits decided by then, and each plant's best splits
                                 (default 100 seeds)
            """;

    private String experiment;
    private String configFile;
    private String loadFile;
    private String outDir = ".";
    private String controllerKeys = "";
    private Integer seedsGiven;
    private int threads = Runtime.getRuntime().availableProcessors();
    private long firstSeed = 1;
    private double phaseSeconds = TwinExperiments.B_PHASE_SECONDS;
    private int[] point = {20, 20};
    private final boolean grid;
    private String weightsFile;
    private boolean phaseSecondsGiven;
    private boolean pointGiven;
    private double budgetObjective = ErrorBudgetTwin.OBJECTIVE;
    private double budgetTarget = ErrorBudgetTwin.TARGET_SECONDS;
    private Double basicRate;

    private SimulateCommand(List<String> args) {
        grid = args.remove("--grid");
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException(a + " needs a value\n" + USAGE);
            }
            String v = args.get(++i);
            switch (a) {
                case "--experiment" -> experiment = v;
                case "--seeds" -> seedsGiven = positive(a, Integer.parseInt(v));
                case "--config" -> configFile = v;
                case "--load" -> loadFile = v;
                case "--out" -> outDir = v;
                case "--controller" -> controllerKeys = v;
                case "--threads" -> threads = positive(a, Integer.parseInt(v));
                case "--first-seed" -> firstSeed = Long.parseLong(v);
                case "--phase-seconds" -> {
                    phaseSeconds = positive(a, Double.parseDouble(v));
                    phaseSecondsGiven = true;
                }
                case "--objective" -> budgetObjective = Double.parseDouble(v);
                case "--target" -> budgetTarget = positive(a, Double.parseDouble(v));
                case "--point" -> {
                    point = point(v);
                    pointGiven = true;
                }
                case "--weights" -> weightsFile = v;
                case "--basic-rate" -> basicRate = positive(a, Double.parseDouble(v));
                default -> throw new IllegalArgumentException("unknown option " + a + "\n" + USAGE);
            }
        }
    }

    static int run(List<String> args, PrintStream out, PrintStream err) throws java.io.IOException {
        return new SimulateCommand(args).run(out, err);
    }

    private int run(PrintStream out, PrintStream err) throws java.io.IOException {
        ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger("io.slagate")).setLevel(Level.WARN); // the runs' own chatter
        if (loadFile != null || configFile != null) {
            if (loadFile == null || configFile == null || experiment != null) {
                throw new IllegalArgumentException("a what-if takes --config and --load (and no --experiment)\n" + USAGE);
            }
            return WhatIfCommand.run(Path.of(configFile), Path.of(loadFile), seedsGiven, threads, Path.of(outDir), out, err);
        }
        if (experiment == null) {
            throw new IllegalArgumentException("which experiment? --experiment B or C, or a what-if: --config and --load\n" + USAGE);
        }
        int seeds = seedsGiven != null ? seedsGiven : 100;
        long t0 = System.nanoTime();
        if (basicRate != null && (!experiment.equals("C") || grid)) {
            throw new IllegalArgumentException("--basic-rate is for one point of experiment C");
        }
        if (grid) {
            if (!experiment.equals("C")) {
                throw new IllegalArgumentException("--grid is experiment C's");
            }
            out.print(TwinReport.grid(seeds, phaseSeconds, controllerKeys, threads));
            out.printf(Locale.ROOT, "(%d points × %d seeds in %.1f s)%n", 16, seeds, (System.nanoTime() - t0) / 1e9);
            return 0;
        }
        String report = report(experiment);
        if (report != null) {
            out.print(report);
            out.printf(Locale.ROOT, "(%.1f s)%n", (System.nanoTime() - t0) / 1e9);
            return 0;
        }
        Scenario sc = switch (experiment) {
            case "B" -> TwinExperiments.b(phaseSeconds, controllerKeys);
            case "C" -> basicRate != null ? TwinExperiments.cOpenBasic(point[0], basicRate, phaseSeconds, controllerKeys)
                    : TwinExperiments.c(point[0], point[1], phaseSeconds, controllerKeys);
            default -> throw new IllegalArgumentException("no experiment " + experiment + " in the twin: B or C");
        };
        PolicyComparison.Outcome o = PolicyComparison.run(sc, seeds, firstSeed, threads);
        out.print(TwinReport.phases(o));
        out.println("under the controller:");
        out.print(TwinReport.controllerClasses(o));
        out.println(o.line());
        if (weightsFile != null) {
            java.nio.file.Files.writeString(Path.of(weightsFile), TwinReport.weightsCsv(o, firstSeed));
            out.println("the controller's split at every cycle of every seed: " + weightsFile);
        }
        out.printf(Locale.ROOT, "(%d seeds × %d runs in %.1f s)%n", seeds, sc.candidates().size() + 2, (System.nanoTime() - t0) / 1e9);
        return 0;
    }

    /** The report of one of the twin's experiments that is not a comparison of policies on B or C; null for B and C. */
    private String report(String name) {
        return switch (name) {
            case "budget" -> {
                int[] clients = pointGiven ? point : ErrorBudgetTwin.CLIENTS;
                ErrorBudgetTwin setup = new ErrorBudgetTwin(budgetTarget, budgetObjective, clients[0], clients[1],
                        phaseSecondsGiven ? phaseSeconds : ErrorBudgetTwin.REST_SECONDS, 0.5, 0.8, 0);
                try {
                    yield setup.compare(seedsGiven != null ? seedsGiven : 50, firstSeed, threads).report();
                } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
                    throw new IllegalStateException("the twin's runs failed", e);
                }
            }
            case "alike" -> AlikePlants.compare(seedsGiven != null ? seedsGiven : 100, firstSeed, threads).report();
            case "calibration" -> Calibration.report(seedsGiven != null ? seedsGiven : 20, threads);
            default -> null;
        };
    }

    private static int[] point(String v) {
        String[] p = v.split(",");
        if (p.length != 2) {
            throw new IllegalArgumentException("--point wants premium and basic clients, as 20,5: " + v);
        }
        return new int[] {positive("--point", Integer.parseInt(p[0].trim())), positive("--point", Integer.parseInt(p[1].trim()))};
    }

    static int positive(String what, int v) {
        if (v <= 0) {
            throw new IllegalArgumentException(what + " must be positive: " + v);
        }
        return v;
    }

    private static double positive(String what, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be positive: " + v);
        }
        return v;
    }
}
