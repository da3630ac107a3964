package io.slagate.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsFileTest {
    @TempDir
    Path dir;

    private static String report(String date, String line) {
        return "# Experiment x\n\nProduced by `bin/slagate experiment x` on 2 cores, " + date + ".\n\n## Setup\n\n```\n" + line + "\n```\n";
    }

    @Test
    void aNewRunMovesTheReportItReplacesIntoTheHistory_newestFirst_andKeepsTheOlderOnes() throws Exception {
        Path f = dir.resolve("RESULTS.md");
        // two earlier runs, as earlier processes left them
        Files.writeString(f, report("2026-11-01", "a 1") + "\n" + ResultsFile.HISTORY + "\n\nintro\n\n"
                + ResultsFile.run(report("2026-10-01", "a 0")));
        ResultsFile.write(f, report("2026-11-02", "a 2"));
        String text = Files.readString(f);
        String[] parts = ResultsFile.split(text);
        assertTrue(parts[0].contains("a 2") && !parts[0].contains("a 1"), parts[0]);
        assertEquals("intro", parts[1], "what the history says before its runs stays");
        int newer = parts[2].indexOf("### Run: `bin/slagate experiment x` on 2 cores, 2026-11-01");
        int older = parts[2].indexOf("### Run: `bin/slagate experiment x` on 2 cores, 2026-10-01");
        assertTrue(newer >= 0 && older > newer, parts[2]);
        assertTrue(parts[2].contains("##### Setup"), "the earlier runs' headings go three levels down: " + parts[2]);
        assertEquals(1, text.split(ResultsFile.HISTORY, -1).length - 1, "one history section");
    }

    @Test
    void aRunThatRewritesItsOwnFileReplacesOnlyItsReport() throws Exception {
        Path f = dir.resolve("GROWING.md");
        Files.writeString(f, report("2026-11-01", "earlier"));
        ResultsFile.write(f, report("2026-11-02", "part"));
        ResultsFile.write(f, report("2026-11-02", "part and more"));
        String[] parts = ResultsFile.split(Files.readString(f));
        assertTrue(parts[0].contains("part and more"));
        assertTrue(parts[2].contains("earlier") && !parts[2].contains("```\npart\n```"), parts[2]);
    }

    @Test
    void theFirstRunHasNoHistory() throws Exception {
        Path f = dir.resolve("sub").resolve("NEW.md");
        ResultsFile.write(f, report("2026-11-02", "first"));
        assertEquals(-1, Files.readString(f).indexOf(ResultsFile.HISTORY));
    }

    @Test
    void wrapped_breaksLongProseAtSpaces_keepsTableRowsAndTheWords() {
        String prose = "word ".repeat(100).strip();
        String row = "| " + "cell | ".repeat(100);
        String item = "- " + "item ".repeat(60).strip();
        String text = prose + "\n" + row + "\n" + item + "\n```\n" + "1:0.5 ".repeat(60).strip() + "\n```";
        String out = ResultsFile.wrapped(text);
        for (String line : out.split("\n")) {
            assertTrue(line.length() <= ResultsFile.WIDTH || line.equals(row), "a long line: " + line);
        }
        assertTrue(out.contains("\n" + row + "\n"), "a table row is one line");
        assertEquals(text.replaceAll("\\s+", " "), out.replaceAll("\\s+", " "), "nothing but whitespace changes");
        assertTrue(out.lines().anyMatch(l -> l.startsWith("  item")), "a list item's continuation is indented under it");
        assertEquals(out, ResultsFile.wrapped(out), "wrapping twice changes nothing");
    }
}
