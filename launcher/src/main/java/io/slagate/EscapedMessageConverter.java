package io.slagate;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * A log line's message with every control character escaped and its length bounded, so that no value
 * a client, a server or the bus sent (a user name, a SOAPAction, a path, a gateway id) can start a
 * forged line, move the terminal's cursor or flood the log. Used by the text log format as
 * {@code %safeMsg}, in place of {@code %msg}; the JSON format escapes by its own encoding.
 */
public final class EscapedMessageConverter extends ClassicConverter {
    /** Longest message kept; the rest is dropped and its length said. */
    static final int MAX_CHARS = 8192;

    @Override
    public String convert(ILoggingEvent event) {
        return escape(event.getFormattedMessage());
    }

    /** {@code s} with CR, LF, TAB as {@code \r \n \t}, other control characters (and U+2028/9, U+0085) as {@code \\uXXXX}, bounded. */
    static String escape(String s) {
        if (s == null) {
            return "null";
        }
        int n = Math.min(s.length(), MAX_CHARS);
        int i = 0;
        while (i < n && !special(s.charAt(i))) {
            i++;
        }
        if (i == n && n == s.length()) {
            return s; // the usual case: nothing to escape, no copy
        }
        StringBuilder b = new StringBuilder(n + 16).append(s, 0, i);
        for (; i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (special(c)) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        if (s.length() > n) {
            b.append("…(").append(s.length() - n).append(" more characters)");
        }
        return b.toString();
    }

    private static boolean special(char c) {
        return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }
}
