package io.slagate.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who is who, across sections: a customer proven by the gateway's authentication and not by a header it
 * would ignore, a client certificate with a trust store to check it, connection groups that are really
 * applied, gateway bindings naming real accounts. {@link #notes} says what a start would only warn about.
 */
final class IdentityChecks {
    private IdentityChecks() {
    }

    static void check(ConfigNode top, GatewaySettings gateway, List<ServerConfig> servers, ClassificationConfig classification,
                      BusSettings bus) {
        AuthenticationSettings auth = gateway.authentication();
        if (auth.on() && classification.customerHeader() != null) {
            top.problem("classification.customerFrom", "header:" + classification.customerHeader(), "is not used when "
                    + "gateway.authentication is set (the customer is the authenticated identity); remove it");
        }
        if (auth.clientCertificate() != null && (gateway.tls() == null || gateway.tls().trustStore() == null)) {
            top.problem("gateway.authentication.clientCertificate", auth.clientCertificate(), "needs gateway.tls with a "
                    + "trustStore (the certificates client certificates are checked against)");
        }
        for (int i = 0; i < servers.size(); i++) {
            ServerConfig s = servers.get(i);
            UpstreamReuse reuse = gateway.upstream().reuse(s.pool());
            if (s.url() != null && "https".equals(s.url().getScheme()) && reuse != UpstreamReuse.SHARED) {
                String key = gateway.upstream().perPool().containsKey(s.pool()) ? "gateway.upstreamReuse." + s.pool()
                        : "gateway.upstreamReuse";
                top.problem(key, reuse.text(), "cannot be applied to https server " + s.id() + " (its connections are pooled "
                        + "by the TLS client, shared by every request); use shared for its pool, or reach it over http");
            }
        }
        if (!bus.accounts().isEmpty()) {
            Set<String> gatewayRole = new TreeSet<>();
            bus.accounts().stream().filter(a -> a.role().equals("gateway")).forEach(a -> gatewayRole.add(a.user()));
            for (String account : bus.gatewayAccounts().keySet()) {
                if (!gatewayRole.contains(account)) {
                    top.problem("bus.gatewayAccounts." + account, bus.gatewayAccounts().get(account), "names no bus account "
                            + "with the gateway role; gateway accounts: " + (gatewayRole.isEmpty() ? "none" : String.join(", ", gatewayRole)));
                }
            }
        }
    }

    static boolean namesCustomers(ClassificationConfig cl) {
        return !cl.subscriptions().isEmpty() || !cl.customerQuotas().isEmpty() || !cl.gradeQuotas().isEmpty()
                || cl.rules().stream().anyMatch(r -> !r.customer().equals("*"));
    }

    /**
     * The warning for a broker others reach with one account allowed everything (null when there is none): whoever holds
     * it may publish the customers' credentials to every gateway, and read every hash.
     */
    static String singleAccount(BusSettings bus) {
        return bus.listen().isEmpty() || !bus.accounts().isEmpty() ? null : ConfigCheck.SINGLE_BUS_ACCOUNT;
    }

    /** What a start warns about, as check-config shows it: names claimed and not proven, and who may speak for which gateway. */
    static List<String> notes(SlagateConfig c) {
        List<String> notes = new ArrayList<>();
        if (!c.gateway().authentication().on() && namesCustomers(c.classification())) {
            notes.add("customer names are claimed, not proven: subscriptions, rules or quotas name customers, and without "
                    + "gateway.authentication any client can send any name (see docs/GATEWAY.md, Authentication)");
        }
        BusSettings bus = c.bus();
        String single = singleAccount(bus);
        if (single != null) {
            notes.add(single);
        }
        if (!bus.accounts().isEmpty()) {
            if (bus.gatewayAccounts().isEmpty()) {
                notes.add("bus.gatewayAccounts is empty: no gateway account may join (each account must be bound to the gateway ids it speaks for)");
            }
            for (Map.Entry<String, List<String>> b : bus.gatewayAccounts().entrySet()) {
                notes.add("bus account " + b.getKey() + " may speak for gateway(s) " + String.join(", ", b.getValue()));
            }
        }
        return notes;
    }
}
