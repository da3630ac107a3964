package io.slagate.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code classification.grades} and {@code classification.customers}: subscription quotas,
 * {@code {rate: 100/s, burst: 50}} per grade (each customer of the grade gets that rate) or per
 * customer (which replaces its grade's).
 */
final class QuotasSection {
    private static final Pattern RATE = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(?:/\\s*(s|sec|second|min|minute))?\\s*");
    static final double MAX_RATE = 1e7;

    private QuotasSection() {
    }

    /** The quotas under {@code key}, whose names must be among {@code known} ({@code what}: grade or customer). */
    static Map<String, Quota> quotas(ConfigNode c, String key, Set<String> known, String what) {
        Map<String, Quota> out = new LinkedHashMap<>();
        ConfigNode section = c.child(key);
        for (Map.Entry<String, ConfigNode> e : c.entries(key).entrySet()) {
            ConfigNode q = e.getValue();
            if (!known.contains(e.getKey())) {
                section.problem(e.getKey(), e.getKey(), "is not a " + what + " of this configuration; " + what + "s: "
                        + String.join(", ", ConfigLoader.sorted(known)));
                continue;
            }
            String text = q.requiredString("rate");
            if (text == null) {
                continue;
            }
            double rate = rate(text);
            if (!(rate > 0) || rate > MAX_RATE) {
                q.problem("rate", text, "must be a rate above 0 and at most 10000000/s, written 100/s, 6000/min or 100 (per second)");
                continue;
            }
            int burst = q.integer("burst", (int) Math.max(1, Math.ceil(rate)), 1, 100_000_000);
            out.put(e.getKey(), new Quota(rate, burst, text));
        }
        return out;
    }

    /** Requests per second of {@code 100/s}, {@code 6000/min} or {@code 100}; NaN when it does not parse. */
    static double rate(String text) {
        Matcher m = RATE.matcher(text);
        if (!m.matches()) {
            return Double.NaN;
        }
        double n = Double.parseDouble(m.group(1));
        return m.group(2) != null && m.group(2).startsWith("min") ? n / 60 : n;
    }
}
