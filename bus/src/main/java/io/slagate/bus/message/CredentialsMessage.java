package io.slagate.bus.message;

/**
 * The customers' credential files after a console change (a Basic customer or an API key added, rotated or
 * revoked): their whole text, so that a gateway on another host applies the change at once, as its own file
 * would after a copy. They hold only what the files hold: bcrypt hashes and SHA-256 digests of keys, never a
 * password or a key. A gateway applies only the files its own configuration names; null leaves a file alone.
 *
 * @param version increases with every change (a gateway ignores one not newer than the last it applied)
 * @param user    who made the change, for the gateways' logs
 */
public record CredentialsMessage(int schema, long version, String htpasswd, String apiKeys, String user, long timestampMillis)
        implements BusMessage {
}
