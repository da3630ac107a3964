package io.slagate.experiment.paper;

import io.slagate.config.ConfigLoader;
import io.slagate.config.PercentileGoal;
import io.slagate.config.SlagateConfig;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The paper's section V set-up, with time scaled by {@code scale} (1 s in the paper → scale s):
 * one server with N_s slots, Premium (τ = 2 s) and Basic (τ = 3 s) with eq. 7 and φ = α = β = 1,
 * exponential service and think times of mean 1 s, statistics every 5 s over 30 s, a 5 s control
 * cycle, min combining (eq. 2b). Premium clients are the customer {@code gold-customer}, subscribed
 * to the gold grade; Basic clients are {@code silver-customer}, on the default grade.
 */
public record ExperimentSetup(double scale, int concurrency, String scheduler, double resolution, String model, double premiumWeight,
                       double percentile) {
    public ExperimentSetup(double scale, int concurrency, String scheduler, double resolution) {
        this(scale, concurrency, scheduler, resolution, "auto", concurrency / 2.0);
    }

    public ExperimentSetup(double scale, int concurrency, String scheduler, double resolution, String model, double premiumWeight) {
        this(scale, concurrency, scheduler, resolution, model, premiumWeight, 0);
    }

    /**
     * With percentile goals ({@code percentile} > 0) each class's goal is that percentile within this many
     * times its mean target (premium p95 ≤ 5 paper-seconds, basic p95 ≤ 7.5): an exponential response time's
     * 95th percentile is 3× its mean, so the goals are as contested as the paper's means.
     */
    public static final double PERCENTILE_TARGET_FACTOR = 2.5;

    /** The goal threshold of a class whose mean target is {@code meanTarget} paper-seconds, in paper-seconds. */
    public double goal(double meanTarget) {
        return percentile > 0 ? meanTarget * PERCENTILE_TARGET_FACTOR : meanTarget;
    }

    private String goalKey() {
        if (percentile <= 0) {
            return "target";
        }
        return new PercentileGoal(percentile, Duration.ZERO).key();
    }

    public static final String PREMIUM_USER = "gold-customer";
    public static final String BASIC_USER = "silver-customer";

    public Duration paper(double seconds) {
        return Duration.ofNanos((long) (seconds * scale * 1e9));
    }

    public SlagateConfig config(String backendUrl) {
        return config(List.of(backendUrl));
    }

    /** The set-up with one server of N_s = {@code concurrency} slots per URL, all in one pool. */
    public SlagateConfig config(List<String> backendUrls) {
        return config(backendUrls, String.valueOf(concurrency));
    }

    /** The same with each server's {@code concurrency:} written as given, e.g. {@code {auto: true, start: 1, max: 250}}. */
    public SlagateConfig config(List<String> backendUrls, String concurrencyYaml) {
        return config(backendUrls, concurrencyYaml, "");
    }

    /** The same with more gateway settings, e.g. {@code "  localLimit: true\n"}. */
    public SlagateConfig config(List<String> backendUrls, String concurrencyYaml, String gatewayExtra) {
        return config(backendUrls, concurrencyYaml, gatewayExtra, "");
    }

    /** The same with more controller settings, e.g. {@code ", forecast: auto"}. */
    public SlagateConfig config(List<String> backendUrls, String concurrencyYaml, String gatewayExtra, String controllerExtra) {
        return ConfigLoader.parse(yaml(backendUrls, concurrencyYaml, gatewayExtra, controllerExtra), "experiment");
    }

    /** The configuration's text (for a file a running system reloads). */
    public String yaml(List<String> backendUrls, String concurrencyYaml, String gatewayExtra, String controllerExtra) {
        StringBuilder servers = new StringBuilder();
        for (int i = 0; i < backendUrls.size(); i++) {
            servers.append(String.format(Locale.ROOT, "  - { id: s%d, url: \"%s\", concurrency: %s }%n", i + 1, backendUrls.get(i),
                    concurrencyYaml));
        }
        return String.format(Locale.ROOT, """
                gateway:
                  id: gw1
                  listen: "127.0.0.1:0"
                  admin: "127.0.0.1:0"
                  scheduler: %s
                  serverTimeout: 10m
                  stats: { reportingInterval: %dms, window: %dms }
                %sservers:
                %sclasses:
                  - { name: premium, %s: %dms, utility: { type: pacifici, phi: 1, alpha: 1, beta: 1 }, queueBound: 100000, queueTimeout: 10m }
                  - { name: basic, %s: %dms, utility: { type: pacifici, phi: 1, alpha: 1, beta: 1 }, queueBound: 100000, queueTimeout: 10m }
                classification:
                  subscriptions: { %s: { "*": gold } }
                  rules: [ { grade: gold, class: premium } ]
                  defaultClass: basic
                allocation: { weights: { premium: %s, basic: %s } }
                bus: { url: "vm://slagate-experiment", listen: "" }
                controller: { cycle: %dms, combining: min, resolution: %s, model: %s%s }
                """, scheduler, paper(5).toMillis(), paper(30).toMillis(), gatewayExtra, servers,
                goalKey(), paper(goal(2)).toMillis(), goalKey(), paper(goal(3)).toMillis(), PREMIUM_USER, premiumWeight,
                concurrency * backendUrls.size() - premiumWeight,
                paper(5).toMillis(), resolution, model, controllerExtra);
    }
}
