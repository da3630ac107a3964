package io.slagate.console;

import io.slagate.bus.ControlBus;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.CredentialsMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.Senders;
import io.slagate.bus.message.Topics;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a change of the customers' credentials reaches every gateway, and how the console knows it did. A change is
 * published on {@code slagate.credentials}; each gateway reports the version it applies in its heartbeat (at once
 * after applying one), so the console answers the change when every live gateway applies it, or names the ones that
 * do not within a deadline ({@link #DEADLINE}). A gateway that reports an older version (restarted, or away from the bus when the
 * change went out) gets the current files again, at most every {@link #REPEAT}. A newer version published by another
 * console is written over this console's files, so that consoles do not undo each other's changes.
 */
final class CredentialsRollout {
    private static final Logger LOG = LoggerFactory.getLogger(CredentialsRollout.class);
    /** How long a change waits for the gateways before its answer names those that have not applied it. */
    static final Duration DEADLINE = Duration.ofSeconds(10);
    /** At most one repeat of the current files this often, however many gateways are behind. */
    static final Duration REPEAT = Duration.ofSeconds(2);

    /** What a change reached: the gateways that apply it, and those that did not within the deadline. */
    record Reach(long version, List<String> applied, List<String> pending) {
    }

    private record Waiting(long version, CompletableFuture<Reach> done) {
    }

    private final CustomerCredentials files;
    private final ControlBus bus;
    private final LiveState state;
    private final LongSupplier nanoClock;
    private final Duration deadline;
    private final List<Waiting> waiting = new CopyOnWriteArrayList<>();
    private long lastRepeatNanos;
    /** The newest version heard from a gateway. */
    private long newer;
    private boolean repeated;

    CredentialsRollout(CustomerCredentials files, ControlBus bus, LiveState state, LongSupplier nanoClock) {
        this(files, bus, state, nanoClock, DEADLINE);
    }

    CredentialsRollout(CustomerCredentials files, ControlBus bus, LiveState state, LongSupplier nanoClock, Duration deadline) {
        this.files = files;
        this.bus = bus;
        this.state = state;
        this.nanoClock = nanoClock;
        this.deadline = deadline;
    }

    /** Listens to the gateways' heartbeats and to other consoles' changes. */
    void attach() {
        state.addHeartbeatListener(this::heard);
        bus.subscribeWithSender(Topics.CREDENTIALS, (m, account) -> {
            if (m instanceof CredentialsMessage c) {
                adopt(c, account);
            }
        });
    }

    /**
     * Publishes the files as they are now: the answer completes when every live gateway that authenticates applies
     * them, or at the deadline naming those that do not. Throws when a file cannot be read (nothing is published).
     */
    CompletableFuture<Reach> publish(String user) throws IOException {
        CustomerCredentials.Snapshot s = files.snapshot();
        CompletableFuture<Reach> done = new CompletableFuture<>();
        Waiting w = new Waiting(s.version(), done);
        waiting.add(w);
        if (!bus.publish(Topics.CREDENTIALS, message(s, user))) {
            LOG.warn("customer credentials v{} not published: the bus did not take them (gateways that read this host's files"
                    + " still apply them; the others get them when the bus is back)", s.version());
        }
        settle(w);
        done.completeOnTimeout(null, deadline.toMillis(), TimeUnit.MILLISECONDS);
        return done.thenApply(r -> {
            waiting.remove(w);
            return r != null ? r : reach(s.version());
        });
    }

    /** The live gateways' versions, and the version they should apply: the console's view for its page. */
    Map<String, Object> view() {
        Map<String, Object> out = new TreeMap<>();
        out.put("version", files.version());
        out.put("gateways", state.credentialsVersions());
        out.put("behind", behind());
        return out;
    }

    private void heard(HeartbeatMessage h) {
        waiting.forEach(this::settle);
        long current = files.version();
        if (h.credentialsVersion() > current) {
            // another console made a change this one missed: its files are older than what gateways apply
            synchronized (this) {
                if (h.credentialsVersion() > newer) {
                    newer = h.credentialsVersion();
                    LOG.warn("gateway {} applies customers' credentials v{}, newer than this console's v{}: this console repeats"
                            + " nothing and takes no change until it has them (another console's next change, or a copy of its"
                            + " files)", h.componentId(), newer, current);
                }
            }
        } else if (h.credentialsVersion() >= 0 && h.credentialsVersion() < current && current > 0 && behind() == 0) {
            repeat(h.componentId());
        }
    }

    /**
     * The newest version a gateway applies that this console's files are older than, or 0: then a change made here would
     * undo one made elsewhere, and is refused.
     */
    synchronized long behind() {
        return newer > files.version() ? newer : 0;
    }

    /** The current files again, for a gateway behind; at most every {@link #REPEAT} whatever the number of gateways. */
    private void repeat(String behind) {
        synchronized (this) {
            long now = nanoClock.getAsLong();
            if (repeated && now - lastRepeatNanos < REPEAT.toNanos()) {
                return;
            }
            repeated = true;
            lastRepeatNanos = now;
        }
        try {
            CustomerCredentials.Snapshot s = files.snapshot();
            LOG.info("gateway {} applies an older version of the customers' credentials: v{} sent again", behind, s.version());
            bus.publish(Topics.CREDENTIALS, message(s, null));
        } catch (IOException e) {
            LOG.warn("the credential files cannot be read ({}); nothing is sent to gateway {}", e.toString(), behind);
        }
    }

    private void settle(Waiting w) {
        Reach r = reach(w.version());
        if (r.pending().isEmpty()) {
            w.done().complete(r);
        }
    }

    private Reach reach(long version) {
        List<String> applied = new ArrayList<>();
        List<String> pending = new ArrayList<>();
        state.credentialsVersions().forEach((gw, v) -> (v >= version ? applied : pending).add(gw));
        return new Reach(version, applied, pending);
    }

    /** Another console's newer change: taken into this console's files. */
    private void adopt(CredentialsMessage c, String account) {
        try {
            if (files.adopt(c.version(), c.htpasswd(), c.apiKeys())) {
                LOG.info("customer credentials v{} by {} (another console) written over this console's files", c.version(),
                        Senders.describe(c.user(), account));
            }
        } catch (IOException e) {
            LOG.warn("customer credentials v{} from another console could not be written here ({})", c.version(), e.toString());
        }
    }

    private static CredentialsMessage message(CustomerCredentials.Snapshot s, String user) {
        return new CredentialsMessage(BusMessage.SCHEMA, s.version(), s.htpasswd(), s.apiKeys(), user, System.currentTimeMillis());
    }
}
