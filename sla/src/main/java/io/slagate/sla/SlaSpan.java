package io.slagate.sla;

import io.slagate.config.SlaObjective;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A span of time a report covers, [from, to), and how it was asked for: the last so long, or a calendar month (UTC). */
public record SlaSpan(long fromMillis, long toMillis, String text) {
    private static final Pattern SINCE = Pattern.compile("([0-9]{1,9})([smhd])");

    /**
     * The span a report asks for: {@code since} (10m, 7d), or {@code month} (2026-11), or neither: the classes' period,
     * the calendar month so far if a class is judged by it, else the longest rolling period.
     */
    public static SlaSpan of(String since, String month, SlagateConfig config, long nowMillis) {
        if (since != null && month != null) {
            throw new IllegalArgumentException("since and month name two spans; give one");
        }
        if (since != null) {
            return since(seconds(since), nowMillis, since);
        }
        return month != null ? month(month) : period(config, nowMillis);
    }

    /** The last {@code seconds} up to now. */
    public static SlaSpan since(long seconds, long nowMillis, String text) {
        if (seconds <= 0 || seconds > SlaStore.HOUR_DAYS * 86_400L) {
            throw new IllegalArgumentException("since " + text + ": a span from 1 s to " + SlaStore.HOUR_DAYS + " days");
        }
        return new SlaSpan(nowMillis - seconds * 1000, nowMillis + 1, "since " + text);
    }

    /** A calendar month (UTC), {@code 2026-11}. */
    public static SlaSpan month(String text) {
        YearMonth m;
        try {
            m = YearMonth.parse(text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("month " + text + ": a month is written YYYY-MM, e.g. 2026-11");
        }
        long from = m.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
        long to = m.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
        return new SlaSpan(from, to, "month " + m);
    }

    /** {@code 10m}, {@code 7d}: in seconds. */
    static long seconds(String text) {
        Matcher m = SINCE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("since " + text + ": a span is a number and s, m, h or d, e.g. 10m or 7d");
        }
        long n = Long.parseLong(m.group(1));
        return n * switch (m.group(2)) {
            case "s" -> 1;
            case "m" -> 60;
            case "h" -> 3600;
            default -> 86_400;
        };
    }

    private static SlaSpan period(SlagateConfig config, long now) {
        long longest = 0;
        for (TrafficClassConfig tc : config.classes()) {
            SlaObjective o = tc.objective();
            if (o != null && o.calendarMonth()) {
                return month(YearMonth.now(ZoneOffset.UTC).toString());
            }
            if (o != null) {
                longest = Math.max(longest, o.rolling().toSeconds());
            }
        }
        long seconds = longest > 0 ? longest : SlaObjective.MONTH.toSeconds();
        return since(seconds, now, seconds / 86_400 + "d");
    }
}
