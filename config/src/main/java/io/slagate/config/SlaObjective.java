package io.slagate.config;

import java.time.Duration;
import java.util.Locale;

/**
 * A class's service-level objective as a contract states it: the share of its requests that must be good (answered
 * within the class's goal threshold) over a period, a rolling one ({@code 30d}) or the calendar month. What is left of
 * {@code 1 − fraction} is the period's error budget.
 *
 * @param fraction      the share of requests that must be good, in (0, 1), e.g. 0.99
 * @param rolling       the rolling period, or null for the calendar month
 */
public record SlaObjective(double fraction, Duration rolling) {
    /** A 30-day month: what burn rates are stated against when the period is the calendar month. */
    public static final Duration MONTH = Duration.ofDays(30);

    public SlaObjective {
        if (!(fraction > 0 && fraction < 1)) {
            throw new IllegalArgumentException("an objective is a share in (0, 1): " + fraction);
        }
    }

    public boolean calendarMonth() {
        return rolling == null;
    }

    /** The error budget: the share of requests that may be bad over the period. */
    public double budget() {
        return 1 - fraction;
    }

    /** The period's length for burn rates: the rolling period, or 30 days for the calendar month. */
    public Duration length() {
        return rolling == null ? MONTH : rolling;
    }

    /** As a file writes it: {@code 99.9%}. */
    public String percentText() {
        String s = String.format(Locale.ROOT, "%.6f", fraction * 100).replaceAll("0+$", "").replaceAll("\\.$", "");
        return s + "%";
    }

    /** The period as a file writes it: {@code 30d} or {@code calendar-month}. */
    public String periodText() {
        if (rolling == null) {
            return "calendar-month";
        }
        long h = rolling.toHours();
        return h % 24 == 0 ? h / 24 + "d" : h + "h";
    }
}
