package io.slagate;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;

/**
 * A log line's exception, its messages escaped as {@link EscapedMessageConverter} escapes a message: an
 * exception's message often carries what a peer sent (a header, a host name, a bus field), and written raw it
 * could start a forged line. The stack frames keep their lines. Used by the text format as {@code %safeEx}.
 */
public final class EscapedThrowableConverter extends ThrowableProxyConverter {
    /** Causes written at most. */
    private static final int MAX_CAUSES = 16;

    @Override
    protected String throwableProxyToString(IThrowableProxy tp) {
        StringBuilder b = new StringBuilder(2048);
        String prefix = "";
        for (int depth = 0; tp != null && depth < MAX_CAUSES; depth++, tp = tp.getCause()) {
            b.append(prefix).append(tp.getClassName());
            if (tp.getMessage() != null) {
                b.append(": ").append(EscapedMessageConverter.escape(tp.getMessage()));
            }
            b.append(System.lineSeparator());
            StackTraceElementProxy[] frames = tp.getStackTraceElementProxyArray();
            int shown = frames.length - tp.getCommonFrames();
            for (int i = 0; i < shown; i++) {
                b.append('\t').append(EscapedMessageConverter.escape(frames[i].getSTEAsString())).append(System.lineSeparator());
            }
            if (tp.getCommonFrames() > 0) {
                b.append("\t... ").append(tp.getCommonFrames()).append(" common frames omitted").append(System.lineSeparator());
            }
            prefix = "Caused by: ";
        }
        return b.toString();
    }
}
