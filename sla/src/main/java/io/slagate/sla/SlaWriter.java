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
import java.util.function.Supplier;
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
    /** The error budgets are read every this many control cycles (30 s at the shipped 5 s cycle). */
    static final int BUDGET_CYCLES = 6;
    /** Ledgers of one gateway waiting at once: its own and those of a restart or two. */
    static final int MAX_LEDGERS = 3;
    /** How long a stop waits for a flush under way: beyond PostgreSQL's 30 s socket timeout, so that one ends first. */
    static final Duration STOP_WAIT = Duration.ofSeconds(35);
    /** A gateway silent this long leaves the writer's roster. */
    static final Duration SILENT = Duration.ofHours(1);

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
    private final Map<String, Long> heard = new HashMap<>(); // under this: gateway id → when last heard
    private final AtomicLong refusedRows = new AtomicLong();
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
    /** The configuration in force (its objectives and controller.errorBudget may change on a reload). */
    private volatile Supplier<SlagateConfig> config;
    /** Per class {elapsed, spent} as the store last said ({@link SlaBudgets}); read from the manager's thread. */
    private volatile Map<String, double[]> budgets = Map.of();
    private long lastBudgets; // the writer's thread

    SlaWriter(String owner, SlaStores stores, SlagateConfig config, LongSupplier millis, int maxPending) {
        this.maxPending = maxPending;
        this.config = () -> config;
        this.owner = owner;
        this.stores = stores;
        this.millis = millis;
        this.roster = new GatewayRoster(config.controller().maxGateways(), config.bus().gatewayAccounts(), config.bus().user());
    }

    /** The configuration in force from now on (a reload): the objectives and the error budgets are read by it. */
    public void configuration(Supplier<SlagateConfig> inForce) {
        this.config = inForce;
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

    /** Reads the classes' budgets every {@value #BUDGET_CYCLES} control cycles (a standby reads too: the store is shared). */
    private void readBudgets(long now) {
        SlagateConfig inForce = config.get();
        long every = inForce.controller().cycle().multipliedBy(BUDGET_CYCLES).toMillis();
        if (now - lastBudgets < every || !inForce.controller().errorBudget().on()
                || inForce.classes().stream().noneMatch(c -> c.objective() != null)) {
            return;
        }
        lastBudgets = now;
        try {
            if (store == null) {
                store = stores.open();
            }
            budgets = Map.copyOf(SlaBudgets.of(store, inForce, now));
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
            warn("SLA totals of gateway {} from bus account {} refused: the account may not speak for it", s.gatewayId(), account);
            return;
        }
        heard.put(s.gatewayId(), millis.getAsLong());
        Ledger ledger = new Ledger(s.gatewayId(), s.sla().epochMillis());
        Map<String, SlaTally.Row> rows = pending.get(ledger);
        if (rows == null && pending.keySet().stream().filter(l -> l.gateway().equals(ledger.gateway())).count() >= MAX_LEDGERS) {
            refused.incrementAndGet(); // a gateway restarts now and then; one that begins a ledger at every report is broken
            warn("SLA totals of gateway {} refused: it has {} ledgers waiting to be written already", s.gatewayId(), MAX_LEDGERS);
            return;
        }
        for (SlaTally.Row r : s.sla().rows()) {
            String key = r.customer() + '\u0000' + r.className();
            SlaTally.Row was = rows == null ? null : rows.get(key);
            if (was == null && pendingRows >= maxPending) {
                dropped.incrementAndGet();
                warn("{} SLA rows are waiting to be written: a new row of gateway {} is dropped (its next report carries it)",
                        pendingRows, s.gatewayId());
                continue;
            }
            if (rows == null) {
                rows = new HashMap<>();
                pending.put(ledger, rows);
            }
            if (was == null) {
                pendingRows++;
                rows.put(key, r);
            } else if (r.requests() >= was.requests() && r.good() >= was.good()) {
                rows.put(key, r);
            }
        }
    }

    private void warn(String format, Object... args) {
        if (warnings.allow()) {
            LOG.warn(format, args);
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

    /**
     * Writes what is pending, a transaction per gateway ledger; keeps it when the store cannot be reached, drops it while
     * another writer holds the store. A ledger the store refuses as data it cannot hold (SQLState class 22) is dropped and
     * counted, so that it cannot hold the others back.
     */
    void flush() {
        long now = millis.getAsLong();
        Map<Ledger, Map<String, SlaTally.Row>> taken;
        synchronized (this) {
            forgetSilent(now);
            taken = new LinkedHashMap<>();
            pending.forEach((k, v) -> taken.put(k, new HashMap<>(v)));
        }
        if (taken.isEmpty()) {
            return;
        }
        Map<Ledger, Map<String, SlaTally.Row>> done = new LinkedHashMap<>();
        try {
            if (store == null) {
                store = stores.open();
            }
            for (Map.Entry<Ledger, Map<String, SlaTally.Row>> e : taken.entrySet()) {
                SlaTally tally = new SlaTally(e.getKey().epoch(), List.copyOf(e.getValue().values()));
                try {
                    written.addAndGet(store.apply(Map.of(e.getKey().gateway(), tally), owner, now, LEASE.toMillis()));
                } catch (SQLException refusedHere) {
                    String state = refusedHere.getSQLState();
                    if (state == null || !state.startsWith("22") || !store.answers()) {
                        throw refusedHere; // not the data's fault (a lock, the network): kept, tried again
                    }
                    refusedRows.addAndGet(tally.rows().size());
                    LOG.warn("the SLA store refused gateway {}'s ledger of {} ({}): its {} rows are dropped", e.getKey().gateway(),
                            e.getKey().epoch(), refusedHere.getMessage(), tally.rows().size());
                }
                done.put(e.getKey(), e.getValue());
            }
            if (standingBy != null) {
                LOG.info("the SLA store's lease is this process's ({}): it writes the gateways' counts", owner);
                standingBy = null;
            }
            if (now - lastPurge > SlaStore.HOUR) {
                store.purge(now);
                lastPurge = now;
            }
        } catch (SlaStore.HeldElsewhere e) {
            if (standingBy == null || !standingBy.equals(e.getMessage())) {
                LOG.warn("{}: this process ({}) stands by and writes nothing while it runs", e.getMessage(), owner);
                standingBy = e.getMessage();
            }
            done.putAll(taken); // the writer that holds the store hears the same reports
        } catch (SQLException e) {
            long n = failures.incrementAndGet();
            warn("the SLA store {} failed ({}; {} failures so far): the counts are kept here, at most {} rows, and written"
                    + " when it answers; the gateways serve on", stores.url(), e.getMessage(), n, maxPending);
            closeStore();
        } finally {
            forget(done);
        }
    }

    /** Gateways not heard from for {@link #SILENT}: out of the roster (their ids may be taken by new gateways). */
    private void forgetSilent(long now) {
        heard.entrySet().removeIf(e -> {
            boolean silent = now - e.getValue() > SILENT.toMillis();
            if (silent) {
                roster.leave(e.getKey());
            }
            return silent;
        });
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

    /** Rows the store refused while it answered (a value it cannot hold), dropped. */
    public long refusedRows() {
        return refusedRows.get();
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
            if (!thread.awaitTermination(STOP_WAIT.toSeconds(), TimeUnit.SECONDS)) {
                // its flush still holds the store's connection: a last flush beside it would share that connection
                LOG.warn("the SLA writer's flush did not end within {} s: the counts since it began are carried by the"
                        + " gateways' next totals to whichever writer runs next", STOP_WAIT.toSeconds());
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
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
