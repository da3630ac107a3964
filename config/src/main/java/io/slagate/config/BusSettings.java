package io.slagate.config;

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
 */
public record BusSettings(String url, boolean embedded, String listen, String user, String password,
                          java.util.List<BusAccount> accounts, BusTls tls,
                          java.util.Map<String, java.util.List<String>> gatewayAccounts) {
    public BusSettings(String url, boolean embedded, String listen, String user, String password) {
        this(url, embedded, listen, user, password, java.util.List.of(), null);
    }

    public BusSettings(String url, boolean embedded, String listen, String user, String password,
                       java.util.List<BusAccount> accounts, BusTls tls) {
        this(url, embedded, listen, user, password, accounts, tls, java.util.Map.of());
    }

    public BusSettings(String url, boolean embedded, String listen, String user, String password,
                       java.util.List<BusAccount> accounts) {
        this(url, embedded, listen, user, password, accounts, null);
    }

    public BusSettings {
        accounts = accounts == null ? java.util.List.of() : java.util.List.copyOf(accounts);
        gatewayAccounts = gatewayAccounts == null ? java.util.Map.of() : java.util.Map.copyOf(gatewayAccounts);
    }

    /** The same settings with {@code user} and {@code password} as this process's credentials. */
    public BusSettings withCredentials(String user, String password) {
        return new BusSettings(url, embedded, listen, user, password, accounts, tls, gatewayAccounts);
    }

    @Override
    public String toString() {
        return "BusSettings[url=" + url + ", embedded=" + embedded + ", listen=" + listen + ", user=" + user
                + ", password=" + (password == null ? "none" : "***") + ", tls=" + tls + "]";
    }
}
