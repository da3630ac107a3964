package io.slagate;

import io.slagate.config.SlaObjective;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import java.util.Locale;

/**
 * Every class's objective as OpenSLO (v1) documents, for tools that read them (Sloth, Pyrra, OpenSLO's own): one
 * {@code SLO} per class's objective, per grade's and per customer's own, each a ratio of slagate's good to total
 * counters in Prometheus, counted by occurrences over the period (rolling, or the calendar month). The selectors are the
 * same as {@link SloRules}'s alerts': each customer is judged by one of them.
 */
final class OpenSlo {
    private OpenSlo() {
    }

    static String of(SlagateConfig config) {
        StringBuilder b = new StringBuilder("# OpenSLO v1 documents for slagate's objectives (bin/slagate slo-rules --openslo)\n");
        int n = 0;
        for (TrafficClassConfig c : config.classes()) {
            SlaObjective o = c.objective();
            if (o == null) {
                continue;
            }
            for (SloRules.Selection s : SloRules.selections(config, c, o)) {
                doc(b, c.name(), o, s);
                n++;
            }
        }
        if (n == 0) {
            b.append("# no class states an objective\n");
        }
        return b.toString();
    }

    private static void doc(StringBuilder b, String className, SlaObjective o, SloRules.Selection s) {
        String name = dnsLabel(className + "-" + s.contract());
        b.append("---\n")
                .append("apiVersion: openslo/v1\n")
                .append("kind: SLO\n")
                .append("metadata:\n")
                .append("  name: ").append(name).append('\n')
                .append("  displayName: ").append(quoted(className + ", " + s.contract() + ": " + SlaObjective.percentText(s.fraction())
                        + " within the class's goal")).append('\n')
                .append("spec:\n")
                .append("  service: slagate\n")
                .append("  budgetingMethod: Occurrences\n")
                .append("  timeWindow:\n");
        if (o.calendarMonth()) {
            b.append("    - duration: 1M\n")
                    .append("      isRolling: false\n")
                    .append("      calendar:\n")
                    .append("        startTime: \"2020-01-01 00:00:00\"\n")
                    .append("        timeZone: UTC\n");
        } else {
            b.append("    - duration: ").append(o.periodText()).append('\n')
                    .append("      isRolling: true\n");
        }
        b.append("  indicator:\n")
                .append("    metadata:\n")
                .append("      name: ").append(name).append("-good-ratio\n")
                .append("    spec:\n")
                .append("      ratioMetric:\n")
                .append("        counter: true\n")
                .append("        good:\n");
        source(b, "slagate_sla_requests_good_total", s.matchers());
        b.append("        total:\n");
        source(b, "slagate_sla_requests_total", s.matchers());
        b.append("  objectives:\n")
                .append("    - displayName: ").append(quoted(SlaObjective.percentText(s.fraction()))).append('\n')
                .append("      target: ").append(String.format(Locale.ROOT, "%s", s.fraction())).append('\n');
    }

    private static void source(StringBuilder b, String counter, String matchers) {
        b.append("          metricSource:\n")
                .append("            type: Prometheus\n")
                .append("            spec:\n")
                .append("              query: ").append(quoted("sum(" + counter + "{" + matchers + "})")).append('\n');
    }

    /** A name as OpenSLO's metadata wants it: lower-case letters, digits and '-', at most 63 characters. */
    static String dnsLabel(String s) {
        String v = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("-+", "-").replaceAll("^-|-$", "");
        if (v.length() > 63) {
            v = v.substring(0, 54) + "-" + Integer.toHexString(s.hashCode() & 0xfffffff);
        }
        return v.isEmpty() ? "slo" : v;
    }

    private static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
