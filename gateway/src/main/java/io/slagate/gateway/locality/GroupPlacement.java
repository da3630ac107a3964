package io.slagate.gateway.locality;

import java.util.List;

/**
 * Gives each group of request types its own server. Heaviest group first, it keeps the server most of
 * its types had (their data is in that server's cache: moving would throw it away); a new group goes
 * where its types already ran fastest relative to elsewhere (a warm cache, as a transparent gateway
 * can see it: by response times); otherwise to the free server with the most slots.
 */
public final class GroupPlacement {
    private GroupPlacement() {
    }

    /**
     * @param groups     groups of type indices, heaviest first
     * @param load       per type, its load
     * @param servers    the candidate servers (gateway indices), e.g. those in rotation
     * @param caps       per candidate, its slots here
     * @param previous   per type, the server it was mapped to before (gateway index), or −1
     * @param service    per type and candidate, its mean service time there (NaN: not observed)
     * @return per group, the gateway index of its server, or −1 when there are more groups than servers
     */
    public static int[] place(List<List<Integer>> groups, double[] load, int[] servers, int[] caps, int[] previous,
                              double[][] service) {
        int[] placed = new int[groups.size()];
        boolean[] taken = new boolean[servers.length];
        for (int g = 0; g < groups.size(); g++) {
            int pick = previousMajority(groups.get(g), load, servers, previous, taken);
            if (pick < 0) {
                pick = warmest(groups.get(g), load, servers, service, taken);
            }
            if (pick < 0) {
                for (int k = 0; k < servers.length; k++) {
                    if (!taken[k] && (pick < 0 || caps[k] > caps[pick])) {
                        pick = k;
                    }
                }
            }
            if (pick < 0) {
                placed[g] = -1;
                continue;
            }
            taken[pick] = true;
            placed[g] = servers[pick];
        }
        return placed;
    }

    /** The free candidate that carried most of the group's load before, or −1. */
    private static int previousMajority(List<Integer> group, double[] load, int[] servers, int[] previous, boolean[] taken) {
        double[] carried = new double[servers.length];
        int best = -1;
        for (int t : group) {
            for (int k = 0; k < servers.length; k++) {
                if (previous[t] == servers[k] && !taken[k]) {
                    carried[k] += load[t];
                    if (best < 0 || carried[k] > carried[best]) {
                        best = k;
                    }
                }
            }
        }
        return best;
    }

    /**
     * The free candidate where the group's types ran fastest, each type's time there against its mean over
     * the candidates it was seen on, weighted by load; −1 when none of them was seen on two candidates.
     */
    private static int warmest(List<Integer> group, double[] load, int[] servers, double[][] service, boolean[] taken) {
        double[] score = new double[servers.length];
        double[] weight = new double[servers.length];
        for (int t : group) {
            double sum = 0;
            int seen = 0;
            for (int k = 0; k < servers.length; k++) {
                if (service[t][k] > 0) {
                    sum += service[t][k];
                    seen++;
                }
            }
            if (seen < 2) {
                continue;
            }
            double mean = sum / seen;
            for (int k = 0; k < servers.length; k++) {
                if (service[t][k] > 0) {
                    score[k] += load[t] * service[t][k] / mean;
                    weight[k] += load[t];
                }
            }
        }
        int best = -1;
        for (int k = 0; k < servers.length; k++) {
            if (taken[k] || weight[k] == 0) {
                continue;
            }
            if (best < 0 || score[k] / weight[k] < score[best] / weight[best]) {
                best = k;
            }
        }
        // faster only within noise is no reason to prefer it
        return best >= 0 && score[best] / weight[best] < 0.95 ? best : -1;
    }
}
