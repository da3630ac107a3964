package io.slagate.bus.message;


/**
 * A new configuration, published by the console after it validated and saved it: the whole YAML
 * text, so that components on other hosts need no shared file system. {@code version} increases
 * with every change; {@code user} names who made it.
 */
public record ConfigMessage(int schema, long version, String yaml, String user, long timestampMillis) implements BusMessage {
}
