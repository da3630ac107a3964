package io.slagate.gateway.classify;

import io.slagate.config.ClassificationConfig;
import io.slagate.config.RuleConfig;
import io.slagate.config.SlagateConfig;
import java.util.List;
import java.util.Map;

/**
 * Maps a request's ⟨customer, service, operation⟩ and the customer's subscription grade to a
 * traffic class (section III-A), from HTTP metadata only. The rule table is compiled once at load
 * time; a lookup allocates nothing and keeps no per-customer state, so any number of distinct
 * customers costs no memory.
 */
public final class Classifier {
    private final Rule[] rules;
    private final int defaultClass;
    private final Map<String, Map<String, String>> subscriptions;
    private final String defaultGrade;

    private record Rule(Pattern customer, Pattern service, Pattern operation, Pattern grade, int classIndex) {
    }

    public Classifier(SlagateConfig config) {
        ClassificationConfig c = config.classification();
        List<RuleConfig> rs = c.rules();
        rules = new Rule[rs.size()];
        for (int i = 0; i < rules.length; i++) {
            RuleConfig r = rs.get(i);
            rules[i] = new Rule(Pattern.compile(r.customer()), Pattern.compile(r.service()), Pattern.compile(r.operation()),
                    Pattern.compile(r.grade()), config.classIndex(r.className()));
        }
        defaultClass = config.classIndex(c.defaultClass());
        subscriptions = c.subscriptions();
        defaultGrade = c.defaultGrade();
    }

    /** The customer's subscription grade for this service: exact service, then {@code *}, then the default. */
    public String grade(String customer, String service) {
        if (customer == null) {
            return defaultGrade;
        }
        Map<String, String> byService = subscriptions.get(customer);
        if (byService == null) {
            return defaultGrade;
        }
        String g = service == null ? null : byService.get(service);
        if (g == null) {
            g = byService.get("*");
        }
        return g == null ? defaultGrade : g;
    }

    /** The class index for a request; null fields mean "absent" and match only {@code *}. */
    public int classify(String customer, String service, String operation) {
        String grade = grade(customer, service);
        for (Rule r : rules) {
            if (r.customer.matches(customer) && r.service.matches(service) && r.operation.matches(operation)
                    && r.grade.matches(grade)) {
                return r.classIndex;
            }
        }
        return defaultClass;
    }
}
