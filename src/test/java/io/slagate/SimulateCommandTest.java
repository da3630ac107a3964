package io.slagate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/slagate simulate}: the twin's experiments and an operator's what-if, and the load files it refuses. */
class SimulateCommandTest {
    /** The shipped configuration (the tests run in the launcher module's directory). */
    private static Path shippedConfig() {
        return Path.of("..", "config", "slagate.yaml");
    }

    private static Path write(Path dir, String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void experimentB_printsTheGapsWithTheirIntervals() {
        LauncherTest.Outcome o = LauncherTest.run("simulate", "--experiment", "B", "--seeds", "3", "--phase-seconds", "100");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().matches("(?s).*\\ntwin B seeds 3 gap-to-best-static mean -?\\d+\\.\\d{3} ci95 -?\\d+\\.\\d{3}\\.\\.-?\\d+\\.\\d{3} "
                + "gap-to-phase-oracle mean .* settle-cycles p50 \\d+ p90 \\d+ predictions-out-of-range \\d+\\n.*"), o.out());
        assertTrue(o.out().contains("Φ_D"), o.out());
        LauncherTest.Outcome undamped = LauncherTest.run("simulate", "--experiment", "B", "--seeds", "3", "--phase-seconds", "100",
                "--controller", "damping: 1.0");
        assertEquals(0, undamped.code(), undamped.err());
        assertTrue(undamped.out().contains("twin B seeds 3 "), undamped.out());
        LauncherTest.Outcome typo = LauncherTest.run("simulate", "--experiment", "B", "--controller", "dampign: 1.0");
        assertTrue(typo.code() != 0 && typo.err().contains("dampign"), typo.err());
    }

    @Test
    void experimentB_writesTheControllersSplitAtEveryCycle(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("weights.csv");
        LauncherTest.Outcome o = LauncherTest.run("simulate", "--experiment", "B", "--seeds", "2", "--phase-seconds", "100",
                "--first-seed", "7", "--weights", csv.toString());
        assertEquals(0, o.code(), o.err());
        List<String> lines = Files.readAllLines(csv);
        assertEquals("seed,second,phase,premium,basic", lines.get(0));
        // 4 phases of 100 paper-seconds at a 5 s cycle: about 80 cycles per seed, both seeds, each split summing to 1
        assertTrue(lines.stream().filter(l -> l.startsWith("7,")).count() >= 70, lines.size() + " lines");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("8,") && l.contains(",Φ_D,")), "the second seed reaches the last phase");
        for (String l : lines.subList(1, lines.size())) {
            String[] f = l.split(",");
            assertEquals(1.0, Double.parseDouble(f[3]) + Double.parseDouble(f[4]), 0.002, l);
        }
    }

    @Test
    void experimentCGrid_printsEveryPoint() {
        LauncherTest.Outcome o = LauncherTest.run("simulate", "--experiment", "C", "--grid", "--seeds", "2", "--phase-seconds", "100");
        assertEquals(0, o.code(), o.err());
        for (String row : new String[] {"5", "10", "15", "20"}) {
            assertTrue(o.out().matches("(?s).*\\n" + row + " +( +[+-]\\d+\\.\\d{3} \\[[^\\]]+\\] \\( *\\d+\\)){4}\\n.*"), row + ": " + o.out());
        }
    }

    @Test
    void experimentCWithAnOpenBasic_andTheAlikePlants_printTheirLines() {
        LauncherTest.Outcome open = LauncherTest.run("simulate", "--experiment", "C", "--point", "20,1", "--basic-rate", "2.5",
                "--seeds", "2", "--phase-seconds", "100");
        assertEquals(0, open.code(), open.err());
        assertTrue(open.out().contains("twin C(20,2.5/s) seeds 2 gap-to-best-static mean"), open.out());
        LauncherTest.Outcome misplaced = LauncherTest.run("simulate", "--experiment", "B", "--basic-rate", "2.5");
        assertEquals(1, misplaced.code(), "a usage error, as any other of the command");
        assertTrue(misplaced.err().contains("--basic-rate is for one point of experiment C"), misplaced.err());
        LauncherTest.Outcome alike = LauncherTest.run("simulate", "--experiment", "alike", "--seeds", "2");
        assertEquals(0, alike.code(), alike.err());
        assertTrue(alike.out().matches("(?s).*twin alike seeds 2 splits-alike-before-second-report 2 cycle-3-on-first-interval \\d+"
                + " bands-disjoint (true|false) settled-by-cycle-3 closed \\d+ open \\d+\n.*"), alike.out());
    }

    @Test
    void whatIf_printsEachClassUnderThreePoliciesAndWritesThePlot(@TempDir Path dir) throws Exception {
        Path load = write(dir, "load.yaml", """
                seeds: 2
                classes:
                  premium: { customer: gold-customer, think: { mean: 1s }, work: { mean: 1s } }
                  basic: { think: { mean: 1s }, work: { type: bimodal, p: 0.9, mean: 500ms, longMean: 5s } }
                phases:
                  - { duration: 2m, clients: { premium: 5, basic: 5 } }
                  - { name: rush, duration: 2m, clients: { premium: 20, basic: 20 }, rates: { basic: 1 } }
                """);
        LauncherTest.Outcome o = LauncherTest.run("simulate", "--config", shippedConfig().toString(), "--load", load.toString(),
                "--out", dir.toString());
        assertEquals(0, o.code(), o.err() + o.out());
        for (String policy : new String[] {"controller", "configured 12:8", "best static"}) {
            for (String cls : new String[] {"premium", "basic"}) {
                assertTrue(o.out().matches("(?s).*\\n" + policy + "[ 0-9:]* +" + cls + " +\\d+ .*"), policy + " " + cls + ": " + o.out());
            }
        }
        assertTrue(Files.readString(dir.resolve("slagate-simulate.csv")).startsWith("seconds,weight_premium,weight_basic,"));
        assertTrue(Files.readString(dir.resolve("slagate-simulate.svg")).contains("<polyline"));
    }

    @Test
    void badLoadFiles_areRefusedWithTheKeyNamed(@TempDir Path dir) throws Exception {
        String classes = "classes: { premium: { think: { mean: 1s } }, basic: { think: { mean: 1s } } }\n";
        String[][] cases = {
                {classes + "phases: [ { duration: 1m, clinets: { premium: 5 } } ]", "phases[0].clinets: unknown key"},
                {classes + "phases: [ { duration: 1m, rates: { basic: -2 } } ]", "phases[0].rates.basic"},
                {"classes: { platinum: { think: { mean: 1s } } }\nphases: [ { duration: 1m, clients: { platinum: 1 } } ]",
                        "classes.platinum: the configuration has no class platinum"},
                {classes + "phases: [ { duration: 1m, clients: { premium: 90000, basic: 90000 } } ]", "phases[0].clients"},
                {classes + "phases: [ { duration: 1m, clients: { gold: 3 } } ]", "class gold is not under classes:"},
                {classes + "servers: { s9: { discipline: delay } }\nphases: [ { duration: 1m } ]", "the configuration has no server s9"},
                {classes + "seeds: 3\nseeds: 4\nphases: [ { duration: 1m } ]", "not valid YAML"},
        };
        for (String[] c : cases) {
            Path load = write(dir, "bad.yaml", c[0]);
            LauncherTest.Outcome o = LauncherTest.run("simulate", "--config", shippedConfig().toString(), "--load", load.toString());
            assertEquals(2, o.code(), c[0] + "\n" + o.out() + o.err());
            assertTrue(o.err().contains(c[1]), "expected «" + c[1] + "» in: " + o.err());
        }
    }
}
