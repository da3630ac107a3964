package io.slagate.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The whole, validated configuration. Immutable; obtained from {@link ConfigLoader}. */
public record SlagateConfig(String source, GatewaySettings gateway, List<ServerConfig> servers,
                            List<TrafficClassConfig> classes, ClassificationConfig classification,
                            StaticAllocation allocation, BusSettings bus, ControllerSettings controller,
                            ConsoleSettings console, SlaSettings sla) {
    public SlagateConfig {
        sla = sla == null ? SlaSettings.DEFAULT : sla;
        servers = List.copyOf(servers);
        classes = List.copyOf(classes);
    }

    /** Pool name → its servers, in configuration order. */
    public Map<String, List<ServerConfig>> pools() {
        Map<String, List<ServerConfig>> pools = new LinkedHashMap<>();
        for (ServerConfig s : servers) {
            pools.computeIfAbsent(s.pool(), p -> new ArrayList<>()).add(s);
        }
        return pools;
    }

    /** This configuration with other gateway settings. */
    public SlagateConfig withGateway(GatewaySettings next) {
        return new SlagateConfig(source, next, servers, classes, classification, allocation, bus, controller, console, sla);
    }

    /** This configuration with other bus settings. */
    public SlagateConfig withBus(BusSettings next) {
        return new SlagateConfig(source, gateway, servers, classes, classification, allocation, next, controller, console, sla);
    }

    /** This configuration with other controller settings (the tuner's controller knobs). */
    public SlagateConfig withController(ControllerSettings next) {
        return new SlagateConfig(source, gateway, servers, classes, classification, allocation, bus, next, console, sla);
    }

    public int classIndex(String name) {
        for (int i = 0; i < classes.size(); i++) {
            if (classes.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Where a relative file the configuration names lives: beside the configuration file, or the working directory when
     * the configuration was not read from a file.
     */
    public java.nio.file.Path baseDir() {
        java.nio.file.Path file = source == null ? null : java.nio.file.Path.of(source);
        java.nio.file.Path parent = file == null ? null : file.toAbsolutePath().getParent();
        return parent != null && file.toFile().isFile() ? parent : java.nio.file.Path.of("").toAbsolutePath();
    }
}
