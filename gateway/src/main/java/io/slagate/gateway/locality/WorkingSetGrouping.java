package io.slagate.gateway.locality;

import java.util.ArrayList;
import java.util.List;

/**
 * Partitions request types into groups whose working sets overlap most (Garbatov &amp; Cachopo's
 * working-set correlation; average-linkage agglomerative clustering over cosine similarity instead of
 * their LDA: the inputs here are a few dozen types, and the merge order is easy to reason about).
 *
 * <p>Merging stops once there are no more groups than servers, so every server can own one group.
 * Among the pairs whose combined load stays within (1 + ε) × the mean load per server, the most similar
 * is merged first; when no pair fits that bound and there are still too many groups, the most similar
 * pair is merged all the same (the lightest of equally similar ones): the dispatcher's bounded loads
 * then spill the excess. A single type heavier than the bound stays alone: the dispatcher's bounded
 * loads spill its excess to other servers.
 */
public final class WorkingSetGrouping {
    private WorkingSetGrouping() {
    }

    /**
     * @param sets    per type, its working set as counts per data block (any non-negative weights; an
     *                empty or all-zero vector means unknown: similar to nothing)
     * @param load    per type, its load (e.g. arrivals); types with load 0 are left out
     * @param servers how many servers the groups go to (at least 1)
     * @param epsilon the load bound's slack
     * @return the groups, each a list of type indices, heaviest first
     */
    public static List<List<Integer>> group(double[][] sets, double[] load, int servers, double epsilon) {
        List<List<Integer>> groups = new ArrayList<>();
        List<Double> groupLoad = new ArrayList<>();
        double total = 0;
        for (int t = 0; t < load.length; t++) {
            if (load[t] > 0) {
                groups.add(new ArrayList<>(List.of(t)));
                groupLoad.add(load[t]);
                total += load[t];
            }
        }
        double[][] sim = cosine(sets);
        double bound = (1 + epsilon) * total / Math.max(1, servers);
        while (groups.size() > Math.max(1, servers)) {
            int[] pair = mostSimilarPair(groups, groupLoad, sim, bound);
            int bestA = pair[0];
            int bestB = pair[1];
            groups.get(bestA).addAll(groups.get(bestB));
            groupLoad.set(bestA, groupLoad.get(bestA) + groupLoad.get(bestB));
            groups.remove(bestB);
            groupLoad.remove(bestB);
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            order.add(i);
        }
        order.sort((x, y) -> Double.compare(groupLoad.get(y), groupLoad.get(x)));
        List<List<Integer>> out = new ArrayList<>();
        for (int i : order) {
            List<Integer> g = groups.get(i);
            g.sort(null);
            out.add(g);
        }
        return out;
    }

    /**
     * The two groups to merge: the most similar pair whose load fits the bound; when none fits, the most similar pair
     * all the same, the lighter of equals.
     */
    private static int[] mostSimilarPair(List<List<Integer>> groups, List<Double> groupLoad, double[][] sim, double bound) {
        int bestA = -1;
        int bestB = -1;
        double best = -1;
        for (int a = 0; a < groups.size(); a++) {
            for (int b = a + 1; b < groups.size(); b++) {
                if (groupLoad.get(a) + groupLoad.get(b) > bound) {
                    continue;
                }
                double l = linkage(sim, groups.get(a), groups.get(b));
                if (l > best) {
                    best = l;
                    bestA = a;
                    bestB = b;
                }
            }
        }
        if (bestA < 0) { // nothing fits the bound: the most similar pair all the same, the lighter of equals
            double bestLoad = Double.MAX_VALUE;
            for (int a = 0; a < groups.size(); a++) {
                for (int b = a + 1; b < groups.size(); b++) {
                    double l = linkage(sim, groups.get(a), groups.get(b));
                    double pair = groupLoad.get(a) + groupLoad.get(b);
                    if (l > best + 1e-12 || (Math.abs(l - best) <= 1e-12 && pair < bestLoad)) {
                        best = l;
                        bestLoad = pair;
                        bestA = a;
                        bestB = b;
                    }
                }
            }
        }
        return new int[] {bestA, bestB};
    }

    /** Cosine similarity of every pair of working sets; 0 where either is unknown. */
    static double[][] cosine(double[][] sets) {
        int n = sets.length;
        double[] norm = new double[n];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (double v : sets[i]) {
                s += v * v;
            }
            norm[i] = Math.sqrt(s);
        }
        double[][] sim = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                double d = 0;
                if (norm[i] > 0 && norm[j] > 0) {
                    int len = Math.min(sets[i].length, sets[j].length);
                    for (int k = 0; k < len; k++) {
                        d += sets[i][k] * sets[j][k];
                    }
                    d /= norm[i] * norm[j];
                }
                sim[i][j] = d;
                sim[j][i] = d;
            }
        }
        return sim;
    }

    private static double linkage(double[][] sim, List<Integer> a, List<Integer> b) {
        double s = 0;
        for (int i : a) {
            for (int j : b) {
                s += sim[i][j];
            }
        }
        return s / (a.size() * (double) b.size());
    }
}
