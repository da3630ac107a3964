package io.slagate.experiment.twin;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.GatewayAllocation;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.SlagateConfig;
import io.slagate.gateway.GatewayTimers;
import io.slagate.gateway.agent.AllocationShare;
import io.slagate.gateway.agent.StatsReport;
import io.slagate.gateway.sched.Allocation;
import io.slagate.gateway.sched.QueueManager;
import io.slagate.gateway.sched.QueuedRequest;
import io.slagate.gateway.sched.Rejection;
import io.slagate.gateway.sched.ServerSlots;
import io.slagate.gateway.soap.FaultReason;
import io.slagate.gateway.stats.GatewayMetrics;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A gateway in the twin: the production scheduler ({@link QueueManager}: class queues, weighted round robin,
 * caps N_g and N_{g,s}, queue timeouts) and statistics ({@link GatewayMetrics}: windows, percentiles, the
 * report), on the twin's clock. A request takes the calls a request takes through the real gateway (arrived,
 * offered, admitted onto a server, released, completed or faulted); only the HTTP around it is gone.
 */
public final class TwinGateway {
    /** What becomes of a request: answered after {@code responseNanos}, or faulted. */
    public interface Reply {
        void answered(long responseNanos);

        void faulted(FaultReason reason);
    }

    private final String id;
    private final SlagateConfig config;
    private final VirtualTime time;
    private final PlantServer[] servers;
    private final QueueManager queues;
    private final GatewayMetrics metrics;
    private long sequence;

    /** @param servers the plant's server for each of the configuration's servers, in its order */
    public TwinGateway(String id, SlagateConfig config, VirtualTime time, PlantServer[] servers) {
        if (servers.length != config.servers().size()) {
            throw new IllegalArgumentException(config.servers().size() + " servers configured, " + servers.length + " simulated");
        }
        this.id = id;
        this.config = config;
        this.time = time;
        this.servers = servers;
        this.queues = QueueManager.create(config, Allocation.fromConfig(config), time);
        this.metrics = new GatewayMetrics(config, new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock(time)), queues,
                new GatewayMetrics.Totals());
        long sweep = TimeUnit.MILLISECONDS.toNanos(GatewayTimers.sweepIntervalMillis(config.classes()));
        time.every(sweep, sweep, queues::expireOverdue);
    }

    public String id() {
        return id;
    }

    public QueueManager queues() {
        return queues;
    }

    /** A request of class {@code classIndex} (of {@code customer}, or null) bringing {@code work} seconds of work. */
    public void submit(int classIndex, String customer, double work, Reply reply) {
        metrics.arrived(classIndex);
        Rejection r = queues.offer(new Request(classIndex, time.now(), customer, work, reply));
        if (r == Rejection.QUEUE_FULL) {
            metrics.faulted(classIndex, FaultReason.QUEUE_FULL);
            reply.faulted(FaultReason.QUEUE_FULL);
        }
    }

    /** The end of a reporting interval: the window moves on and the report for the managers is made. */
    public StatsMessage report() {
        metrics.rotate();
        return StatsReport.of(id, ++sequence, TimeUnit.NANOSECONDS.toMillis(time.now()), config, queues, metrics,
                metrics.flowStats(queues), Map.of());
    }

    /** Applies this gateway's share of a manager's allocation, if newer than the one in force. */
    public boolean apply(AllocationMessage a) {
        GatewayAllocation mine = a.gateways().get(id);
        Allocation current = queues.caps().allocation();
        if (mine == null || a.version() <= current.version()) {
            return false;
        }
        queues.timeouts().set(AllocationShare.queueTimeouts(a, config));
        metrics.windowIntervals(AllocationShare.windowIntervals(a, metrics));
        queues.pools().assignPools(a.serverPools());
        queues.setAllocation(AllocationShare.of(a, mine, config, current));
        return true;
    }

    /** Holds the weights and caps {@code a} says, as an operator's static configuration would. */
    public void hold(Allocation a) {
        queues.setAllocation(a);
    }

    private final class Request extends QueuedRequest {
        private final double work;
        private final Reply reply;
        private long admittedNanos;

        Request(int classIndex, long enqueuedNanos, String customer, double work, Reply reply) {
            super(classIndex, enqueuedNanos, customer);
            this.work = work;
            this.reply = reply;
        }

        @Override
        protected void onAdmitted(ServerSlots server) {
            admittedNanos = time.now();
            servers[server.index()].start(work, () -> completed(server));
        }

        private void completed(ServerSlots server) {
            queues.release(server, classIndex());
            long now = time.now();
            metrics.completed(classIndex(), admittedNanos - enqueuedNanos(), now - admittedNanos, now - enqueuedNanos());
            metrics.servers().completed(server.index(), now - admittedNanos);
            reply.answered(now - enqueuedNanos());
        }

        @Override
        protected void onExpired() {
            FaultReason reason = expiredForDeadline() ? FaultReason.DEADLINE_EXCEEDED : FaultReason.QUEUE_TIMEOUT;
            metrics.faulted(classIndex(), reason);
            reply.faulted(reason);
        }
    }

    /** Micrometer's clock read from the twin's: its timers age their windows in virtual time. */
    private static Clock clock(VirtualTime time) {
        return new Clock() {
            @Override
            public long wallTime() {
                return TimeUnit.NANOSECONDS.toMillis(time.now());
            }

            @Override
            public long monotonicTime() {
                return time.now();
            }
        };
    }
}
