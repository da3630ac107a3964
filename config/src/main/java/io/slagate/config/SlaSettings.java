package io.slagate.config;

/**
 * Where SLA attainment is kept: the {@code sla:} section.
 *
 * @param store    the JDBC URL of the store: an SQLite file by default (a relative path is resolved beside the
 *                 configuration file), or a PostgreSQL database ({@code jdbc:postgresql://host/db})
 * @param user     the store's user (PostgreSQL), or null
 * @param password the store's password, read from the environment variable {@code sla.passwordEnv} names, or null
 */
public record SlaSettings(String store, String user, String password) {
    public static final String DEFAULT_STORE = "jdbc:sqlite:slagate-sla.db";
    public static final SlaSettings DEFAULT = new SlaSettings(DEFAULT_STORE, null, null);

    @Override
    public String toString() {
        return "SlaSettings[store=" + store + ", user=" + user + ", password=" + (password == null ? null : "***") + "]";
    }
}
