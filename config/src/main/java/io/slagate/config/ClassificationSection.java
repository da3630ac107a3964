package io.slagate.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The {@code classification:} section: rules, subscriptions and where the customer comes from. */
final class ClassificationSection {
    private ClassificationSection() {
    }

    static ClassificationConfig classification(ConfigNode c, List<TrafficClassConfig> classes) {
        Set<String> classNames = new HashSet<>();
        classes.forEach(tc -> classNames.add(tc.name()));
        String from = c.string("customerFrom", "basic");
        String header = null;
        if (from != null && from.regionMatches(true, 0, "header:", 0, 7) && from.length() > 7) {
            header = from.substring(7).trim();
            if (!ConfigLoader.HEADER.matcher(header).matches()) {
                c.problem("customerFrom", from, "names no valid header; write header:NAME with NAME an HTTP header name");
            }
        } else if (from != null && !from.equalsIgnoreCase("basic")) {
            c.problem("customerFrom", from, "is not allowed; use basic (the HTTP Basic user name) or header:NAME");
        }
        Map<String, Map<String, String>> subscriptions = subscriptions(c);
        String defaultGrade = c.string("defaultGrade", "standard");
        ConfigLoader.safeText(c, "defaultGrade", defaultGrade);
        List<RuleConfig> rules = new ArrayList<>();
        for (ConfigNode r : c.list("rules")) {
            String cls = r.requiredString("class");
            if (cls != null && !classNames.isEmpty() && !classNames.contains(cls)) {
                r.problem("class", cls, "is not a configured class; classes: " + String.join(", ", ConfigLoader.sorted(classNames)));
            }
            RuleConfig rule = new RuleConfig(r.string("customer", "*"), r.string("service", "*"),
                    r.string("operation", "*"), r.string("grade", "*"), cls);
            ConfigLoader.safeText(r, "customer", rule.customer());
            ConfigLoader.safeText(r, "service", rule.service());
            ConfigLoader.safeText(r, "operation", rule.operation());
            ConfigLoader.safeText(r, "grade", rule.grade());
            rules.add(rule);
        }
        String def = c.string("defaultClass", classes.isEmpty() ? null : classes.get(classes.size() - 1).name());
        if (def != null && !classNames.isEmpty() && !classNames.contains(def)) {
            c.problem("defaultClass", def, "is not a configured class; classes: " + String.join(", ", ConfigLoader.sorted(classNames)));
        }
        Set<String> grades = new TreeSet<>();
        grades.add(defaultGrade);
        subscriptions.values().forEach(byService -> grades.addAll(byService.values()));
        rules.forEach(r -> grades.add(r.grade()));
        grades.remove("*");
        return new ClassificationConfig(header, subscriptions, defaultGrade, rules, def,
                QuotasSection.quotas(c, "grades", grades, "grade"),
                QuotasSection.quotas(c, "customers", subscriptions.keySet(), "customer"));
    }

    /** {@code classification.subscriptions}: per customer, each service's grade (each customer's map non-empty). */
    private static Map<String, Map<String, String>> subscriptions(ConfigNode c) {
        Map<String, Map<String, String>> subscriptions = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigNode> customer : c.entries("subscriptions").entrySet()) {
            Map<String, String> byService = new LinkedHashMap<>();
            ConfigLoader.safeText(c.child("subscriptions"), customer.getKey(), customer.getKey());
            for (Map.Entry<String, ConfigNode> service : customer.getValue().entries().entrySet()) {
                String grade = service.getValue().asString();
                ConfigLoader.safeText(customer.getValue(), service.getKey(), service.getKey());
                ConfigLoader.safeText(customer.getValue(), service.getKey(), grade);
                if (grade != null) {
                    byService.put(service.getKey(), grade);
                }
            }
            if (byService.isEmpty()) {
                c.child("subscriptions").problem(customer.getKey(), "(empty)",
                        "must map services to grades, e.g. {\"/services/StockUtility\": gold, \"*\": silver}");
            }
            subscriptions.put(customer.getKey(), Map.copyOf(byService));
        }
        return subscriptions;
    }
}
