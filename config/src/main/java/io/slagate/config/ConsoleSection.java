package io.slagate.config;

import java.time.Duration;

/** The {@code console:} section. */
final class ConsoleSection {
    private ConsoleSection() {
    }

    static ConsoleSettings console(ConfigNode c) {
        HostPort listen = GatewaySection.hostPort(c, "listen", new HostPort("127.0.0.1", 8082));
        String users = c.string("usersFile", "console-users.json");
        Duration timeout = c.duration("sessionTimeout", Duration.ofHours(8), Duration.ofMinutes(1), Duration.ofDays(30));
        return new ConsoleSettings(listen, users, timeout);
    }
}
