package io.slagate.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code bus:} section: the broker URL, its listener, accounts, TLS and gateway bindings. */
final class BusSection {
    private BusSection() {
    }

    static BusSettings bus(ConfigNode b) {
        boolean embedded = b.bool("embedded", true);
        String url = b.string("url", "vm://slagate");
        if (url != null && !url.matches("(vm|tcp|ssl|nio|nio\\+ssl|failover|auto|auto\\+ssl):.*")) {
            b.problem("url", url, "is not an ActiveMQ URL; e.g. vm://slagate, tcp://host:61616, failover:(tcp://a:61616,tcp://b:61616)");
        }
        // in-VM only unless a listener is asked for: nothing of the control plane on the network by default
        String listen = b.child("listen").isMissing() ? "" : b.child("listen").asString();
        if (listen != null && !listen.isEmpty() && !listen.matches("(tcp|ssl|nio|nio\\+ssl|auto|auto\\+ssl)://.+:\\d+.*")) {
            b.problem("listen", listen, "is not a connector URL; e.g. tcp://127.0.0.1:61616, or \"\" for none");
        }
        String user = b.string("user", null);
        String password = ConfigLoader.secretFromEnv(b, b.string("passwordEnv", null));
        List<BusAccount> accounts = new ArrayList<>();
        for (ConfigNode a : b.list("accounts")) {
            String u = a.requiredString("user");
            String role = a.string("role", null);
            if (role == null || !BusAccount.ROLES.contains(role)) {
                a.problem("role", role, "is required; use one of: " + String.join(", ", BusAccount.ROLES));
            }
            accounts.add(new BusAccount(u, role, ConfigLoader.secretFromEnv(a, a.requiredString("passwordEnv"))));
        }
        BusTls tls = b.child("tls").isMissing() ? null : busTls(b.object("tls"));
        Map<String, List<String>> gatewayAccounts = gatewayAccounts(b.object("gatewayAccounts"));
        if (listen != null && !listen.isEmpty() && embedded && user == null && accounts.isEmpty()) {
            b.problem("listen", listen, "opens the broker to other processes without authentication; set bus.user with "
                    + "bus.passwordEnv (or bus.accounts with roles), or listen: \"\" for in-VM only");
        }
        if (listen != null && isSsl(listen) && embedded && (tls == null || tls.keyStore() == null)) {
            b.problem("listen", listen, "is a TLS listener; set bus.tls.keyStore (the broker's certificate and key)");
        }
        List<String> network = network(b);
        if (!network.isEmpty() && user == null) {
            b.problem("network", network, "needs bus.user with bus.passwordEnv: the admin account the bridges to the peers"
                    + " connect with (the same on every broker of the network)");
        }
        if (!b.bool("plaintext", false)) {
            clearOverNetwork(b, "url", url);
            clearOverNetwork(b, "listen", listen);
            network.forEach(peer -> clearOverNetwork(b, "network", peer));
        }
        return new BusSettings(url, embedded, listen == null ? "" : listen, user, password, accounts, tls, gatewayAccounts,
                network);
    }

    private static final Pattern ENDPOINT = Pattern.compile("([a-z][a-z0-9+]*)://(\\[[^\\]]*\\]|[^:/?,)\\s]*)");

    /**
     * A problem for each endpoint of {@code value} that would carry the bus (its password, every message) in clear to or
     * from another host: a plain TCP scheme on an address that is not the loopback.
     */
    private static void clearOverNetwork(ConfigNode b, String key, String value) {
        if (value == null) {
            return;
        }
        Matcher m = ENDPOINT.matcher(value);
        while (m.find()) {
            String scheme = m.group(1);
            String host = m.group(2);
            boolean clear = !scheme.contains("ssl") && !scheme.equals("vm") && !scheme.equals("static")
                    && !scheme.equals("failover") && !scheme.equals("discovery");
            if (clear && !host.isEmpty() && !AuthenticationSection.loopback(host)) {
                b.problem(key, value, "carries the bus password and every message in clear to or from " + host + ", which is not"
                        + " the loopback; use ssl:// with bus.tls (docs/OPERATIONS.md, the bus over TLS), or set"
                        + " bus.plaintext: true where that network is the operator's alone");
                return;
            }
        }
    }

    /** {@code bus.gatewayAccounts}: per bus account, the gateway ids it may speak for (each list non-empty). */
    private static Map<String, List<String>> gatewayAccounts(ConfigNode ga) {
        Map<String, List<String>> gatewayAccounts = new LinkedHashMap<>();
        for (String account : ga.entries().keySet()) {
            List<String> ids = new ArrayList<>();
            for (ConfigNode id : ga.list(account)) {
                String s = id.asString();
                if (s != null && !s.isEmpty()) {
                    ids.add(s);
                }
            }
            if (ids.isEmpty()) {
                ga.problem(account, "[]", "must list the gateway ids this account may speak for, e.g. [gw1, gw2]");
            }
            gatewayAccounts.put(account, ids);
        }
        return gatewayAccounts;
    }

    /** {@code bus.network}: the peer brokers' connector URLs. */
    private static List<String> network(ConfigNode b) {
        List<String> network = new ArrayList<>();
        for (ConfigNode peer : b.list("network")) {
            String u = peer.asString();
            if (u == null || !u.matches("(tcp|ssl|nio|nio\\+ssl)://.+:\\d+.*")) {
                b.problem("network", u, "must list the peer brokers' connector URLs, e.g. [tcp://broker2:61616]");
            } else {
                network.add(u);
            }
        }
        return network;
    }

    static boolean isSsl(String url) {
        return url.contains("ssl://") || url.startsWith("ssl:");
    }

    static BusTls busTls(ConfigNode t) {
        String keyStore = ConfigLoader.existingFile(t, "keyStore");
        String keyPassword = null;
        if (keyStore != null) {
            keyPassword = ConfigLoader.secretFromEnv(t, "keyStorePasswordEnv", t.requiredString("keyStorePasswordEnv"));
        }
        String trustStore = ConfigLoader.existingFile(t, "trustStore");
        String trustPassword = ConfigLoader.secretFromEnv(t, "trustStorePasswordEnv", t.string("trustStorePasswordEnv", null));
        return new BusTls(keyStore, t.string("keyStoreType", "PKCS12"), keyPassword,
                trustStore, t.string("trustStoreType", "PKCS12"), trustPassword);
    }
}
