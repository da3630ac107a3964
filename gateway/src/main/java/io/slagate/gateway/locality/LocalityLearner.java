package io.slagate.gateway.locality;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one pool's gateway learns about its request types, and the mapping it derives.
 * On the request path it only counts: a type's arrivals, its service time per server, and, when the
 * backend declares them, the data blocks it touched. Every remap interval {@link #remap} halves the
 * counts (old observations fade with a half-life of one interval, so a changed mix is learned in a few),
 * groups the types by working-set correlation ({@link WorkingSetGrouping}), gives each group a server
 * ({@link GroupPlacement}) and publishes the new {@link LocalityMap}.
 *
 * <p>Without declared working sets every type is its own group, placed where it runs fastest: the
 * learned form of LARD's partition.
 */
public final class LocalityLearner {
    private static final Logger LOG = LoggerFactory.getLogger(LocalityLearner.class);
    /** Data blocks are counted modulo this (a block id is any non-negative integer a backend declares). */
    static final int BLOCKS = 1024;
    /** At most this many blocks are read from one declaration. */
    private static final int MAX_BLOCKS_PER_RESPONSE = 64;

    private final String pool;
    private final int[] servers;
    private final String[] serverIds;
    /** Gateway server index → position in {@link #servers}, −1 for another pool's. */
    private final int[] position;
    private final double epsilon;
    private final RequestTypes types = new RequestTypes();
    private final AtomicLongArray arrivals = new AtomicLongArray(RequestTypes.MAX);
    private final AtomicLongArray serviceNanos;
    private final AtomicLongArray serviceCount;
    private final AtomicReferenceArray<AtomicIntegerArray> blocks = new AtomicReferenceArray<>(RequestTypes.MAX);
    private volatile LocalityMap map = LocalityMap.EMPTY;
    private long remaps;
    private long moves;

    /**
     * @param servers   the pool's servers (gateway indices)
     * @param serverIds every server's id, by gateway index
     */
    public LocalityLearner(String pool, int[] servers, String[] serverIds, double epsilon) {
        this.pool = pool;
        this.servers = servers.clone();
        this.serverIds = serverIds.clone();
        this.epsilon = epsilon;
        this.position = new int[serverIds.length];
        Arrays.fill(position, -1);
        for (int k = 0; k < servers.length; k++) {
            position[servers[k]] = k;
        }
        serviceNanos = new AtomicLongArray(RequestTypes.MAX * servers.length);
        serviceCount = new AtomicLongArray(RequestTypes.MAX * servers.length);
    }

    /**
     * The type of an arriving request with this key, counted as an arrival; −1 for a type not known yet. Types are
     * learned only from answers ({@link #learn}): a client sending made-up operations cannot fill the type table.
     */
    public int arrived(String key) {
        int t = types.find(key);
        if (t >= 0) {
            arrivals.incrementAndGet(t);
        }
        return t;
    }

    /**
     * A request of a type not known yet was answered by its server (2xx): the type is registered (and counted);
     * −1 when the table is full ({@value RequestTypes#MAX} types).
     */
    public int learn(String key) {
        int t = types.indexOf(key);
        if (t >= 0) {
            arrivals.incrementAndGet(t);
        }
        return t;
    }

    public String typeName(int type) {
        return types.name(type);
    }

    public double epsilon() {
        return epsilon;
    }

    /** A request of {@code type} was served by {@code server} in {@code nanos}. */
    public void served(int type, int server, long nanos) {
        int k = type < 0 || server >= position.length ? -1 : position[server];
        if (k < 0 || nanos < 0) {
            return;
        }
        serviceNanos.addAndGet(type * servers.length + k, nanos);
        serviceCount.incrementAndGet(type * servers.length + k);
    }

    /**
     * The blocks a backend declared for a response of {@code type}: comma-separated non-negative integers.
     * Anything else in the value ends the reading there (the server is not trusted: a bad value costs it
     * its own declaration, nothing more).
     */
    public void workingSet(int type, String declared) {
        if (type < 0 || declared == null) {
            return;
        }
        AtomicIntegerArray b = blocks.get(type);
        if (b == null) {
            blocks.compareAndSet(type, null, new AtomicIntegerArray(BLOCKS));
            b = blocks.get(type);
        }
        long v = -1;
        int taken = 0;
        for (int i = 0, n = Math.min(declared.length(), 1024); i <= n && taken < MAX_BLOCKS_PER_RESPONSE; i++) {
            char c = i < n ? declared.charAt(i) : ',';
            if (c >= '0' && c <= '9') {
                v = (v < 0 ? 0 : v * 10) + (c - '0');
                if (v > Integer.MAX_VALUE) {
                    return;
                }
            } else if (c == ',' || c == ' ') {
                if (v >= 0) {
                    b.incrementAndGet((int) (v % BLOCKS));
                    taken++;
                }
                v = -1;
            } else {
                return;
            }
        }
    }

    public LocalityMap map() {
        return map;
    }

    /**
     * Recomputes the groups and their servers from what was observed, fades the observations, and
     * publishes the new mapping.
     *
     * @param inRotation whether a server (gateway index) is in rotation: only those get groups
     * @param cap        a server's slots here
     */
    public synchronized LocalityMap remap(IntPredicate inRotation, IntUnaryOperator cap) {
        int n = types.size();
        double[] load = new double[n];
        double[][] sets = new double[n][];
        double[][] service = new double[n][];
        List<Integer> live = new ArrayList<>();
        for (int k = 0; k < servers.length; k++) {
            if (inRotation.test(servers[k])) {
                live.add(k);
            }
        }
        int[] candidates = live.stream().mapToInt(k -> servers[k]).toArray();
        int[] caps = Arrays.stream(candidates).map(cap).toArray();
        double total = observed(live, candidates.length, load, sets, service);
        LocalityMap before = map;
        int[] previous = firstChoices(before, n);
        List<List<Integer>> groups = candidates.length == 0 ? List.of()
                : WorkingSetGrouping.group(sets, load, candidates.length, epsilon);
        int[] placed = GroupPlacement.place(groups, load, candidates, caps, previous, service);
        int[][] ranking = new int[n][];
        int[] groupOf = new int[n];
        Arrays.fill(groupOf, -1);
        List<LocalityMap.Group> shown = new ArrayList<>();
        int moved = 0;
        double movedLoad = 0;
        for (int g = 0; g < groups.size(); g++) {
            double share = 0;
            List<String> names = new ArrayList<>();
            int lowest = groups.get(g).stream().mapToInt(Integer::intValue).min().orElse(-1);
            for (int t : groups.get(g)) {
                groupOf[t] = lowest;
                share += load[t];
                names.add(types.name(t));
                if (placed[g] >= 0) {
                    ranking[t] = rank(types.name(t), placed[g]);
                    if (previous[t] >= 0 && previous[t] != placed[g]) {
                        moved++;
                        movedLoad += load[t];
                    }
                }
            }
            shown.add(new LocalityMap.Group(placed[g] < 0 ? null : serverIds[placed[g]], names, total == 0 ? 0 : share / total));
        }
        for (int t = 0; t < n; t++) {
            if (ranking[t] == null && before.ranking(t) != null && load[t] == 0) {
                ranking[t] = before.ranking(t); // quiet this interval: keep it where its data is
            }
        }
        for (int t = 0; t < n; t++) {
            if (groupOf[t] < 0 && t < before.group().length) {
                groupOf[t] = before.group()[t]; // quiet this interval: its group stays
            }
        }
        LocalityMap next = new LocalityMap(ranking, List.copyOf(shown), before.version() + 1, groupOf);
        map = next;
        remaps++;
        moves += moved;
        logMoves(moved, movedLoad >= 0.02 * total, shown);
        return next;
    }

    /** Each type's first server in {@code map}, −1 for a type it does not place. */
    private static int[] firstChoices(LocalityMap map, int n) {
        int[] first = new int[n];
        for (int t = 0; t < n; t++) {
            int[] r = map.ranking(t);
            first[t] = r == null ? -1 : r[0];
        }
        return first;
    }

    /** A remap that moved types: at INFO when they carry 2% of the load or more, else at DEBUG. */
    private void logMoves(int moved, boolean significant, List<LocalityMap.Group> shown) {
        if (moved > 0 && significant) {
            LOG.info("pool {}: locality remap moved {} request type(s); groups now {}", pool, moved, shown);
        } else if (moved > 0) {
            LOG.debug("pool {}: locality remap moved {} rare request type(s) (under 2% of the load)", pool, moved);
        }
    }

    /**
     * What was observed since the last remap, faded by half for the next: per type its arrivals (returned summed), its
     * working-set blocks, and its mean service time on each server in rotation.
     */
    private double observed(List<Integer> live, int candidates, double[] load, double[][] sets, double[][] service) {
        double total = 0;
        for (int t = 0; t < load.length; t++) {
            load[t] = takeHalf(arrivals, t);
            total += load[t];
            sets[t] = new double[BLOCKS];
            AtomicIntegerArray b = blocks.get(t);
            if (b != null) {
                for (int i = 0; i < BLOCKS; i++) {
                    int c = b.get(i);
                    if (c != 0) {
                        sets[t][i] = c;
                        b.addAndGet(i, -c / 2);
                    }
                }
            }
            service[t] = new double[candidates];
            for (int j = 0; j < candidates; j++) {
                int idx = t * servers.length + live.get(j);
                long count = takeHalf(serviceCount, idx);
                long sum = takeHalf(serviceNanos, idx);
                service[t][j] = count == 0 ? Double.NaN : (double) sum / count;
            }
        }
        return total;
    }

    /** The order in which a type tries servers: its group's first, then the others by rendezvous weight. */
    private int[] rank(String type, int primary) {
        Integer[] rest = Arrays.stream(servers).filter(s -> s != primary).boxed().toArray(Integer[]::new);
        Arrays.sort(rest, Comparator.comparingLong((Integer s) -> LocalityMap.weight(type, serverIds[s])).reversed());
        int[] r = new int[rest.length + 1];
        r[0] = primary;
        for (int i = 0; i < rest.length; i++) {
            r[i + 1] = rest[i];
        }
        return r;
    }

    private static long takeHalf(AtomicLongArray a, int i) {
        long v = a.get(i);
        if (v != 0) {
            a.addAndGet(i, -v / 2);
        }
        return v;
    }

    /** For {@code /stats}. */
    public synchronized Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        LocalityMap now = map;
        m.put("pool", pool);
        m.put("types", types.size());
        m.put("remaps", remaps);
        m.put("moves", moves);
        List<Map<String, Object>> groups = new ArrayList<>();
        for (LocalityMap.Group g : now.groups()) {
            Map<String, Object> gm = new LinkedHashMap<>();
            gm.put("server", g.server());
            gm.put("loadShare", Math.round(g.loadShare() * 1000) / 1000.0);
            gm.put("types", g.types());
            groups.add(gm);
        }
        m.put("groups", groups);
        return m;
    }
}
