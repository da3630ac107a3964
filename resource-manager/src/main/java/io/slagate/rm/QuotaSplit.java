package io.slagate.rm;

import io.slagate.config.ClassificationConfig;
import io.slagate.config.Quota;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Each subscription quota split across the gateways that see its customer, in proportion to the
 * demand they measured over the last reporting interval (the way eq. 5–6 split N_s by weight), so
 * that the cluster admits the quota's rate without a round trip per request.
 * <ul>
 *   <li>Demand below the quota: each gateway gets its demand and an equal part of what is left, so
 *       none of them refuses a request the quota allows, and a rise at one has room.</li>
 *   <li>Demand at or above the quota: {@value #FLOOR} of the quota is split equally (a gateway whose
 *       demand was small keeps a pace to measure by), the rest in proportion to demand.</li>
 * </ul>
 * The shares of a key sum to its quota. A gateway without demand for a key gets no share for it and
 * paces it at the quota divided by the gateways until it reports demand.
 */
final class QuotaSplit {
    static final double FLOOR = 0.1;

    private QuotaSplit() {
    }

    /**
     * @param demand  per gateway, its reported demand per bucket key (requests per second)
     * @param refused counts the figures refused: a key with no quota here, a demand that is not a finite number ≥ 0
     * @return per gateway (every one of {@code gws}), its share per key
     */
    static Map<String, Map<String, Double>> split(ClassificationConfig config, List<String> gws,
                                                  Map<String, Map<String, Double>> demand, AtomicLong refused) {
        Map<String, Map<String, Double>> byKey = new TreeMap<>();
        for (String g : gws) {
            for (Map.Entry<String, Double> e : demand.getOrDefault(g, Map.of()).entrySet()) {
                Double d = e.getValue();
                if (e.getKey() == null || config.quotaOf(e.getKey()) == null || d == null || !Double.isFinite(d) || d < 0) {
                    refused.incrementAndGet();
                } else if (d > 0) {
                    byKey.computeIfAbsent(e.getKey(), k -> new TreeMap<>()).put(g, d);
                }
            }
        }
        Map<String, Map<String, Double>> shares = new TreeMap<>();
        gws.forEach(g -> shares.put(g, new HashMap<>()));
        for (Map.Entry<String, Map<String, Double>> k : byKey.entrySet()) {
            Quota q = config.quotaOf(k.getKey());
            split(q.ratePerSecond(), k.getValue()).forEach((g, share) -> shares.get(g).put(k.getKey(), share));
        }
        return shares;
    }

    /** One quota {@code quota} split over the gateways of {@code demand} (each above 0). */
    static Map<String, Double> split(double quota, Map<String, Double> demand) {
        double total = demand.values().stream().mapToDouble(Double::doubleValue).sum();
        int n = demand.size();
        Map<String, Double> out = new TreeMap<>();
        for (Map.Entry<String, Double> e : demand.entrySet()) {
            double share = total < quota
                    ? e.getValue() + (quota - total) / n
                    : FLOOR * quota / n + (1 - FLOOR) * quota * e.getValue() / total;
            out.put(e.getKey(), Math.min(quota, share));
        }
        return out;
    }
}
