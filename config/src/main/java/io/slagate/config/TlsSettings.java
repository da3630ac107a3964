package io.slagate.config;


/**
 * TLS on the gateway's client listener.
 *
 * @param keyStore           path of the key store holding the gateway's certificate and key
 * @param type               key store type ({@code PKCS12} by default)
 * @param password           key store password, read from the environment variable named by {@code passwordEnv}
 * @param trustStore         the certificates client certificates are checked against (asked for, not required,
 *                           when set), or null: no client certificates
 * @param trustStoreType     its type ({@code PKCS12} by default)
 * @param trustStorePassword its password, from {@code trustStorePasswordEnv}, or null
 */
public record TlsSettings(String keyStore, String type, String password, String trustStore, String trustStoreType,
                          String trustStorePassword) {
    public TlsSettings(String keyStore, String type, String password) {
        this(keyStore, type, password, null, null, null);
    }

    @Override
    public String toString() {
        return "TlsSettings[keyStore=" + keyStore + ", type=" + type + ", password=***, trustStore=" + trustStore + "]";
    }
}
