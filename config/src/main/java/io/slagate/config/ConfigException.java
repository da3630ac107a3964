package io.slagate.config;

import java.util.List;

/**
 * A configuration that cannot be used. The message lists every problem found, one per line, each
 * naming the source, the key, the value and what is allowed, so that an operator can fix the file
 * in one pass.
 */
public final class ConfigException extends RuntimeException {
    private final List<String> problems;

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
        for (String p : problems) {
            sb.append(System.lineSeparator()).append("  - ").append(p);
        }
        return sb.toString();
    }
}
