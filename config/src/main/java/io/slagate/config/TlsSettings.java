package io.slagate.config;


/**
 * TLS on the gateway's client listener.
 *
 * @param keyStore path of the key store holding the gateway's certificate and key
 * @param type     key store type ({@code PKCS12} by default)
 * @param password key store password, read from the environment variable named by {@code passwordEnv}
 */
public record TlsSettings(String keyStore, String type, String password) {
    @Override
    public String toString() {
        return "TlsSettings[keyStore=" + keyStore + ", type=" + type + ", password=***]";
    }
}
