package io.slagate;

import io.slagate.config.ConfigCheck;
import io.slagate.config.ConfigException;
import io.slagate.config.SimulatedLoadFile;
import io.slagate.config.SimulatedLoad;
import io.slagate.config.SlagateConfig;
import io.slagate.experiment.twin.PolicyComparison;
import io.slagate.experiment.twin.Scenario;
import io.slagate.experiment.twin.Timeline;
import io.slagate.experiment.twin.TwinReport;
import io.slagate.experiment.twin.TwinRun;
import io.slagate.experiment.twin.WhatIf;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** {@code bin/slagate simulate --config FILE --load FILE}: an operator's what-if in the twin, and its table and plot. */
final class WhatIfCommand {
    private WhatIfCommand() {
    }

    static int run(Path configFile, Path loadFile, Integer seedsGiven, int threads, Path outDir, PrintStream out, PrintStream err)
            throws IOException {
        SlagateConfig config;
        SimulatedLoad spec;
        try {
            config = ConfigCheck.check(configFile);
            spec = SimulatedLoadFile.load(loadFile, config);
        } catch (ConfigException e) {
            err.println("slagate simulate: refused: " + e.getMessage());
            return 2;
        }
        int seeds = seedsGiven != null ? seedsGiven : spec.seeds();
        Scenario sc = WhatIf.scenario(config, spec);
        long t0 = System.nanoTime();
        PolicyComparison.Outcome o = PolicyComparison.run(sc, seeds, 1, threads);
        double[] best = sc.candidates().get(o.best());
        List<WhatIf.PolicyFigures> figures = List.of(
                WhatIf.figures(sc, "controller", new TwinRun.Controlled(), seeds),
                WhatIf.figures(sc, "configured " + TwinReport.weights(sc.candidates().get(0)), TwinRun.Held.of(sc.candidates().get(0)), seeds),
                WhatIf.figures(sc, "best static " + TwinReport.weights(best), TwinRun.Held.of(best), seeds));
        out.printf(Locale.ROOT, "what-if: %s under %s, %d seeds, %d phases (the last %.0f%% of each measured)%n", configFile, loadFile,
                seeds, sc.load().phases().size(), 100 * sc.measuredFraction());
        out.printf(Locale.ROOT, "%-22s %-12s %9s %8s %8s %10s %8s%n", "policy", "class", "answered", "mean s", "p95 s", "attainment",
                "utility");
        for (WhatIf.PolicyFigures p : figures) {
            for (WhatIf.ClassFigures c : p.classes()) {
                out.printf(Locale.ROOT, "%-22s %-12s %9d %8.3f %8.3f %9.1f%% %8.3f%n", p.policy(), c.className(), c.answered(),
                        c.meanSeconds(), c.p95Seconds(), 100 * c.attainment(), c.utility());
            }
        }
        out.println("attainment: answers within the class's target; utility: target − mean response time (eq. 7, φ = α = β = 1)");
        out.println(o.line());
        Timeline t = new Timeline(sc, TwinRun.run(sc.config(), sc.load(), sc.plant(), new TwinRun.Controlled(), 1),
                config.gateway().stats().reportingInterval().toNanos() / 1e9);
        Files.createDirectories(outDir);
        Path csv = outDir.resolve("slagate-simulate.csv"), svg = outDir.resolve("slagate-simulate.svg");
        Files.writeString(csv, t.csv(), StandardCharsets.UTF_8);
        Files.writeString(svg, t.svg(), StandardCharsets.UTF_8);
        out.printf(Locale.ROOT, "wrote %s and %s (%.1f s)%n", csv, svg, (System.nanoTime() - t0) / 1e9);
        return 0;
    }
}
