package io.slagate.config;

/**
 * The gateway's access log: one line per finished request.
 *
 * @param to          {@code off}, {@code stdout} or a file path (rotated)
 * @param format      {@code json} (one JSON object per line), or a line with {@code %{field}} placeholders
 * @param maxFileSize a file is rolled over past this size (and every day)
 * @param maxHistory  rolled files kept (days)
 * @param startTrace  a request without {@code traceparent} gets one started here, forwarded to its server
 */
public record AccessLogSettings(String to, String format, long maxFileSize, int maxHistory, boolean startTrace) {
    public static final AccessLogSettings OFF = new AccessLogSettings("off", "json", 100L << 20, 7, false);

    /** The fields a format line may name, in the JSON line's order. */
    public static final String[] FIELDS = {"time", "client", "customer", "class", "service", "operation", "server",
            "status", "fault", "queue_ms", "service_ms", "total_ms", "bytes_in", "bytes_out", "trace_id"};

    public boolean on() {
        return !to.equals("off");
    }

    public boolean toFile() {
        return on() && !to.equals("stdout");
    }
}
