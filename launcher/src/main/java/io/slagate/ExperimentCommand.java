package io.slagate;

import io.slagate.experiment.Experiments;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** {@code bin/slagate experiment NAME [options]}: which experiment, with which options, and where its results go. */
final class ExperimentCommand {
    private static final Set<String> FLAGS = Set.of("--short", "--sweep", "--auto", "--steady", "--workloads", "--controller", "--two-tier",
            "--paired");
    private static final Set<String> LOWER_CASE_DIRS = Set.of("sla", "slowdown", "ahead", "locality", "tuning", "capacity", "quota", "scale");

    private final String name;
    private final List<String> args;
    private final Set<String> flags = new HashSet<>();
    private double scale = 0.05;
    private boolean scaleGiven;
    private double resolution = 1;
    private Path dir;
    private String point;
    private double percentile;
    private int pairs = 8;

    private ExperimentCommand(List<String> args) {
        if (args.isEmpty() || args.get(0).startsWith("--")) {
            throw new IllegalArgumentException("which experiment? A, B or C");
        }
        this.name = args.get(0);
        this.args = args;
        String home = System.getProperty("slagate.home");
        dir = home != null ? Path.of(home, "docs", "experiments") : Path.of("docs", "experiments");
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i);
            if (FLAGS.contains(a)) {
                flags.add(a);
                continue;
            }
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            String v = args.get(++i);
            switch (a) {
                case "--scale" -> {
                    scale = Double.parseDouble(v);
                    scaleGiven = true;
                }
                case "--resolution" -> resolution = Double.parseDouble(v);
                case "--out" -> dir = Path.of(v);
                case "--point" -> point = v;
                case "--percentile" -> percentile = Double.parseDouble(v);
                case "--pairs" -> pairs = Integer.parseInt(v);
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
    }

    static int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        return new ExperimentCommand(args).run(out, err);
    }

    private boolean has(String flag) {
        return flags.contains(flag);
    }

    private boolean is(String experiment) {
        return name.equalsIgnoreCase(experiment);
    }

    private static void require(boolean ok, String usage) {
        if (!ok) {
            throw new IllegalArgumentException(usage);
        }
    }

    private int run(PrintStream out, PrintStream err) throws Exception {
        String command = "bin/slagate experiment " + String.join(" ", args);
        boolean quick = has("--short");
        Experiments experiments = new Experiments(scale, quick, dir, err, command, resolution);
        require(!has("--steady") || has("--auto") && is("A"),
                "--steady is for experiment A --auto: ten minutes of constant load under concurrency: auto");
        if (is("budget")) {
            int clients = point == null ? io.slagate.experiment.ErrorBudgetExperiment.CLIENTS : Integer.parseInt(point.trim());
            return report(out, "error-budget", new io.slagate.experiment.ErrorBudgetExperiment(scale, clients, err).runBoth());
        }
        if (has("--two-tier")) {
            require(is("tuning") && !has("--workloads") && !has("--controller"),
                    "--two-tier is for experiment tuning (alone): both tiers' defaults against the tuned");
            return report(out, "tuning", experiments.tuningTwoTier());
        }
        if (has("--controller")) {
            require(is("tuning") && !has("--workloads"),
                    "--controller is for experiment tuning (alone): the controller's own knobs, tuned interleaved");
            return report(out, "tuning", experiments.tuningController());
        }
        if (has("--workloads")) {
            require(is("tuning"), "--workloads is for experiment tuning: each workload's best by brute force, then the tuner");
            return report(out, "tuning", experiments.tuningWorkloads());
        }
        if (has("--auto")) {
            require(is("A"), "--auto is for experiment A: the knee with static N_s, then concurrency: auto");
            return report(out, "A", has("--steady") ? experiments.steadyAuto() : experiments.kneeWithAuto());
        }
        if (has("--paired")) {
            require(is("B") && !has("--sweep"), "--paired is for experiment B: the controller against static splits, seed by seed");
            return report(out, "B", experiments.pairedB(pairs));
        }
        require(percentile == 0 || point != null,
                "--percentile is for one point: experiment C --point L_P,L_B --sweep --percentile 95");
        if (point != null) {
            return point(out, err, command, quick, experiments);
        }
        List<String> lines = experiments.run(name, has("--sweep"));
        String results = LOWER_CASE_DIRS.contains(name.toLowerCase(Locale.ROOT)) ? name.toLowerCase(Locale.ROOT) : name.toUpperCase(Locale.ROOT);
        return report(out, results, lines);
    }

    /** One point of experiment C against its empirical oracle. */
    private int point(PrintStream out, PrintStream err, String command, boolean quick, Experiments experiments) throws Exception {
        require(has("--sweep") && is("C"), "a point against the oracle is: experiment C --point L_P,L_B --sweep [--short]");
        String[] lp = point.split(",");
        require(lp.length == 2, "--point takes L_P,L_B, e.g. 20,20");
        if (!scaleGiven) {
            // a finer time scale for one point: 2.5x the requests per second (the service mostly sleeps, so the CPU
            // allows it), which is what makes a static-weights oracle measurable on 2 cores within minutes
            experiments = new Experiments(Experiments.POINT_SCALE, quick, dir, err, command, resolution);
        }
        return report(out, "C", experiments.point(Integer.parseInt(lp[0].trim()), Integer.parseInt(lp[1].trim()), percentile));
    }

    private int report(PrintStream out, String results, List<String> lines) {
        out.println("results in " + dir.resolve(results));
        lines.forEach(out::println);
        out.println(Experiments.predictionsOutOfRangeLine());
        return 0;
    }
}
