package io.slagate.config;

import java.util.List;

/**
 * A configuration that cannot be used. The message lists every problem found, one per line, each
 * naming the source, the key, the value and what is allowed, so that an operator can fix the file
 * in one pass.
 */
public final class ConfigException extends RuntimeException {
    private final List<String> problems;
    /** Problems listed in the message at most. */
    static final int MAX_LISTED = 25;

    public ConfigException(String source, List<String> problems) {
        super(format(source, problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }

    private static String format(String source, List<String> problems) {
        StringBuilder sb = new StringBuilder();
        sb.append(source).append(": ").append(problems.size())
                .append(problems.size() == 1 ? " problem" : " problems");
        // bounded whatever the document: a hostile one with a million bad entries gives one screen, not a million lines
        int shown = Math.min(problems.size(), MAX_LISTED);
        for (String p : problems.subList(0, shown)) {
            sb.append(System.lineSeparator()).append("  - ").append(p.length() > 300 ? p.substring(0, 297) + "..." : p);
        }
        if (problems.size() > shown) {
            sb.append(System.lineSeparator()).append("  - and ").append(problems.size() - shown).append(" more");
        }
        return sb.toString();
    }
}
