package io.slagate.gateway.locality;

import java.util.List;

/**
 * One mapping of request types to servers, replaced whole at each remap and read by the scheduler
 * without a lock: per type, its servers in order of preference (its group's server first, then the
 * others in a fixed per-type order, so the excess of a hot type always spills to the same servers).
 *
 * @param ranking per type index, gateway server indices best first; null for a type not yet mapped
 * @param groups  the groups as shown in {@code /stats}
 * @param group   per type index, its working-set group as the lowest type index in it (a type alone: itself)
 */
public record LocalityMap(int[][] ranking, List<Group> groups, long version, int[] group) {
    public static final LocalityMap EMPTY = new LocalityMap(new int[0][], List.of(), 0, new int[0]);

    /**
     * @param server    the group's server id (null: more groups than servers, dispatched least-outstanding)
     * @param types     its request types
     * @param loadShare its share of the pool's requests in the last intervals
     */
    public record Group(String server, List<String> types, double loadShare) {
    }

    public int[] ranking(int type) {
        return type < ranking.length ? ranking[type] : null;
    }

    /** The type's working-set group, named by its lowest type index; the type itself when not grouped with others. */
    public int group(int type) {
        return type < group.length && group[type] >= 0 ? group[type] : type;
    }

    /** Rendezvous (highest random weight) order: the same for the same type and servers, different per type. */
    static long weight(String type, String server) {
        long z = type.hashCode() * 0x9E3779B97F4A7C15L + server.hashCode();
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
