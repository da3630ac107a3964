package io.slagate.config;


/**
 * A classification rule: patterns over ⟨customer, service, operation, grade⟩ and the class a
 * matching request gets. A pattern is an exact text or a glob with {@code *}; {@code *} alone
 * matches anything, including an absent value.
 */
public record RuleConfig(String customer, String service, String operation, String grade, String className) {
}
