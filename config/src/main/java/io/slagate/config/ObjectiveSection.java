package io.slagate.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/** A class's {@code objective:} and {@code period:}: the share of its requests that must be good, and over what. */
final class ObjectiveSection {
    private ObjectiveSection() {
    }

    /** The class's objective, or null when it states none; a class without a goal cannot state one. */
    static SlaObjective objective(ConfigNode c, boolean discretionary) {
        String text = c.string("objective", null);
        String period = c.string("period", "30d");
        if (text == null) {
            if (!c.child("period").isMissing()) {
                c.problem("period", period, "needs an objective beside it, e.g. objective: 99%");
            }
            if (!c.child("customerObjectives").isMissing()) {
                c.problem("customerObjectives", "a customer's objective", "needs the class's objective beside it (everyone else's)");
            }
            if (!c.child("gradeObjectives").isMissing()) {
                c.problem("gradeObjectives", "a grade's objective", "needs the class's objective beside it (everyone else's)");
            }
            return null;
        }
        if (discretionary) {
            c.problem("objective", text, "is not allowed on the discretionary class: it has no goal to meet");
            return null;
        }
        Double fraction = fraction(text);
        if (fraction == null) {
            c.problem("objective", text, "is not a share of requests; write e.g. 99%, 99.9% or 0.995 (above 0, below 100%)");
            return null;
        }
        if (period == null) {
            return null;
        }
        Map<String, Double> customers = shares(c, "customerObjectives");
        Map<String, Double> grades = shares(c, "gradeObjectives");
        if (period.equals("calendar-month")) {
            return new SlaObjective(fraction, null, customers, grades);
        }
        Duration d = ConfigNode.parseDuration(new com.fasterxml.jackson.databind.node.TextNode(period));
        if (d == null || d.compareTo(Duration.ofHours(1)) < 0 || d.compareTo(Duration.ofDays(400)) > 0) {
            c.problem("period", period, "is not a period; write a rolling one from 1h to 400d (30d, 7d) or calendar-month");
            return null;
        }
        return new SlaObjective(fraction, d, customers, grades);
    }

    /** {@code customerObjectives} or {@code gradeObjectives}: a customer's own share for the class, or a grade's, by name. */
    private static Map<String, Double> shares(ConfigNode c, String key) {
        Map<String, Double> out = new TreeMap<>();
        c.entries(key).forEach((name, n) -> {
            String text = n.asString();
            Double f = text == null ? null : fraction(text);
            if (text != null && f == null) {
                n.problemHere("\"" + text + "\" is not a share of requests; write e.g. 99.9%");
            } else if (f != null) {
                out.put(name, f);
            }
        });
        return out;
    }

    private static Double fraction(String text) {
        try {
            // decimal arithmetic: 99.9% is 0.999, not 0.9990000000000001
            double v = text.endsWith("%") ? new BigDecimal(text.substring(0, text.length() - 1).trim()).movePointLeft(2).doubleValue()
                    : new BigDecimal(text).doubleValue();
            return v > 0 && v < 1 ? v : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
