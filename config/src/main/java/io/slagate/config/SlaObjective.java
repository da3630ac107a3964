package io.slagate.config;

import java.time.Duration;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A class's service-level objective as a contract states it: the share of its requests that must be good (answered
 * within the class's goal threshold) over a period, a rolling one ({@code 30d}) or the calendar month. What is left of
 * {@code 1 − fraction} is the period's error budget. A customer's contract may state its own share for the class, over
 * the same period.
 *
 * @param fraction  the share of requests that must be good, in (0, 1), e.g. 0.99
 * @param rolling   the rolling period, or null for the calendar month
 * @param customers per customer with a contract of its own, its share (before its grade's and the class's)
 * @param grades    per subscription grade, the share of its customers without a contract of their own
 */
public record SlaObjective(double fraction, Duration rolling, Map<String, Double> customers, Map<String, Double> grades) {
    /** A 30-day month: what burn rates are stated against when the period is the calendar month. */
    public static final Duration MONTH = Duration.ofDays(30);

    public SlaObjective {
        grades = grades == null ? Map.of() : grades;
        if (!(fraction > 0 && fraction < 1) || customers.values().stream().anyMatch(f -> !(f > 0 && f < 1))
                || grades.values().stream().anyMatch(f -> !(f > 0 && f < 1))) {
            throw new IllegalArgumentException("an objective is a share in (0, 1): " + fraction + " " + customers + " " + grades);
        }
        customers = Collections.unmodifiableMap(new TreeMap<>(customers));
        grades = Collections.unmodifiableMap(new TreeMap<>(grades));
    }

    public SlaObjective(double fraction, Duration rolling, Map<String, Double> customers) {
        this(fraction, rolling, customers, Map.of());
    }

    public SlaObjective(double fraction, Duration rolling) {
        this(fraction, rolling, Map.of());
    }

    /**
     * The share a customer's requests of this class must meet: its own contract's, else its subscription grade's
     * ({@code grade}, null: none known), else the class's.
     */
    public double shareFor(String customer, String grade) {
        Double own = customer == null ? null : customers.get(customer);
        if (own != null) {
            return own;
        }
        Double g = grade == null ? null : grades.get(grade);
        return g != null ? g : fraction;
    }

    /** As a file writes a share: {@code 99.9%}. */
    public static String percentText(double fraction) {
        String s = String.format(Locale.ROOT, "%.6f", fraction * 100).replaceAll("0+$", "").replaceAll("\\.$", "");
        return s + "%";
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
        return percentText(fraction);
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
