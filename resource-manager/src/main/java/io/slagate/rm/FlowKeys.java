package io.slagate.rm;

import io.slagate.config.SlagateConfig;
import java.util.HashMap;
import java.util.Map;

/**
 * Each flow's key ("gateway/class"), built once per flow rather than at every ask (several per flow per cycle). A cache
 * for one configuration; the control loop's thread only.
 */
final class FlowKeys {
    /** The gateway id of a class seen as one flow (no gateway id has '*'). */
    static final String WHOLE_CLASS = "*";

    private final SlagateConfig config;
    private final Map<String, String[]> keys = new HashMap<>();

    FlowKeys(SlagateConfig config) {
        this.config = config;
    }

    /** The key of gateway {@code gateway}'s flow of the class named {@code className}. */
    static String named(String gateway, String className) {
        return gateway + "/" + className;
    }

    String of(String gateway, int classIndex) {
        if (keys.size() > 4 * config.controller().maxGateways()) {
            keys.clear(); // gateways long gone: pods' names change with every restart
        }
        String[] k = keys.computeIfAbsent(gateway, g -> new String[config.classes().size()]);
        if (k[classIndex] == null) {
            k[classIndex] = named(gateway, config.classes().get(classIndex).name());
        }
        return k[classIndex];
    }
}
