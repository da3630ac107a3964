package io.slagate.config;

import java.util.List;

/**
 * A broker account for the broker that slagate runs (embedded or {@code bin/slagate broker}): who
 * may publish what. {@code gateway}: statistics and heartbeats; {@code resource-manager}: allocations,
 * decisions and heartbeats; {@code console}: control and configuration messages; {@code admin}:
 * everything. Every role may read every topic. The password comes from an environment variable.
 */
public record BusAccount(String user, String role, String password) {
    public static final List<String> ROLES = List.of("gateway", "resource-manager", "console", "admin");

    @Override
    public String toString() {
        return "BusAccount[user=" + user + ", role=" + role + ", password=***]";
    }
}
