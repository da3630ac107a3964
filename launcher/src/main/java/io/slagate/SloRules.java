package io.slagate;

import io.slagate.config.SlaObjective;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.TreeMap;
import java.util.Set;
import java.util.Map;

/**
 * Prometheus recording and alerting rules for every class's objective, multi-window and multi-burn-rate as the SRE
 * workbook states them: the error ratio per class and customer over 5 m, 30 m, 1 h, 6 h and 3 d (summed over every
 * gateway), and per objective three alerts, each firing only while a long and a short window both burn: fast (1 h and
 * 5 m at 14.4 times the error ratio the budget allows: 2% of a 30-day budget in an hour), slow (6 h and 30 m at 6
 * times: 5% of it in six hours) and the budget going (3 d and 6 h at once the allowed ratio: spent as fast as the period
 * allows). A burn rate is the error ratio over the budget, whatever the period; what it leaves of a period of another
 * length is said in the alert (a calendar month counts as 30 days).
 */
final class SloRules {
    /** The windows of the recording rules. */
    static final List<String> WINDOWS = List.of("5m", "30m", "1h", "6h", "3d");

    /** One alert: its name's suffix, its long and short windows, the burn rate and the severity. */
    record Burn(String name, String longWindow, String shortWindow, double rate, String severity) {
    }

    static final List<Burn> BURNS = List.of(
            new Burn("Fast", "1h", "5m", 14.4, "page"),
            new Burn("Slow", "6h", "30m", 6, "page"),
            new Burn("Budget", "3d", "6h", 1, "ticket"));

    private SloRules() {
    }

    /** The rules file for {@code config}'s objectives (its groups empty of alerts when no class states one). */
    static String of(SlagateConfig config) {
        StringBuilder b = new StringBuilder();
        b.append("# Prometheus rules for slagate's objectives (bin/slagate slo-rules): error ratios per class and customer,\n")
                .append("# and multi-window multi-burn-rate alerts per objective. Counters: slagate_sla_requests_total and\n")
                .append("# slagate_sla_requests_good_total, per gateway, class and customer.\n")
                .append("groups:\n")
                .append("  - name: slagate-sla-ratios\n")
                .append("    rules:\n");
        for (String w : WINDOWS) {
            b.append("      - record: ").append(record(w)).append('\n')
                    .append("        expr: |-\n")
                    .append("          1 - (\n")
                    .append("            sum by (class, customer) (rate(slagate_sla_requests_good_total[").append(w).append("]))\n")
                    .append("            /\n")
                    .append("            sum by (class, customer) (rate(slagate_sla_requests_total[").append(w).append("]))\n")
                    .append("          )\n");
        }
        b.append("  - name: slagate-sla-alerts\n")
                .append("    rules:");
        boolean any = false;
        for (TrafficClassConfig c : config.classes()) {
            SlaObjective o = c.objective();
            if (o == null) {
                continue;
            }
            any = true;
            for (Selection sel : selections(config, c, o)) {
                alerts(b, c.name(), sel.matchers(), o, sel.fraction(), sel.who(), sel.contract());
            }
        }
        if (!any) {
            b.append(" []\n");
        }
        return b.toString();
    }

    /**
     * Which customers one objective judges: the label selector of their counters, the share they must meet, who they are
     * for a summary, and the contract's name ({@code class}, {@code grade G}, or the customer's own).
     */
    record Selection(String contract, String matchers, double fraction, String who) {
    }

