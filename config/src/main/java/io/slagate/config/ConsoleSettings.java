package io.slagate.config;

import java.time.Duration;

/**
 * The admin console (section III-B).
 *
 * @param listen         where it listens; loopback unless configured otherwise
 * @param usersFile      the users and their password hashes (PBKDF2); relative paths are resolved
 *                       beside the configuration file; created with one {@code admin} on first start
 * @param sessionTimeout idle time after which a login expires
 */
public record ConsoleSettings(HostPort listen, String usersFile, Duration sessionTimeout) {
}
