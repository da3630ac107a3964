package io.slagate.config;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a start would refuse, found without starting: the loader's checks (every key, the files a
 * configuration names, the environment variables holding its secrets) and then what only opening
 * those files shows — a key store that is not a key store or whose password is wrong, a console
 * users file in a directory that does not exist. Used by {@code slagate check-config} and by a
 * reload, so that both refuse what a start would.
 */
public final class ConfigCheck {
    private static final ObjectMapper EFFECTIVE = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES))
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .registerModule(new SimpleModule("effective")
                    .addSerializer(Duration.class, new DurationText())
                    .addSerializer(Enum.class, new EnumText())
                    .addSerializer(Pattern.class, ToStringSerializer.instance)
                    .addSerializer(HostPort.class, ToStringSerializer.instance)
                    .addSerializer(Cidr.class, ToStringSerializer.instance));

    private ConfigCheck() {
    }

    /** The file loaded and its key stores opened: the configuration, or every problem in one exception. */
    public static SlagateConfig check(Path file) {
        SlagateConfig config = ConfigLoader.load(file);
        List<String> problems = openingProblems(config, file);
        if (!problems.isEmpty()) {
            throw new ConfigException(file.toString(), problems);
        }
        return config;
    }

    /** What a start of this configuration warns about (names claimed, not proven; the bus's gateway bindings), one line each. */
    /** Said by check-config and by a broker that others reach with one account allowed everything. */
    public static final String SINGLE_BUS_ACCOUNT = "the bus has one account for every component: any process holding it (a"
            + " gateway, a resource manager) may publish the customers' credentials to every gateway and read every hash;"
            + " bus.accounts gives each role its own (docs/OPERATIONS.md, Securing the bus)";

    public static List<String> notes(SlagateConfig config) {
        return IdentityChecks.notes(config);
    }

    /** Whether the classification or quotas name customers (then a gateway without authentication warns that names are claimed). */
    public static boolean namesCustomers(SlagateConfig config) {
        return IdentityChecks.namesCustomers(config.classification());
    }

    /** What opening the files a loaded configuration names finds wrong, each naming its key. */
    static List<String> openingProblems(SlagateConfig config, Path file) {
        List<String> problems = new ArrayList<>();
        TlsSettings tls = config.gateway().tls();
        if (tls != null) {
            keyStore(problems, "gateway.tls.keyStore", tls.keyStore(), tls.type(), tls.password());
            keyStore(problems, "gateway.tls.trustStore", tls.trustStore(), tls.trustStoreType(), tls.trustStorePassword());
        }
        BusTls busTls = config.bus().tls();
        if (busTls != null) {
            keyStore(problems, "bus.tls.keyStore", busTls.keyStore(), busTls.keyStoreType(), busTls.keyStorePassword());
            keyStore(problems, "bus.tls.trustStore", busTls.trustStore(), busTls.trustStoreType(), busTls.trustStorePassword());
        }
        Path users = Path.of(config.console().usersFile());
        if (!users.isAbsolute()) {
            Path dir = file.toAbsolutePath().getParent();
            users = dir == null ? users : dir.resolve(users);
        }
        Path usersDir = users.toAbsolutePath().getParent();
        if (!Files.exists(users) && (usersDir == null || !Files.isDirectory(usersDir))) {
            problems.add("console.usersFile: " + users + ": its directory does not exist (the first start creates the file there)");
        }
        return problems;
    }

    private static void keyStore(List<String> problems, String key, String path, String type, String password) {
        if (path == null) {
            return;
        }
        try (InputStream in = Files.newInputStream(Path.of(path))) {
            KeyStore.getInstance(type).load(in, password == null ? null : password.toCharArray());
        } catch (Exception e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            problems.add(key + ": " + path + ": cannot be opened as a " + type + " key store with its password: " + why);
        }
    }

    /**
     * The configuration as it runs, defaults filled in, as YAML; every secret (a field whose name
     * holds "password") shown as {@code ***}, or {@code null} when none is set.
     */
    public static String effective(SlagateConfig config) {
        JsonNode tree = EFFECTIVE.valueToTree(config);
        mask(tree);
        try {
            return EFFECTIVE.writeValueAsString(tree);
        } catch (IOException e) {
            throw new IllegalStateException("the effective configuration cannot be written: " + e.getMessage(), e);
        }
    }

    private static void mask(JsonNode node) {
        if (node instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().toLowerCase(Locale.ROOT).contains("password") && !e.getValue().isNull()) {
                    e.setValue(o.textNode("***"));
                } else {
                    mask(e.getValue());
                }
            }
        } else if (node != null && node.isArray()) {
            node.forEach(ConfigCheck::mask);
        }
    }

    /** A choice as the configuration writes it ({@code least-outstanding}), not as the Java constant. */
    @SuppressWarnings("rawtypes")
    private static final class EnumText extends JsonSerializer<Enum> {
        @Override
        public void serialize(Enum e, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(e.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
    }

    /** A duration as the configuration writes it (250ms, 5s), not as ISO-8601 or nanoseconds. */
    private static final class DurationText extends JsonSerializer<Duration> {
        @Override
        public void serialize(Duration d, JsonGenerator gen, SerializerProvider provider) throws IOException {
            long ms = d.toMillis();
            gen.writeString(ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms");
        }
    }
}
