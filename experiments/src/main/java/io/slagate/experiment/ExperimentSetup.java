package io.slagate.experiment;

import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import java.time.Duration;
import java.util.Locale;

/**
 * The paper's section V set-up, with time scaled by {@code scale} (1 s in the paper → scale s):
 * one server with N_s slots, Premium (τ = 2 s) and Basic (τ = 3 s) with eq. 7 and φ = α = β = 1,
 * exponential service and think times of mean 1 s, statistics every 5 s over 30 s, a 5 s control
 * cycle, min combining (eq. 2b). Premium clients are the customer {@code gold-customer}, subscribed
 * to the gold grade; Basic clients are {@code silver-customer}, on the default grade.
 */
record ExperimentSetup(double scale, int concurrency, String scheduler, double resolution, String model, double premiumWeight) {
    ExperimentSetup(double scale, int concurrency, String scheduler, double resolution) {
        this(scale, concurrency, scheduler, resolution, "auto", concurrency / 2.0);
    }

    static final String PREMIUM_USER = "gold-customer";
    static final String BASIC_USER = "silver-customer";

    Duration paper(double seconds) {
        return Duration.ofNanos((long) (seconds * scale * 1e9));
    }

    SlagateConfig config(String backendUrl) {
        String yaml = String.format(Locale.ROOT, """
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  scheduler: %s
                  serverTimeout: 10m
                  stats: { reportingInterval: %dms, window: %dms }
                servers:
                  - { id: s1, url: "%s", concurrency: %d }
                classes:
                  - { name: premium, target: %dms, utility: { type: pacifici, phi: 1, alpha: 1, beta: 1 }, queueBound: 100000, queueTimeout: 10m }
                  - { name: basic, target: %dms, utility: { type: pacifici, phi: 1, alpha: 1, beta: 1 }, queueBound: 100000, queueTimeout: 10m }
                classification:
                  subscriptions: { %s: { "*": gold } }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                allocation: { weights: { premium: %s, basic: %s } }
                bus: { url: "vm://slagate-experiment", listen: "" }
                controller: { cycle: %dms, combining: min, resolution: %s, model: %s }
                """, scheduler, paper(5).toMillis(), paper(30).toMillis(), backendUrl, concurrency,
                paper(2).toMillis(), paper(3).toMillis(), PREMIUM_USER, premiumWeight, concurrency - premiumWeight,
                paper(5).toMillis(), resolution, model);
        return ConfigLoader.parse(yaml, "experiment");
    }
}
