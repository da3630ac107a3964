package io.slagate.config;

import java.time.Duration;

/** Per-class windowed statistics: one summary every reporting interval, averaged over the window. */
public record StatsSettings(Duration reportingInterval, Duration window) {
}
