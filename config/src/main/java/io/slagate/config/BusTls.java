package io.slagate.config;


/**
 * TLS on the control bus ({@code ssl://} URLs).
 *
 * @param keyStore           the broker's certificate and key, for a broker this process runs with an
 *                           {@code ssl://} listener; null otherwise
 * @param keyStoreType       its type ({@code PKCS12} by default)
 * @param keyStorePassword   its password, read from the environment variable named by {@code keyStorePasswordEnv}
 * @param trustStore         the certificates a client trusts when it connects over {@code ssl://}; null: the
 *                           JDK's default trust (a broker certificate signed by a public authority)
 * @param trustStoreType     its type ({@code PKCS12} by default)
 * @param trustStorePassword its password, from {@code trustStorePasswordEnv}; null when the store has none
 */
public record BusTls(String keyStore, String keyStoreType, String keyStorePassword,
                     String trustStore, String trustStoreType, String trustStorePassword) {
    @Override
    public String toString() {
        return "BusTls[keyStore=" + keyStore + ", trustStore=" + trustStore + ", passwords=***]";
    }
}
