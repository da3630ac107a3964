package io.slagate;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;

/** The thread's name escaped as a message is ({@code %safeThread}): a name can carry an id a peer chose. */
public final class EscapedThreadConverter extends ClassicConverter {
    @Override
    public String convert(ILoggingEvent event) {
        return EscapedMessageConverter.escape(event.getThreadName());
    }
}