    /**
     * A class's objectives as selections of customers: a customer with a contract of its own under its share; the
     * customers of a grade with an objective of its own under the grade's (the default grade's: everyone not subscribed
     * otherwise); everyone else under the class's. Each customer is in exactly one of them.
     */
    static List<Selection> selections(SlagateConfig config, TrafficClassConfig c, SlaObjective o) {
        List<Selection> out = new java.util.ArrayList<>();
        String cls = "class=\"" + promQuoted(c.name()) + "\"";
        String anyone = "{{ $labels.customer }}";
        String defaultGrade = config.classification().defaultGrade();
        Set<String> own = o.customers().keySet();
        // subscribed customers without a contract of their own, by the grade their objectives are judged by
        Map<String, Set<String>> byGrade = new TreeMap<>();
        for (String customer : config.classification().subscriptions().keySet()) {
            if (!own.contains(customer)) {
                byGrade.computeIfAbsent(config.classification().gradeOf(customer), g -> new TreeSet<>()).add(customer);
            }
        }
        Set<String> graded = new TreeSet<>(); // under a grade's objective (but the default grade's)
        Set<String> otherGrades = new TreeSet<>(); // subscribed to a grade other than the default
        byGrade.forEach((g, members) -> {
            if (!g.equals(defaultGrade)) {
                otherGrades.addAll(members);
                if (o.grades().containsKey(g)) {
                    graded.addAll(members);
                }
            }
        });
        for (Map.Entry<String, Double> g : o.grades().entrySet()) {
            if (g.getKey().equals(defaultGrade)) {
                Set<String> excluded = new TreeSet<>(own);
                excluded.addAll(otherGrades);
                out.add(new Selection("grade " + g.getKey(), cls + notIn(excluded), g.getValue(), anyone));
            } else if (byGrade.containsKey(g.getKey())) {
                out.add(new Selection("grade " + g.getKey(), cls + in(byGrade.get(g.getKey())), g.getValue(), anyone));
            }
        }
        if (o.grades().containsKey(defaultGrade)) { // the class's share is left to the other grades' customers
            Set<String> rest = new TreeSet<>(otherGrades);
            rest.removeAll(graded);
            if (!rest.isEmpty()) {
                out.add(new Selection("class", cls + in(rest), o.fraction(), anyone));
            }
        } else {
            Set<String> excluded = new TreeSet<>(own);
            excluded.addAll(graded);
            out.add(new Selection("class", cls + notIn(excluded), o.fraction(), anyone));
        }
        o.customers().forEach((customer, fraction) -> out.add(new Selection(customer,
                cls + ",customer=\"" + promQuoted(customer) + "\"", fraction, customer)));
        return out;
    }

    private static String in(Set<String> customers) {
        return ",customer=~\"" + String.join("|", customers.stream().map(SloRules::regexQuoted).toList()) + "\"";
    }

    private static String notIn(Set<String> customers) {
        return customers.isEmpty() ? "" : ",customer!~\"" + String.join("|", customers.stream().map(SloRules::regexQuoted).toList()) + "\"";
    }

    /**
     * The three alerts of one objective: {@code fraction} of the requests the {@code matchers} select over its period.
     * {@code contract} labels the rule ({@code class} for the class's objective, {@code grade G} for a grade's, else the
     * customer whose own it is), so that no two rules of a file share their name and labels.
     */
    private static void alerts(StringBuilder b, String className, String matchers, SlaObjective o, double fraction, String who,
                               String contract) {
        for (Burn burn : BURNS) {
            String t = number(burn.rate() * (1 - fraction));
            double hoursLeft = o.length().toHours() / burn.rate();
            String meaning = burn.rate() <= 1 ? "its budget is being spent as fast as the period allows, or faster"
                    : String.format(Locale.ROOT, "at this rate its budget is gone in %s", hoursLeft >= 48
                    ? number(Math.round(hoursLeft / 2.4) / 10.0) + " days" : number(Math.round(hoursLeft * 10) / 10.0) + " hours");
            b.append('\n')
                    .append("      - alert: SlagateSla").append(burn.name()).append("Burn\n")
                    .append("        expr: |-\n")
                    .append("          ").append(record(burn.longWindow())).append('{').append(matchers).append("} > ").append(t).append('\n')
                    .append("          and\n")
                    .append("          ").append(record(burn.shortWindow())).append('{').append(matchers).append("} > ").append(t).append('\n')
                    .append("        labels:\n")
                    .append("          severity: ").append(burn.severity()).append('\n')
                    .append("          class: ").append(quoted(className)).append('\n')
                    .append("          contract: ").append(quoted(contract)).append('\n')
                    .append("          objective: ").append(quoted(SlaObjective.percentText(fraction))).append('\n')
                    .append("        annotations:\n")
                    .append("          summary: ").append(quoted(who + " on class " + className + ": objective "
                            + SlaObjective.percentText(fraction) + " over " + o.periodText() + ", " + meaning)).append('\n')
                    .append("          description: ").append(quoted("error ratio over " + burn.longWindow() + " and "
                            + burn.shortWindow() + " above " + t + " (" + number(burn.rate()) + " times the budget's rate)"))
                    .append('\n');
        }
    }

    /** A label value inside PromQL's double quotes. */
    private static String promQuoted(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** A customer's name as a literal inside a PromQL regular expression (RE2), then inside double quotes. */
    private static String regexQuoted(String s) {
        return promQuoted(s.replaceAll("[\\\\.^$|?*+()\\[\\]{}]", "\\\\$0"));
    }

    static String record(String window) {
        return "slagate:sla_error_ratio:rate" + window;
    }

    private static String number(double v) {
        return String.format(Locale.ROOT, "%.6g", v).replaceAll("(\\.\\d*?)0+(e|$)", "$1$2").replaceAll("\\.(e|$)", "$1");
    }

    private static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
