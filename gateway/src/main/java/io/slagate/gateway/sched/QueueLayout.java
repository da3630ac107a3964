package io.slagate.gateway.sched;

import io.slagate.config.SchedulerMode;
import io.slagate.config.ServerConfig;
import io.slagate.config.SlagateConfig;
import io.slagate.config.TrafficClassConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The queue manager's shape, from the configuration: the pools (in the order their first server
 * is listed), each server's slots and pool, each pool's candidate servers (a movable server is a
 * candidate in every pool it may serve), and each class's queue (its own, or its pool's in FCFS
 * mode), pool, bound and configured queue timeout. Built once; the arrays are not changed after.
 */
final class QueueLayout {
    final int classCount;
    final String[] poolNames;
    final ServerSlots[] servers;
    /** Per server, its id and URL: a configuration that keeps both keeps the server's outstanding count. */
    final String[] serverKeys;
    /** Per server, the pool it serves at start. */
    final int[] servingPool;
    final int[][] poolServers;
    final int[] classQueue;
    final int[] classPool;
    final int[] queueBound;
    final long[] configuredTimeoutNanos;
    final ClassQueue[] queues;
    final int[][] poolQueues;

    /** @param inherited per server key, the outstanding count a server shares with the configuration this one replaces */
    QueueLayout(SlagateConfig config, SchedulerMode mode, Map<String, AtomicInteger> inherited) {
        List<TrafficClassConfig> classes = config.classes();
        classCount = classes.size();
        Map<String, Integer> poolIndex = new LinkedHashMap<>();
        for (ServerConfig s : config.servers()) {
            poolIndex.putIfAbsent(s.pool(), poolIndex.size());
        }
        poolNames = poolIndex.keySet().toArray(String[]::new);
        servers = new ServerSlots[config.servers().size()];
        serverKeys = config.servers().stream().map(QueueLayout::serverKey).toArray(String[]::new);
        servingPool = new int[servers.length];
        poolServers = toArrays(placeServers(config, poolIndex, inherited));
        classQueue = new int[classCount];
        classPool = new int[classCount];
        queueBound = new int[classCount];
        configuredTimeoutNanos = new long[classCount];
        List<List<Integer>> queuesOfPool = lists(poolIndex.size());
        queues = buildQueues(classes, poolIndex, mode != SchedulerMode.FCFS, queuesOfPool);
        poolQueues = toArrays(queuesOfPool);
    }

    int pools() {
        return poolNames.length;
    }

    static String serverKey(ServerConfig s) {
        return s.id() + " " + s.url();
    }

    /** Fills {@code servers} and {@code servingPool}; returns each pool's candidate servers. */
    private List<List<Integer>> placeServers(SlagateConfig config, Map<String, Integer> poolIndex, Map<String, AtomicInteger> inherited) {
        List<List<Integer>> serversOfPool = lists(poolIndex.size());
        for (int i = 0; i < servers.length; i++) {
            ServerConfig s = config.servers().get(i);
            int p = poolIndex.get(s.pool());
            servers[i] = new ServerSlots(i, s.id(), p, inherited.getOrDefault(serverKey(s), new AtomicInteger()));
            servingPool[i] = p;
            serversOfPool.get(p).add(i);
        }
        for (int i = 0; i < servers.length; i++) {
            for (String other : config.servers().get(i).pools()) {
                Integer q = poolIndex.get(other);
                if (q != null && q != servingPool[i]) {
                    serversOfPool.get(q).add(i);
                }
            }
        }
        return serversOfPool;
    }

    /** One queue per class (per pool when not {@code perClass}), each class's pool, bound and timeout filled in. */
    private ClassQueue[] buildQueues(List<TrafficClassConfig> classes, Map<String, Integer> poolIndex, boolean perClass,
                                     List<List<Integer>> queuesOfPool) {
        List<ClassQueue> qs = new ArrayList<>();
        Map<Integer, Integer> sharedQueueOfPool = new LinkedHashMap<>();
        for (int c = 0; c < classCount; c++) {
            TrafficClassConfig tc = classes.get(c);
            int p = poolIndex.get(tc.pool());
            classPool[c] = p;
            queueBound[c] = tc.queueBound();
            configuredTimeoutNanos[c] = tc.queueTimeout().toNanos();
            if (perClass) {
                classQueue[c] = qs.size();
                qs.add(new ClassQueue(p, true, tc.deadline() != null, tc.fairByCustomer(), tc.customerQueueBound()));
                queuesOfPool.get(p).add(classQueue[c]);
            } else {
                Integer q = sharedQueueOfPool.get(p);
                if (q == null) {
                    q = qs.size();
                    qs.add(new ClassQueue(p, sameTimeout(classes, tc.pool())));
                    sharedQueueOfPool.put(p, q);
                    queuesOfPool.get(p).add(q);
                }
                classQueue[c] = q;
            }
        }
        return qs.toArray(ClassQueue[]::new);
    }

    /** Whether one FCFS queue can expire its pool's requests in arrival order: one timeout and no deadline among its classes. */
    private static boolean sameTimeout(List<TrafficClassConfig> classes, String pool) {
        return classes.stream().filter(c -> c.pool().equals(pool)).map(TrafficClassConfig::queueTimeout).distinct().count() <= 1
                && classes.stream().filter(c -> c.pool().equals(pool)).allMatch(c -> c.deadline() == null);
    }

    private static List<List<Integer>> lists(int n) {
        List<List<Integer>> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(new ArrayList<>());
        }
        return l;
    }

    private static int[][] toArrays(List<List<Integer>> lists) {
        int[][] out = new int[lists.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = lists.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        return out;
    }
}
