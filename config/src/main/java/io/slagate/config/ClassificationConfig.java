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
 */
public record ClassificationConfig(String customerHeader, Map<String, Map<String, String>> subscriptions,
                                   String defaultGrade, List<RuleConfig> rules, String defaultClass) {
    public ClassificationConfig {
        subscriptions = Map.copyOf(subscriptions);
        rules = List.copyOf(rules);
    }
}
