package io.slagate.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An experiment's results file as a record: the latest run on top, and under {@value #HISTORY}
 * every earlier run of the same experiment and mode, newest first, each as it was written (its
 * headings moved down three levels). Writing a run moves the report it replaces into the history;
 * a run that rewrites its own file (a report that grows as the run goes) replaces only its own report.
 */
final class ResultsFile {
    static final String HISTORY = "## History";
    static final String INTRO = "Every earlier run of this experiment and mode, newest first, as it was written.";
    /** The files this process has written: rewriting one of them is the same run's report growing. */
    private static final Set<Path> WRITTEN = ConcurrentHashMap.newKeySet();

    private ResultsFile() {
    }

    /** A report's first lines: its title, and the command that produced it, where and when. */
    static StringBuilder header(String title, String command) {
        return new StringBuilder("# ").append(title).append("\n\nProduced by `").append(command).append("` on ")
                .append(Experiments.cores()).append(", ").append(LocalDate.now()).append(".\n\n");
    }

    static void write(Path file, CharSequence report) throws IOException {
        Path key = file.toAbsolutePath().normalize();
        String previous = Files.exists(file) ? Files.readString(file) : "";
        String[] parts = split(previous);
        StringBuilder out = new StringBuilder(report.toString().stripTrailing()).append("\n\n");
        boolean sameRun = !WRITTEN.add(key);
        String earlier = sameRun || parts[0].isBlank() ? "" : run(parts[0]);
        if (!earlier.isEmpty() || !parts[1].isBlank() || !parts[2].isBlank()) {
            out.append(HISTORY).append("\n\n").append(INTRO).append("\n\n");
            if (!parts[1].isBlank()) {
                out.append(parts[1].strip()).append("\n\n");
            }
            out.append(earlier).append(parts[2].strip()).append('\n');
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, wrapped(out.toString().stripTrailing()) + "\n");
    }

    /** The width prose is wrapped to (a table row is never wrapped: it is one line by Markdown's rules). */
    static final int WIDTH = 120;

    /**
     * The text with every line wider than {@link #WIDTH} broken at spaces, but table rows: a list item's continuation
     * indented under its text, a code block's not at all. A word wider than the width stays whole.
     */
    static String wrapped(String text) {
        StringBuilder out = new StringBuilder();
        boolean code = false;
        for (String line : text.split("\n", -1)) {
            if (line.startsWith("```")) {
                code = !code;
            }
            if (line.length() <= WIDTH || line.startsWith("|")) {
                out.append(line).append('\n');
                continue;
            }
            String indent = code ? "" : line.startsWith("- ") || line.startsWith("* ") ? "  " : "";
            int start = 0;
            while (line.length() - start > WIDTH - (start == 0 ? 0 : indent.length())) {
                int limit = start + WIDTH - (start == 0 ? 0 : indent.length());
                int space = line.lastIndexOf(' ', limit);
                if (space <= start) {
                    space = line.indexOf(' ', limit);
                    if (space < 0) {
                        break;
                    }
                }
                out.append(start == 0 ? "" : indent).append(line, start, space).append('\n');
                start = space + 1;
            }
            out.append(start == 0 ? "" : indent).append(line.substring(start)).append('\n');
        }
        return out.substring(0, out.length() - 1);
    }

    /**
     * {report on top, what the history says before its runs (a summary table, say; the standard line left out), the
     * history's runs} of a results file's text.
     */
    static String[] split(String text) {
        int at = text.startsWith(HISTORY + "\n") ? 0 : text.indexOf("\n" + HISTORY + "\n");
        if (at < 0) {
            return new String[] {text, "", ""};
        }
        String history = text.substring(text.indexOf(HISTORY, at) + HISTORY.length());
        int first = history.startsWith("\n### ") ? 0 : history.indexOf("\n### ");
        String intro = (first < 0 ? history : history.substring(0, first)).replace(INTRO, "");
        return new String[] {text.substring(0, at), intro.strip(), first < 0 ? "" : history.substring(first + 1)};
    }

    /** One earlier report as a history entry: headed by its "Produced by" line (else its title), its headings three levels down. */
    static String run(String report) {
        String[] lines = report.strip().split("\n", -1);
        String title = lines[0].replaceFirst("^#+\\s*", "");
        for (String l : lines) {
            if (l.startsWith("Produced by ")) {
                title = l.substring("Produced by ".length()).replaceFirst("\\.$", "");
                break;
            }
        }
        StringBuilder b = new StringBuilder("### Run: ").append(title).append("\n\n");
        for (int i = 1; i < lines.length; i++) {
            String l = lines[i];
            if (l.startsWith("#")) {
                int level = 0;
                while (level < l.length() && l.charAt(level) == '#') {
                    level++;
                }
                l = "#".repeat(Math.min(6, level + 3)) + l.substring(level);
            }
            b.append(l).append('\n');
        }
        return b.append('\n').toString();
    }
}
