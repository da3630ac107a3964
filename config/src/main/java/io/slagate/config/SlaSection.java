package io.slagate.config;

/** The {@code sla:} section: the store of SLA attainment. */
final class SlaSection {
    private SlaSection() {
    }

    static SlaSettings sla(ConfigNode c) {
        String store = c.string("store", SlaSettings.DEFAULT_STORE);
        if (store != null && !store.startsWith("jdbc:sqlite:") && !store.startsWith("jdbc:postgresql:")) {
            c.problem("store", store, "is not a store slagate keeps SLA counts in; write jdbc:sqlite:FILE or jdbc:postgresql://HOST/DB");
        }
        String user = c.string("user", null);
        String password = ConfigLoader.secretFromEnv(c, c.string("passwordEnv", null));
        return new SlaSettings(store, user, password);
    }
}
