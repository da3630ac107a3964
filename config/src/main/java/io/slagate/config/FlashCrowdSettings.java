package io.slagate.config;

import java.time.Duration;

/**
 * The gateway's flash-crowd defence (Patia's motivating case).
 *
 * @param factor      a class's arrival rate over the last second at least this many times its usual rate raises the alarm
 * @param minRate     requests/s below which no rate is "usual" (a class that was idle is measured against this)
 * @param maxDuration after this long the surge is the new normal: the alarm ends and the rate becomes the usual one
 * @param protect     while the alarm holds, the surging class gets no more concurrent slots than its share of the
 *                    allocation in force: the other classes' guaranteed slots are not lent to it even while idle
 */
public record FlashCrowdSettings(double factor, double minRate, Duration maxDuration, boolean protect) {
}
