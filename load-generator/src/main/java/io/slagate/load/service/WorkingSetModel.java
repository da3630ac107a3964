package io.slagate.load.service;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The data a {@link Bookstore} server works on: a data set of items in tables, each operation
 * reading a few items of some tables, every read going through the server's own bounded cache
 * ({@link ItemCache}): a hit costs {@code hit}, a miss {@code miss} (the database behind it). Operations
 * that read the same tables have correlated working sets, as TPC-W's interactions do.
 *
 * @param items         items in the data set
 * @param cacheItems    items one server's cache holds
 * @param base          each request's fixed cost
 * @param hit           cost of an item found in the cache
 * @param miss          cost of an item not in the cache (it is then cached, evicting the least recently used)
 * @param workers       requests one server executes at once (its worker pool); the others wait in the server
 * @param blockItems    items per block in the declared working set (the response header lists blocks)
 * @param zipf          the exponent s of the items' popularity within each table (rank r drawn with weight 1 / r^s);
 *                      0 for uniform
 * @param cpu           the share of each request's cost spent on the CPU (the rest waits, as on a database), in [0, 1]
 * @param seed          the seed of a server's item draws (each server adds its index); 0 for unseeded
 */
public record WorkingSetModel(int items, int cacheItems, Duration base, Duration hit, Duration miss, int workers,
                              int blockItems, double zipf, double cpu, long seed) {
    public static final String WORKING_SET_HEADER = "X-Slagate-Working-Set";
    /** Hits and misses of this request ("hits/misses"); for experiments, never read by the gateway. */
    public static final String CACHE_HEADER = "X-Bookstore-Cache";
    /**
     * The request header naming the document the {@code document} operation reads (a whole number from 0 to
     * {@link #documents()} − 1): document k is block k of the data set, so documents share no items, as the
     * files a web server's requests name (Pai et al.'s targets).
     */
    public static final String DOCUMENT_HEADER = "X-Document";
    /** The table name of a read from the request's document. */
    static final String DOCUMENT = "document";

    /** A table: a contiguous range of items. */
    public record Table(String name, int first, int size) {
    }

    /** Part of an operation's reads: {@code count} items drawn uniformly from a table (null: the whole data set). */
    public record Read(String table, int count) {
    }

    // The tables of a TPC-W-like store, 4000 items in all (sizes scale with items()).
    static final String PROMO = "promo";
    static final String LISTS = "lists";
    static final String CATALOG = "catalog";
    static final String CARTS = "carts";
    static final String CUSTOMERS = "customers";
    static final String ORDERS = "orders";
    private static final Map<String, Double> TABLE_SHARES = tableShares();

    private static Map<String, Double> tableShares() {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(PROMO, 0.10);
        m.put(LISTS, 0.15);
        m.put(CATALOG, 0.35);
        m.put(CARTS, 0.125);
        m.put(CUSTOMERS, 0.125);
        m.put(ORDERS, 0.15);
        return m;
    }

    /** A store of 4000 items, caches of {@code cacheItems}: 2 ms per request, 0.5 ms a hit, 5 ms a miss, 2 workers. */
    public static WorkingSetModel store(int cacheItems) {
        return new WorkingSetModel(4000, cacheItems, Duration.ofMillis(2), Duration.ofNanos(500_000), Duration.ofMillis(5), 2, 50);
    }

    /** Uniform popularity, costs spent waiting, unseeded. */
    public WorkingSetModel(int items, int cacheItems, Duration base, Duration hit, Duration miss, int workers, int blockItems) {
        this(items, cacheItems, base, hit, miss, workers, blockItems, 0, 0, 0);
    }

    public WorkingSetModel {
        if (items < 100 || cacheItems < 0 || workers < 1 || blockItems < 1) {
            throw new IllegalArgumentException("a working-set model needs at least 100 items, a cache of 0 or more, 1 worker");
        }
        if (!(zipf >= 0 && zipf <= 5) || !(cpu >= 0 && cpu <= 1)) {
            throw new IllegalArgumentException("zipf must be in [0, 5] and cpu in [0, 1]: " + zipf + ", " + cpu);
        }
    }

    /** The same with Zipf popularity of exponent {@code s}, {@code cpu} of the costs on the CPU, draws seeded by {@code seed}. */
    public WorkingSetModel with(double s, double cpuShare, long drawSeed) {
        return new WorkingSetModel(items, cacheItems, base, hit, miss, workers, blockItems, s, cpuShare, drawSeed);
    }

    /** The same for server {@code index}: its own seed. */
    WorkingSetModel forServer(int index) {
        return seed == 0 ? this : new WorkingSetModel(items, cacheItems, base, hit, miss, workers, blockItems, zipf, cpu, seed + index);
    }

    /** The documents the {@code document} operation can name: one per block of the data set. */
    public int documents() {
        return items / blockItems;
    }

    /** Document {@code k}'s items: block k. */
    public Table document(int k) {
        if (k < 0 || k >= documents()) {
            throw new IllegalArgumentException("no document " + k + " (documents are 0 to " + (documents() - 1) + ")");
        }
        return new Table(DOCUMENT, k * blockItems, blockItems);
    }

    public Map<String, Table> tables() {
        Map<String, Table> out = new LinkedHashMap<>();
        int first = 0;
        for (Map.Entry<String, Double> e : TABLE_SHARES.entrySet()) {
            int size = (int) Math.round(items * e.getValue());
            out.put(e.getKey(), new Table(e.getKey(), first, size));
            first += size;
        }
        return out;
    }

    /** The reads of each of the fourteen TPC-W interactions, as {@link Bookstore}'s operations. */
    public Map<String, List<Read>> operations() {
        Map<String, List<Read>> ops = new LinkedHashMap<>();
        // front page: promotions and the new/best-seller lists
        ops.put("home", List.of(new Read(PROMO, 4)));
        ops.put("newProducts", List.of(new Read(LISTS, 4), new Read(PROMO, 1)));
        ops.put("bestSellers", List.of(new Read(LISTS, 4), new Read(PROMO, 1)));
        // catalog
        ops.put("productDetail", List.of(new Read(CATALOG, 4)));
        ops.put("searchRequest", List.of(new Read(CATALOG, 3)));
        ops.put("searchResults", List.of(new Read(CATALOG, 5)));
        ops.put("adminRequest", List.of(new Read(CATALOG, 2)));
        ops.put("adminConfirm", List.of(new Read(CATALOG, 2), new Read(LISTS, 1)));
        // the order path: carts and customers
        ops.put("shoppingCart", List.of(new Read(CARTS, 3), new Read(CATALOG, 1)));
        ops.put("buyRequest", List.of(new Read(CARTS, 2), new Read(CUSTOMERS, 2)));
        ops.put("buyConfirm", List.of(new Read(CARTS, 2), new Read(ORDERS, 2)));
        // customers and their orders
        ops.put("customerRegistration", List.of(new Read(CUSTOMERS, 3)));
        ops.put("orderInquiry", List.of(new Read(CUSTOMERS, 1), new Read(ORDERS, 3)));
        ops.put("orderDisplay", List.of(new Read(ORDERS, 4)));
        // a document named by the request (DOCUMENT_HEADER): items of its block, uniformly
        ops.put("document", List.of(new Read(DOCUMENT, 4)));
        // no locality at all: any item of the whole data set
        ops.put("anyItem", List.of(new Read(null, 4)));
        return ops;
    }
}
