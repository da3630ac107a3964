package io.slagate.sla;

import io.slagate.bus.ControlBus;
import io.slagate.bus.GatewayRoster;
import io.slagate.bus.message.SlaTally;
import io.slagate.bus.message.StatsMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.SlagateConfig;
import io.slagate.util.LogLimiter;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the gateways' SLA totals from the bus into the store, once per flush whatever the number of processes running
 * one: the store's lease names one writer, and the others stand by (and say so). Between flushes, and while the store
 * cannot be reached, it keeps per gateway ledger and row only the latest totals (a later total supersedes an earlier one,
 * so nothing is lost by waiting), at most {@value #MAX_PENDING} rows; a row beyond them is dropped and counted, and the
 * next report of it carries its counts when there is room again.
 * Totals count only from the bus account the gateway speaks with ({@link GatewayRoster}).
 */
public final class SlaWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SlaWriter.class);
    /** Rows kept between flushes or while the store is away. */
    public static final int MAX_PENDING = 200_000;
    static final Duration FLUSH = Duration.ofSeconds(5);
    static final Duration LEASE = Duration.ofSeconds(30);
    static final Duration BUDGETS_EVERY = Duration.ofSeconds(30);

    /** One gateway ledger's latest totals by customer and class. */
    private record Ledger(String gateway, long epoch) {
    }

    private final String owner;
    private final SlaStores stores;
    private final LongSupplier millis;
    private final GatewayRoster roster;
    private final int maxPending;
    private final Map<Ledger, Map<String, SlaTally.Row>> pending = new LinkedHashMap<>(); // under this
    private int pendingRows; // under this
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final LogLimiter warnings = new LogLimiter(Duration.ofSeconds(60));
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "slagate-sla-writer");
        t.setDaemon(true);
        return t;
    });
    private SlaStore store; // the writer's thread
    private String standingBy; // the writer's thread: the other writer's description while this one stands by
    private long lastPurge;
    private final SlagateConfig config;
    /** Per class {elapsed, spent} as the store last said ({@link SlaBudgets}); read from the manager's thread. */
    private volatile Map<String, double[]> budgets = Map.of();
    private long lastBudgets; // the writer's thread

    SlaWriter(String owner, SlaStores stores, SlagateConfig config, LongSupplier millis, int maxPending) {
        this.maxPending = maxPending;
        this.config = config;
        this.owner = owner;
        this.stores = stores;
        this.millis = millis;
        this.roster = new GatewayRoster(config.controller().maxGateways(), config.bus().gatewayAccounts(), config.bus().user());
    }

    /** A writer on the bus, flushing every {@link #FLUSH} on its own thread. */
    public static SlaWriter start(String owner, SlagateConfig config, ControlBus bus) {
        SlaWriter w = new SlaWriter(owner, SlaStores.of(config), config, System::currentTimeMillis, MAX_PENDING);
        bus.subscribeWithSender(Topics.STATS, (m, account) -> {
            if (m instanceof StatsMessage s) {
                w.offer(s, account);
            }
        });
        w.thread.scheduleWithFixedDelay(w::flushQuietly, FLUSH.toMillis(), FLUSH.toMillis(), TimeUnit.MILLISECONDS);
        return w;
    }

    /** Where class {@code className}'s error budget stands, {elapsed, spent}, as of the last reading; null: unknown. */
    public double[] budget(String className) {
        return budgets.get(className);
    }

    /** Reads the classes' budgets every {@link #BUDGETS_EVERY} (a standby reads too: the store is shared). */
    private void readBudgets(long now) {
        if (now - lastBudgets < BUDGETS_EVERY.toMillis() || !config.controller().errorBudget().on()
                || config.classes().stream().noneMatch(c -> c.objective() != null)) {
            return;
        }
        lastBudgets = now;
        try {
            if (store == null) {
                store = stores.open();
            }
            budgets = Map.copyOf(SlaBudgets.of(store, config, now));
        } catch (SQLException e) {
            if (warnings.allow()) {
                LOG.warn("the SLA store {} could not be read for the error budgets ({}): the controller weighs the classes as"
                        + " it last read them", stores.url(), e.getMessage());
            }
            closeStore();
        }
    }

    /** A gateway's report: its totals kept until the next flush, if its sender may speak for it. */
    public synchronized void offer(StatsMessage s, String account) {
        if (s.sla() == null || s.sla().rows().isEmpty()) {
            return;
        }
        if (roster.join(s.gatewayId(), account) != null) {
            refused.incrementAndGet();
            return;
        }
        Map<String, SlaTally.Row> rows = pending.computeIfAbsent(new Ledger(s.gatewayId(), s.sla().epochMillis()), k -> new HashMap<>());
        for (SlaTally.Row r : s.sla().rows()) {
            String key = r.customer() + '\u0000' + r.className();
            SlaTally.Row was = rows.get(key);
            if (was == null && pendingRows >= maxPending) {
                dropped.incrementAndGet();
                continue;
            }
            if (was == null) {
                pendingRows++;
                rows.put(key, r);
            } else if (r.requests() >= was.requests() && r.good() >= was.good()) {
                rows.put(key, r);
            }
        }
    }

    private void flushQuietly() {
        try {
            flush();
            readBudgets(millis.getAsLong());
        } catch (RuntimeException e) {
            LOG.error("the SLA writer failed; it goes on at the next flush", e);
        }
    }

    /** Writes what is pending; keeps it when the store fails, drops it while another writer holds the store. */
    void flush() {
        Map<String, SlaTally> batch = new HashMap<>();
        Map<Ledger, Map<String, SlaTally.Row>> taken;
        synchronized (this) {
            taken = new LinkedHashMap<>();
            pending.forEach((k, v) -> taken.put(k, new HashMap<>(v)));
        }
        if (taken.isEmpty()) {
            return;
        }
        // one transaction per flush; a gateway's ledgers each a tally of their own
        long now = millis.getAsLong();
        try {
            if (store == null) {
                store = stores.open();
            }
            for (Map.Entry<Ledger, Map<String, SlaTally.Row>> e : taken.entrySet()) {
                batch.clear();
                batch.put(e.getKey().gateway(), new SlaTally(e.getKey().epoch(), List.copyOf(e.getValue().values())));
                written.addAndGet(store.apply(batch, owner, now, LEASE.toMillis()));
            }
            if (standingBy != null) {
                LOG.info("the SLA store's lease is this process's ({}): it writes the gateways' counts", owner);
                standingBy = null;
            }
            forget(taken);
            if (now - lastPurge > SlaStore.HOUR) {
                store.purge(now);
                lastPurge = now;
            }
        } catch (SlaStore.HeldElsewhere e) {
            if (standingBy == null || !standingBy.equals(e.getMessage())) {
                LOG.warn("{}: this process ({}) stands by and writes nothing while it runs", e.getMessage(), owner);
                standingBy = e.getMessage();
            }
            forget(taken); // the writer that holds the store hears the same reports
        } catch (SQLException e) {
            long n = failures.incrementAndGet();
            if (warnings.allow()) {
                LOG.warn("the SLA store {} failed ({}; {} failures so far): the counts are kept here, at most {} rows, and written"
                        + " when it answers; the gateways serve on", stores.url(), e.getMessage(), n, maxPending);
            }
            closeStore();
        }
    }

    /** Drops what was written, unless a newer total came in meanwhile. */
    private synchronized void forget(Map<Ledger, Map<String, SlaTally.Row>> done) {
        for (Map.Entry<Ledger, Map<String, SlaTally.Row>> e : done.entrySet()) {
            Map<String, SlaTally.Row> rows = pending.get(e.getKey());
            if (rows == null) {
                continue;
            }
            for (Map.Entry<String, SlaTally.Row> r : e.getValue().entrySet()) {
                if (rows.remove(r.getKey(), r.getValue())) {
                    pendingRows--;
                }
            }
            if (rows.isEmpty()) {
                pending.remove(e.getKey());
            }
        }
    }

    private void closeStore() {
        if (store != null) {
            try {
                store.close();
            } catch (SQLException ignored) {
                // already broken
            }
            store = null;
        }
    }

    /** Rows dropped because {@link #MAX_PENDING} were waiting. */
    public long dropped() {
        return dropped.get();
    }

    /** Flushes that failed on the store. */
    public long failures() {
        return failures.get();
    }

    /** Reports refused: their sender may not speak for the gateway they name. */
    public long refused() {
        return refused.get();
    }

    /** Rows whose counts were written. */
    public long written() {
        return written.get();
    }

    /** Whether another process's writer holds the store. */
    public boolean standingBy() {
        return standingBy != null;
    }

    /** A last flush, then the lease given up. */
    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("the SLA writer's flush did not end within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flushQuietly();
        if (store != null && standingBy == null) {
            try {
                store.release(owner);
            } catch (SQLException e) {
                LOG.warn("the SLA store's lease was not given up ({}): another writer takes it when it runs out", e.getMessage());
            }
        }
        closeStore();
    }
}
