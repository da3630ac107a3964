package io.slagate.config;

import java.util.List;
import java.util.Map;

/**
 * How a component reaches the control bus (ActiveMQ).
 *
 * @param url      the broker URL: {@code vm://slagate} for the embedded broker, or e.g.
 *                 {@code failover:(tcp://broker1:61616,tcp://broker2:61616)} for an external one
 * @param embedded whether this process runs the broker (the single-JVM default)
 * @param listen   the embedded broker's TCP connector for other processes, or empty for none
 * @param user     broker user name, or null
 * @param password broker password, or null; read from the environment variable named by
 *                 {@code passwordEnv} so that no secret sits in a configuration file
 * @param accounts the accounts of the broker this process runs, with their roles (authorization);
 *                 empty: only {@code user} (if set), allowed everything
 * @param tls      key and trust stores for {@code ssl://} listeners and URLs, or null
 * @param gatewayAccounts bus account → the gateway ids it may speak for (read by the resource
 *                 manager and the console); empty: one gateway id at a time per account
 * @param network  the peers of the broker this process runs (a network of brokers: every slagate topic is
 *                 forwarded to each, with the senders' accounts kept), e.g. {@code tcp://broker2:61616}; empty: none
 */
public record BusSettings(String url, boolean embedded, String listen, String user, String password,
                          List<BusAccount> accounts, BusTls tls,
                          Map<String, List<String>> gatewayAccounts, List<String> network) {
    public BusSettings(String url, boolean embedded, String listen, String user, String password,
                       List<BusAccount> accounts, BusTls tls, Map<String, List<String>> gatewayAccounts) {
        this(url, embedded, listen, user, password, accounts, tls, gatewayAccounts, List.of());
    }

    public BusSettings(String url, boolean embedded, String listen, String user, String password) {
        this(url, embedded, listen, user, password, List.of(), null);
    }

    public BusSettings(String url, boolean embedded, String listen, String user, String password,
                       List<BusAccount> accounts, BusTls tls) {
        this(url, embedded, listen, user, password, accounts, tls, Map.of());
    }

    public BusSettings(String url, boolean embedded, String listen, String user, String password,
                       List<BusAccount> accounts) {
        this(url, embedded, listen, user, password, accounts, null);
    }

    public BusSettings {
        accounts = accounts == null ? List.of() : List.copyOf(accounts);
        gatewayAccounts = gatewayAccounts == null ? Map.of() : Map.copyOf(gatewayAccounts);
        network = network == null ? List.of() : List.copyOf(network);
    }

    /** The same settings with {@code user} and {@code password} as this process's credentials. */
    public BusSettings withCredentials(String user, String password) {
        return new BusSettings(url, embedded, listen, user, password, accounts, tls, gatewayAccounts, network);
    }

    @Override
    public String toString() {
        return "BusSettings[url=" + url + ", embedded=" + embedded + ", listen=" + listen + ", user=" + user
                + ", password=" + (password == null ? "none" : "***") + ", tls=" + tls + "]";
    }
}
