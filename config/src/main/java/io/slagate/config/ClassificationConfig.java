package io.slagate.config;

import java.util.List;
import java.util.Map;

/**
 * How a request becomes a traffic class.
 *
 * @param customerHeader the header naming the customer, or null to take the HTTP Basic user name
 * @param subscriptions  customer → service (path, or {@code *}) → subscription grade
 * @param defaultGrade   the grade of a customer/service without a subscription
 * @param rules          tried in order, first match wins
 * @param defaultClass   the class of a request no rule matches
 * @param gradeQuotas    grade → the quota each customer of that grade has across the gateways
 * @param customerQuotas customer → its quota, replacing its grade's
 */
public record ClassificationConfig(String customerHeader, Map<String, Map<String, String>> subscriptions,
                                   String defaultGrade, List<RuleConfig> rules, String defaultClass,
                                   Map<String, Quota> gradeQuotas, Map<String, Quota> customerQuotas) {
    public ClassificationConfig {
        subscriptions = Map.copyOf(subscriptions);
        rules = List.copyOf(rules);
        gradeQuotas = Map.copyOf(gradeQuotas);
        customerQuotas = Map.copyOf(customerQuotas);
    }

    public ClassificationConfig(String customerHeader, Map<String, Map<String, String>> subscriptions,
                                String defaultGrade, List<RuleConfig> rules, String defaultClass) {
        this(customerHeader, subscriptions, defaultGrade, rules, defaultClass, Map.of(), Map.of());
    }

    /** Whether any quota is configured. */
    public boolean hasQuotas() {
        return !gradeQuotas.isEmpty() || !customerQuotas.isEmpty();
    }

    /** The quota of a bucket key ({@link Quota#customerKey}, {@link Quota#gradeKey}), or null when none is configured for it. */
    public Quota quotaOf(String key) {
        if (key.startsWith("customer:")) {
            return customerQuotas.get(key.substring(9));
        }
        if (key.startsWith("grade:")) {
            int end = key.indexOf(':', 6);
            return end < 0 ? null : gradeQuotas.get(key.substring(6, end));
        }
        return null;
    }

    /**
     * The subscription grade a customer's objectives are judged by: its subscription's grade for every service
     * ({@code *}), else the one grade its subscription names, else (none, or several) the default grade.
     */
    public String gradeOf(String customer) {
        Map<String, String> sub = customer == null ? null : subscriptions.get(customer);
        if (sub == null || sub.isEmpty()) {
            return defaultGrade;
        }
        String all = sub.get("*");
        if (all != null) {
            return all;
        }
        java.util.Set<String> grades = new java.util.HashSet<>(sub.values());
        return grades.size() == 1 ? grades.iterator().next() : defaultGrade;
    }
}
