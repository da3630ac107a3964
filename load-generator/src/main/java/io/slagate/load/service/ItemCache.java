package io.slagate.load.service;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One Bookstore server's state: its bounded LRU cache of items, its worker pool (a request waits in the
 * server for one of {@code workers}), and its hit and miss counts. Costs are spent sleeping, as waiting on
 * memory and on a database would, so a machine with few cores can run several such servers faithfully.
 */
public final class ItemCache {
    /** The Axis2 configuration-context property that holds a server's cache. */
    public static final String PROPERTY = "slagate.itemCache";

    private final WorkingSetModel model;
    private final Map<String, WorkingSetModel.Table> tables;
    private final Map<String, List<WorkingSetModel.Read>> operations;
    private final LinkedHashMap<Integer, Boolean> lru;
    /** Items the cache holds at most (a knob); shrinking evicts the least recently used at once. */
    private volatile int capacity;
    private final Semaphore workers;
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    /** The item draws: seeded when the model is, shared by the server's workers under its own lock. */
    private final SplittableRandom draws;
    /** Per table (and the whole data set, under the key ""), the cumulative popularity of its ranks; null when uniform. */
    private final Map<String, double[]> popularity = new HashMap<>();

    public ItemCache(WorkingSetModel model) {
        this.model = model;
        this.draws = model.seed() == 0 ? new SplittableRandom() : new SplittableRandom(model.seed());
        if (model.zipf() > 0) {
            for (WorkingSetModel.Table t : model.tables().values()) {
                popularity.put(t.name(), zipfCdf(t.size(), model.zipf()));
            }
            popularity.put("", zipfCdf(model.items(), model.zipf()));
        }
        this.tables = model.tables();
        this.operations = model.operations();
        this.workers = new Semaphore(model.workers(), true);
        this.capacity = model.cacheItems();
        this.lru = new LinkedHashMap<>(Math.max(16, capacity * 2), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, Boolean> eldest) {
                return size() > ItemCache.this.capacity;
            }
        };
    }

    /** What one request did: its hits, misses and the blocks it touched (for the declared working set). */
    public record Outcome(int hits, int misses, String blocks) {
    }

    /** Performs {@code operation}: waits for a worker, reads its items through the cache, spends their cost. */
    public Outcome perform(String operation) throws InterruptedException {
        return perform(operation, -1);
    }

    /**
     * Performs {@code operation} on {@code document} (for the {@code document} operation; −1 for the others): waits
     * for a worker, reads its items through the cache, spends their cost.
     */
    public Outcome perform(String operation, int document) throws InterruptedException {
        List<WorkingSetModel.Read> reads = operations.get(operation);
        if (reads == null) {
            throw new IllegalArgumentException("no operation " + operation);
        }
        WorkingSetModel.Table doc = reads.stream().anyMatch(r -> WorkingSetModel.DOCUMENT.equals(r.table()))
                ? model.document(document) : null;
        workers.acquire();
        try {
            int h = 0;
            int m = 0;
            StringBuilder blocks = new StringBuilder();
            for (WorkingSetModel.Read r : reads) {
                int first = 0;
                int size = model.items();
                if (r.table() != null) {
                    WorkingSetModel.Table t = doc != null && WorkingSetModel.DOCUMENT.equals(r.table()) ? doc : tables.get(r.table());
                    first = t.first();
                    size = t.size();
                }
                double[] cdf = popularity.get(r.table() == null ? "" : r.table());
                for (int i = 0; i < r.count(); i++) {
                    int item = first + draw(size, cdf);
                    if (read(item)) {
                        h++;
                    } else {
                        m++;
                    }
                    if (!blocks.isEmpty()) {
                        blocks.append(',');
                    }
                    blocks.append(item / model.blockItems());
                }
            }
            hits.addAndGet(h);
            misses.addAndGet(m);
            long cost = model.base().toNanos() + h * model.hit().toNanos() + m * model.miss().toNanos();
            long onCpu = (long) (cost * model.cpu());
            ServiceTime.burnCpu(onCpu);
            LockSupport.parkNanos(cost - onCpu);
            return new Outcome(h, m, blocks.toString());
        } finally {
            workers.release();
        }
    }

    /** The cumulative weights of ranks 1..n with weight 1 / r^s, normalized to end at 1. */
    public static double[] zipfCdf(int n, double s) {
        double[] cdf = new double[n];
        double sum = 0;
        for (int r = 0; r < n; r++) {
            sum += Math.pow(r + 1, -s);
            cdf[r] = sum;
        }
        for (int r = 0; r < n; r++) {
            cdf[r] /= sum;
        }
        return cdf;
    }

    /** An item's offset in a range of {@code size}: uniform, or by rank from the popularity's cumulative weights. */
    private int draw(int size, double[] cdf) {
        double u;
        synchronized (draws) {
            if (cdf == null) {
                return draws.nextInt(size);
            }
            u = draws.nextDouble();
        }
        return Math.min(size - 1, rank(cdf, u));
    }

    /** The rank (from 0) that {@code u} in [0, 1) falls on, by cumulative weights {@code cdf} (e.g. {@link #zipfCdf}). */
    public static int rank(double[] cdf, double u) {
        int i = Arrays.binarySearch(cdf, u);
        return Math.min(cdf.length - 1, i >= 0 ? i : -i - 1);
    }

    /** Whether the item was cached; it is cached (most recently used) after. */
    private boolean read(int item) {
        synchronized (lru) {
            if (lru.get(item) != null) {
                return true;
            }
            if (capacity > 0) {
                lru.put(item, Boolean.TRUE);
            }
            return false;
        }
    }

    public int capacity() {
        return capacity;
    }

    /** Resizes the cache (0 to the data set's size). */
    public void capacity(int items) {
        if (items < 0 || items > model.items()) {
            throw new IllegalArgumentException("cacheItems must be from 0 to the data set's " + model.items() + " items: " + items);
        }
        synchronized (lru) {
            capacity = items;
            Iterator<Integer> it = lru.keySet().iterator();
            while (lru.size() > items && it.hasNext()) {
                it.next();
                it.remove();
            }
        }
    }

    public long hits() {
        return hits.get();
    }

    public long misses() {
        return misses.get();
    }

    public WorkingSetModel model() {
        return model;
    }
}
