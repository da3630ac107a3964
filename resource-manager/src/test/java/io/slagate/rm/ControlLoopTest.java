package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.ControlBus;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.ConfigMessage;
import io.slagate.bus.message.ControlMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.Combining;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import io.slagate.config.ControllerSettings;
import io.slagate.rm.tune.InterleavedTuner;
import io.slagate.rm.tune.Tuner;
import io.slagate.rm.tune.TuningPartition;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The console's overrides reach the decision logic (the bus is not started: its own tests are in the bus module). */
class ControlLoopTest {
    private long now = 1_000_000_000_000L;

    /** A test's configuration, with gw1 bound to its bus account as a deployment with accounts binds it. */
    private static SlagateConfig config(String yaml) {
        return ConfigLoader.parse(yaml + "\nbus: { gatewayAccounts: { gw-account: [gw1] } }\n", "t");
    }

    /** Gateway gw1 joins from its bus account, as a real one does before its statistics count. */
    private static void joinGw1(ControlLoop loop) {
        loop.core().onGatewayHeartbeat(new HeartbeatMessage(BusMessage.SCHEMA, "gw1", "gateway",
                HeartbeatMessage.JOIN, 0, 0), "gw-account");
    }

    /** gw1's statistics: these flows and server states, one second's report. */
    private static StatsMessage gw1Stats(List<FlowStatsMessage> flows,
                                                                List<ServerStatusMessage> servers) {
        return new StatsMessage(BusMessage.SCHEMA, "gw1", 1, 0, 5, 0, flows, servers);
    }

    private static ControlMessage cmd(String command, String gw, String cls, String server, double value, double expires) {
        return new ControlMessage(BusMessage.SCHEMA, command, gw, cls, server, value, expires, "alice", 0);
    }

    @Test
    void controlMessages_pinPauseAndResume() {
        Overrides o = new Overrides();
        ControlBus bus = new ControlBus("vm://nowhere", null, null, "rm");
        try (ControlLoop loop = new ControlLoop("rm", config("""
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 10 } ]
                classes: [ { name: premium, target: 2s }, { name: basic, target: 3s } ]
                """), bus, o, new SimpleMeterRegistry(), () -> now)) {
            loop.core().onControl(cmd(ControlMessage.PIN_WEIGHT, "gw1", "basic", null, 7, 10), null);
            assertEquals(7, o.weight("gw1", "basic", now));
            now += 11_000_000_000L;
            assertNull(o.weight("gw1", "basic", now), "expired after 10 s");
            loop.core().onControl(cmd(ControlMessage.PIN_CAPACITY, null, null, "s1", 4, 0), null);
            assertEquals(4, o.capacity("s1", now + 1_000_000_000_000L), "no expiry: until unpinned");
            loop.core().onControl(cmd(ControlMessage.UNPIN_CAPACITY, null, null, "s1", 0, 0), null);
            assertNull(o.capacity("s1", now));
            loop.core().onControl(cmd(ControlMessage.PAUSE, null, null, null, 0, 0), null);
            assertTrue(o.paused());
            loop.core().onControl(cmd(ControlMessage.RESUME, null, null, null, 0, 0), null);
            assertFalse(o.paused());
            loop.core().onControl(cmd(ControlMessage.PIN_WEIGHT, "gw1", "basic", null, -3, 0), null);
            assertNull(o.weight("gw1", "basic", now), "an invalid pin is refused, not applied");
            loop.core().onControl(cmd("explode", null, null, null, 0, 0), null); // unknown: logged and ignored
            loop.core().onControl(cmd(ControlMessage.PIN_POOL, null, null, "s1", 0, 0), null);
            assertTrue(loop.status().pools().pins().isEmpty(), "s1 serves one pool only: refused");
        } finally {
            bus.close();
        }
    }

    @Test
    void configMessage_replacesTheClasses_badOneIgnored() {
        ControlBus bus = new ControlBus("vm://nowhere", null, null, "rm");
        String yaml = """
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 10 } ]
                classes: [ { name: premium, target: 2s }, { name: basic, target: 3s } ]
                """;
        try (ControlLoop loop = new ControlLoop("rm", config(yaml), bus, new Overrides(),
                new SimpleMeterRegistry(), () -> now)) {
            loop.core().onConfig(new ConfigMessage(BusMessage.SCHEMA, 2, yaml.replace("target: 3s", "target: 7s"), "bob", 0), null);
            assertEquals(7.0, loop.status().config().classes().get(1).targetSeconds(), 1e-9);
            loop.core().onConfig(new ConfigMessage(BusMessage.SCHEMA, 3, "classes: nonsense", "eve", 0), null);
            assertEquals(7.0, loop.status().config().classes().get(1).targetSeconds(), 1e-9, "a configuration that does not load changes nothing");
        } finally {
            bus.close();
        }
    }
    @Test
    void configMessage_newControlCycle_reschedulesTheTimer() {
        ControlBus bus = new ControlBus("vm://nowhere", null, null, "rm");
        String yaml = """
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 10 } ]
                classes: [ { name: premium, target: 2s }, { name: basic, target: 3s } ]
                controller: { cycle: 1h, combining: sum }
                """;
        try (ControlLoop loop = new ControlLoop("rm", config(yaml), bus, new Overrides(),
                new SimpleMeterRegistry(), () -> now).start()) {
            loop.core().onConfig(new ConfigMessage(BusMessage.SCHEMA, 2,
                    yaml.replace("cycle: 1h, combining: sum", "cycle: 50ms, combining: min"), "bob", 0), null);
            assertEquals(Combining.MIN, loop.status().config().controller().combining());
            long after = loop.status().cycles();
            // with the old period no timer cycle would come for an hour
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> loop.status().cycles() >= after + 5);
        } finally {
            bus.close();
        }
    }

    /**
     * A gateway that reports a flash crowd in every message (broken, or hostile) gets at most one extra cycle per
     * min(1 s, Γ/4): the manager is not made to solve without pause.
     */
    @Test
    void flashCrowdReports_runACycleAtOnce_atMostOncePerGap() {
        ControlBus bus = new ControlBus("vm://nowhere", null, null, "rm");
        String yaml = """
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 10 } ]
                classes: [ { name: premium, target: 2s }, { name: basic, target: 3s } ]
                controller: { cycle: 1h }
                """;
        try (ControlLoop loop = new ControlLoop("rm", config(yaml), bus, new Overrides(),
                new SimpleMeterRegistry(), () -> now).start()) {
            joinGw1(loop);
            StatsMessage alarm = gw1Stats(
                    List.of(new FlowStatsMessage("basic", 500, 100, 0, 1.0, 0.5, 0.5, 50, 10, 5)),
                    List.of(new ServerStatusMessage("s1", 10, 10, true))).withFlashCrowd("basic");
            now += 2_000_000_000L; // past the gap after the cycle the join may have run
            for (int i = 0; i < 50; i++) {
                loop.core().onStats(alarm, "gw-account");
                now += 10_000_000L; // 50 alarms in half a second
            }
            assertEquals(1, loop.status().counts().flashCrowdCycles(), "one cycle for the burst of alarms");
            now += 1_000_000_000L;
            loop.core().onStats(alarm, "gw-account");
            assertEquals(2, loop.status().counts().flashCrowdCycles(), "the next one after the gap");
            loop.core().onStats(alarm, "another-account");
            assertEquals(2, loop.status().counts().flashCrowdCycles(), "an alarm from an account the gateway did not join with counts for nothing");
        } finally {
            bus.close();
        }
    }

    /** A safe pool a (s1, class p) and an experimental pool t (s2, its twin p-trial), tuning one {@code knob}. */
    private static String sidesYaml(String knob) {
        return """
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 8, pool: a }
                  - { id: s2, url: "http://127.0.0.1:2", concurrency: 8, pool: t }
                classes:
                  - { name: p, target: 1s, pool: a }
                  - { name: p-trial, target: 1s, pool: t }
                controller: { cycle: 1h, tuning: { safe: a, experimental: t, twins: { p: p-trial }, period: 2s, settle: 1s,
                  knobs: [ %s ] } }
                """.formatted(knob);
    }

    /** gw1's report of both sides: the same traffic on each. */
    private static StatsMessage sidesStats() {
        return gw1Stats(List.of(new FlowStatsMessage("p", 10, 10, 0, 0.5, 0.1, 0.4, 1, 4, 5),
                        new FlowStatsMessage("p-trial", 10, 10, 0, 0.5, 0.1, 0.4, 1, 4, 5)),
                List.of(new ServerStatusMessage("s1", 8, 4, true),
                        new ServerStatusMessage("s2", 8, 4, true)));
    }

    @Test
    void tuningCommands_startStopRevert_andEachDecisionCarriesTheTunersState() {
        ControlBus bus = new ControlBus("vm://nowhere", null, null, "rm");
        String yaml = sidesYaml("{ name: concurrency, min: 1, max: 20 }");
        try (ControlLoop loop = new ControlLoop("rm", config(yaml), bus, new Overrides(),
                new SimpleMeterRegistry(), () -> now)) {
            loop.core().onControl(cmd(ControlMessage.TUNING_START, null, null, null, 0, 0), null); // before the tuner exists: ignored
            joinGw1(loop);
            loop.core().onStats(sidesStats(), "gw-account");
            for (int i = 0; i < 4; i++) { // the baseline period, then a trial
                now += 1_000_000_000L;
                loop.core().cycle();
            }
            Tuner.State during = loop.tuner().state();
            assertTrue(during == Tuner.State.SETTLING || during == Tuner.State.MEASURING,
                    "a trial is under way after the baseline: " + during);
            DecisionMessage.TuningStatus status = loop.status().lastDecision().tuning().get(0);
            assertEquals("default", status.partition(), "the unpartitioned form is one partition");
            assertEquals(List.of("concurrency"), status.knobs());
            assertEquals(List.of(8.0), status.best(), "the configured N_s is where tuning starts");
            assertEquals(during.name().toLowerCase(Locale.ROOT), status.state());

            loop.core().onControl(cmd(ControlMessage.TUNING_STOP, null, null, null, 0, 0), null);
            assertEquals(Tuner.State.STOPPED, loop.tuner().state());
            assertEquals("stopped", loop.status().lastDecision().tuning().get(0).state(), "a decision at once says so");
            loop.core().onControl(cmd(ControlMessage.TUNING_REVERT, null, null, null, 0, 0), null);
            assertEquals(List.of(8.0), loop.status().lastDecision().tuning().get(0).best());
            loop.core().onControl(cmd(ControlMessage.TUNING_START, null, null, null, 0, 0), null);
            assertEquals(Tuner.State.SETTLING, loop.tuner().state(), "started again: the next trial");
        } finally {
            bus.close();
        }
    }

    /**
     * The queueTimeout knob sets the timeout of the side's classes at the gateways: once a trial is under way, every
     * allocation carries the experimental class's timeout, a value within the knob's bounds other than the configured
     * 30 s, while the safe class keeps the configured one (the best known); stopping puts both sides on it.
     */
    @Test
    void queueTimeoutKnob_reachesTheGatewaysWithEveryAllocation() {
        ControlBus bus = new ControlBus("vm://nowhere", null, null, "rm");
        String yaml = sidesYaml("{ name: queueTimeout, min: 0.2, max: 30 }");
        try (ControlLoop loop = new ControlLoop("rm", config(yaml), bus, new Overrides(),
                new SimpleMeterRegistry(), () -> now)) {
            joinGw1(loop);
            loop.core().onStats(sidesStats(), "gw-account");
            for (int i = 0; i < 5; i++) {
                now += 1_000_000_000L;
                loop.core().cycle();
            }
            Map<String, Long> t = loop.status().lastAllocation().queueTimeoutMillis();
            assertTrue(t.containsKey("p-trial") && t.get("p-trial") >= 200 && t.get("p-trial") < 30_000, "the trial's: " + t);
            assertEquals(List.of(30.0), loop.status().lastDecision().tuning().get(0).best());
            assertNull(t.get("p"), "the safe side keeps its configured timeout, the best known: " + t);
            loop.core().onControl(cmd(ControlMessage.TUNING_STOP, null, null, null, 0, 0), null);
            now += 1_000_000_000L;
            loop.core().cycle();
            t = loop.status().lastAllocation().queueTimeoutMillis();
            assertEquals(30_000L, t.get("p-trial"), "stopped: both sides on the best: " + t);
            assertTrue(t.get("p") == null || t.get("p") == 30_000L, "" + t);
        } finally {
            bus.close();
        }
    }

    /**
     * The controller's own knobs, tuned without a safe side where the operator said so: a trial's values are the manager's
     * settings in force (damping, resolution, model, Γ), and stopping puts the best back.
     */
    @Test
    void interleavedTuning_setsTheControllersOwnKnobs_andStopPutsTheBestBack() {
        ControlBus bus = new ControlBus("vm://nowhere", null, null, "rm");
        String yaml = """
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 8 }
                classes:
                  - { name: p, target: 1s }
                controller: { cycle: 5s, damping: 0.5, resolution: 1, model: auto,
                  tuning: { interleaved: true, period: 2s, settle: 1s, knobs: [
                    { name: damping, min: 0.1, max: 0.9 }, { name: resolution, min: 0.5, max: 4 },
                    { name: model, choices: [auto, mm1] }, { name: cycle, min: 2, max: 30 } ] } }
                """;
        try (ControlLoop loop = new ControlLoop("rm", config(yaml), bus, new Overrides(),
                new SimpleMeterRegistry(), () -> now)) {
            joinGw1(loop);
            loop.core().onStats(gw1Stats(List.of(new FlowStatsMessage("p", 10, 10, 0, 0.5, 0.1, 0.4, 1, 4, 5)),
                    List.of(new ServerStatusMessage("s1", 8, 4, true))), "gw-account");
            ControllerSettings before = loop.status().config().controller();
            for (int i = 0; i < 4; i++) { // the baseline period, then the first trial
                now += 1_000_000_000L;
                loop.core().cycle();
            }
            assertTrue(loop.tuner() instanceof InterleavedTuner);
            Tuner.State during = loop.tuner().state();
            assertTrue(during == Tuner.State.SETTLING || during == Tuner.State.MEASURING,
                    "a trial is under way: " + during);
            ControllerSettings trial = loop.status().config().controller();
            assertEquals(List.of(0.5, 1.0, 0.0, 5.0),
                    Arrays.stream(loop.tuner().bestValues()).boxed().toList(), "the best is what was in force");
            assertTrue(trial.damping() != before.damping() || trial.resolution() != before.resolution()
                    || !trial.model().equals(before.model()) || !trial.cycle().equals(before.cycle()),
                    "the trial's values are the settings in force: " + trial);
            assertEquals(before.combining(), trial.combining(), "the rest unchanged");
            loop.core().onControl(cmd(ControlMessage.TUNING_STOP, null, null, null, 0, 0), null);
            ControllerSettings after = loop.status().config().controller();
            assertEquals(before.damping(), after.damping(), 1e-9);
            assertEquals(before.resolution(), after.resolution(), 1e-9);
            assertEquals(before.model(), after.model());
            assertEquals(before.cycle(), after.cycle());
        } finally {
            bus.close();
        }
    }

    /**
     * The statistics window knob (interleaved): a trial's window reaches the gateways with every allocation, and stopping
     * puts back the best, the configured 20 s.
     */
    @Test
    void windowKnob_reachesTheGatewaysWithEveryAllocation_andStopPutsTheBestBack() {
        ControlBus bus = new ControlBus("vm://nowhere", null, null, "rm");
        String yaml = """
                gateway: { stats: { reportingInterval: 1s, window: 20s } }
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 8 }
                classes:
                  - { name: p, target: 1s }
                controller: { cycle: 1s, tuning: { interleaved: true, period: 2s, settle: 20s, knobs: [ { name: window, min: 2, max: 20 } ] } }
                """;
        try (ControlLoop loop = new ControlLoop("rm", config(yaml), bus, new Overrides(),
                new SimpleMeterRegistry(), () -> now)) {
            joinGw1(loop);
            loop.core().onStats(gw1Stats(List.of(new FlowStatsMessage("p", 10, 10, 0, 0.5, 0.1, 0.4, 1, 4, 5)),
                    List.of(new ServerStatusMessage("s1", 8, 4, true))), "gw-account");
            long window = 0;
            for (int i = 0; i < 200 && (window == 0 || window == 20_000); i++) { // settle, reference, settle, then the trial
                now += 1_000_000_000L;
                loop.core().cycle();
                window = loop.status().lastAllocation().statsWindowMillis();
            }
            assertTrue(window >= 2000 && window < 20_000, "a trial's window: " + window);
            assertEquals(List.of(20.0), Arrays.stream(loop.tuner().bestValues()).boxed().toList());
            loop.core().onControl(cmd(ControlMessage.TUNING_STOP, null, null, null, 0, 0), null);
            now += 1_000_000_000L;
            loop.core().cycle();
            long after = loop.status().lastAllocation().statsWindowMillis();
            assertTrue(after == 0 || after == 20_000, "the best, the configured window: " + after);
        } finally {
            bus.close();
        }
    }

    /**
     * Active Harmony's parameter partitioning: each work line (a safe and an experimental pool) has its own tuner,
     * measured on its own classes; an operator's command may name one partition, or none for all.
     */
    @Test
    void partitions_eachTheirOwnTuner_measuredOnTheirOwnClasses_andCommandedOneByOne() {
        ControlBus bus = new ControlBus("vm://nowhere", null, null, "rm");
        Overrides o = new Overrides();
        String yaml = """
                servers:
                  - { id: a1, url: "http://127.0.0.1:1", concurrency: 8, pool: a }
                  - { id: a2, url: "http://127.0.0.1:2", concurrency: 8, pool: a-trial }
                  - { id: b1, url: "http://127.0.0.1:3", concurrency: 4, pool: b }
                  - { id: b2, url: "http://127.0.0.1:4", concurrency: 4, pool: b-trial }
                classes:
                  - { name: p, target: 1s, pool: a }
                  - { name: p-trial, target: 1s, pool: a-trial }
                  - { name: q, target: 1s, pool: b }
                  - { name: q-trial, target: 1s, pool: b-trial }
                controller: { cycle: 1h, tuning: { period: 2s, settle: 1s, partitions: {
                  quotes: { safe: a, experimental: a-trial, twins: { p: p-trial }, knobs: [ { name: concurrency, min: 1, max: 20 } ] },
                  trades: { safe: b, experimental: b-trial, twins: { q: q-trial }, knobs: [ { name: concurrency, min: 2, max: 10 } ],
                            best: { concurrency: 6 } } } } }
                """;
        try (ControlLoop loop = new ControlLoop("rm", config(yaml), bus, o, new SimpleMeterRegistry(), () -> now)) {
            joinGw1(loop);
            // quotes' sides measure differently from trades' sides: each partition must see its own
            StatsMessage stats = gw1Stats(
                    List.of(new FlowStatsMessage("p", 10, 10, 0, 0.5, 0.1, 0.4, 1, 4, 5),
                            new FlowStatsMessage("p-trial", 10, 10, 0, 0.25, 0.05, 0.2, 1, 4, 5),
                            new FlowStatsMessage("q", 10, 10, 0, 0.9, 0.5, 0.4, 1, 4, 5),
                            new FlowStatsMessage("q-trial", 10, 10, 0, 0.8, 0.4, 0.4, 1, 4, 5)),
                    List.of(new ServerStatusMessage("a1", 8, 4, true),
                            new ServerStatusMessage("a2", 8, 4, true),
                            new ServerStatusMessage("b1", 4, 2, true),
                            new ServerStatusMessage("b2", 4, 2, true)));
            loop.core().onStats(stats, "gw-account");
            for (int i = 0; i < 4; i++) { // the baseline period, then a trial in each partition
                now += 1_000_000_000L;
                loop.core().cycle();
            }
            List<TuningPartition> parts = loop.tuningPartitions();
            assertEquals(List.of("quotes", "trades"), parts.stream().map(TuningPartition::name).toList());
            double[] quotes = parts.get(0).sides();
            double[] trades = parts.get(1).sides();
            assertEquals(0.5, quotes[0], 1e-9, "quotes' safe side is p: 1 s target, 0.5 s measured");
            assertEquals(0.75, quotes[1], 1e-9, "quotes' experimental side is p-trial");
            assertEquals(0.1, trades[0], 1e-9, "trades' safe side is q");
            assertEquals(0.2, trades[1], 1e-9, "trades' experimental side is q-trial");
            assertEquals(6, o.capacity("b1", now), "trades' written-back best is where its sides started");
            assertNull(o.capacity("a1", now), "quotes' safe side untouched by trades' best (its configured N_s)");
            for (TuningPartition p : parts) {
                Tuner.State st = p.tuner().state();
                assertTrue(st == Tuner.State.SETTLING || st == Tuner.State.MEASURING,
                        p.name() + " runs its own trial at the same time: " + st);
            }
            assertEquals(List.of("quotes", "trades"),
                    loop.status().lastDecision().tuning().stream().map(DecisionMessage.TuningStatus::partition).toList());
            assertEquals(List.of(6.0), loop.status().lastDecision().tuning("trades").best());

            loop.core().onControl(new ControlMessage(BusMessage.SCHEMA, ControlMessage.TUNING_STOP, null, null, null, 0, 0, "alice", 0, "trades"), null);
            assertEquals(Tuner.State.STOPPED, parts.get(1).tuner().state());
            assertTrue(parts.get(0).tuner().state() != Tuner.State.STOPPED, "a command to trades leaves quotes alone");
            assertEquals("stopped", loop.status().lastDecision().tuning("trades").state());
            loop.core().onControl(new ControlMessage(BusMessage.SCHEMA, ControlMessage.TUNING_STOP, null, null, null, 0, 0, "alice", 0, "nosuch"), null);
            assertTrue(parts.get(0).tuner().state() != Tuner.State.STOPPED, "an unknown partition is refused");
            loop.core().onControl(cmd(ControlMessage.TUNING_STOP, null, null, null, 0, 0), null);
            assertEquals(Tuner.State.STOPPED, parts.get(0).tuner().state(), "no partition named: every one");
        } finally {
            bus.close();
        }
    }

    @Test
    void aBestConfigurationWrittenBack_isWhereBothSidesStart() {
        ControlBus bus = new ControlBus("vm://nowhere", null, null, "rm");
        Overrides o = new Overrides();
        String yaml = """
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: 8, pool: a }
                  - { id: s2, url: "http://127.0.0.1:2", concurrency: 8, pool: t }
                classes:
                  - { name: p, target: 1s, pool: a }
                  - { name: p-trial, target: 1s, pool: t }
                controller: { cycle: 1h, tuning: { safe: a, experimental: t, twins: { p: p-trial },
                  knobs: [ { name: concurrency, min: 1, max: 20 } ], best: { concurrency: 13 } } }
                """;
        try (ControlLoop loop = new ControlLoop("rm", config(yaml), bus, o, new SimpleMeterRegistry(), () -> now)) {
            loop.core().cycle();
            assertEquals(13, o.capacity("s1", now), "the safe side's N_s, as written back");
            assertEquals(13, o.capacity("s2", now), "and the experimental side's");
        } finally {
            bus.close();
        }
    }

    @Test
    void poolPins_fromTheConsole_keepAMovableServerWhereItIs() {
        ControlBus bus = new ControlBus("vm://nowhere", null, null, "rm");
        String yaml = """
                servers:
                  - { id: a1, url: "http://127.0.0.1:1", concurrency: 5, pool: a }
                  - { id: b1, url: "http://127.0.0.1:2", concurrency: 5, pool: b }
                  - { id: b2, url: "http://127.0.0.1:3", concurrency: 5, pool: b, pools: [b, a] }
                classes:
                  - { name: quotes, target: 1s, pool: a }
                  - { name: trades, target: 1s, pool: b }
                controller: { cycle: 1h, reconfiguration: { every: 1s } }
                """;
        try (ControlLoop loop = new ControlLoop("rm", config(yaml), bus, new Overrides(),
                new SimpleMeterRegistry(), () -> now)) {
            loop.core().onControl(cmd(ControlMessage.PIN_POOL, null, null, "b2", 0, 0), null);
            assertEquals(Set.of("b2"), loop.status().pools().pins());
            loop.core().onControl(cmd(ControlMessage.PIN_POOL, null, null, "nosuch", 0, 0), null);
            assertEquals(Set.of("b2"), loop.status().pools().pins(), "an unknown server is refused");
            // pool a saturated (quotes at 180/s of 20 ms on 5 slots: 0.72 busy... 3.6 slots), b idle: b2 would move
            joinGw1(loop);
            StatsMessage stats = gw1Stats(
                    List.of(new FlowStatsMessage("quotes", 500, 250, 0, 1.0, 0.98, 0.02, 50, 5, 5),
                            new FlowStatsMessage("trades", 10, 10, 0, 0.02, 0, 0.02, 0, 1, 5)),
                    List.of(new ServerStatusMessage("a1", 5, 5, true, 250, 0.02),
                            new ServerStatusMessage("b1", 5, 1, true, 5, 0.02),
                            new ServerStatusMessage("b2", 5, 0, true, 5, 0.02)));
            for (int i = 0; i < 5; i++) {
                loop.core().onStats(stats, "gw-account");
                now += 2_000_000_000L;
                loop.core().cycle();
            }
            assertEquals(0, loop.status().pools().moves(), "pinned: not moved, however saturated a is");
            loop.core().onControl(cmd(ControlMessage.UNPIN_POOL, null, null, "b2", 0, 0), null);
            for (int i = 0; i < 3; i++) {
                loop.core().onStats(stats, "gw-account");
                now += 2_000_000_000L;
                loop.core().cycle();
            }
            assertEquals(1, loop.status().pools().moves(), "unpinned, it moves: " + loop.status().pools().moveLog());
            assertEquals("a", loop.status().serverPools().get("b2"));
        } finally {
            bus.close();
        }
    }

    /** Reports of a steady load, then a step of premium's arrivals (48 → 112 per second), each with its last interval. */
    private static StatsMessage intervalStats(long seq, double premiumRate, double premiumSeconds, boolean withInterval) {
        FlowStatsMessage.Interval p = new FlowStatsMessage.Interval(0.25, Math.round(premiumRate / 4), Math.round(premiumRate / 4), 0,
                premiumSeconds, premiumSeconds / 2, premiumSeconds / 2);
        FlowStatsMessage.Interval b = new FlowStatsMessage.Interval(0.25, 12, 12, 0, 0.06, 0.03, 0.03);
        return new StatsMessage(BusMessage.SCHEMA, "gw1", seq, 0, 1.5, 0, List.of(
                new FlowStatsMessage("premium", premiumRate, premiumRate, 0, premiumSeconds, premiumSeconds / 2, premiumSeconds / 2,
                        0, 0, 5, Double.NaN, Double.NaN, 0, withInterval ? p : null),
                new FlowStatsMessage("basic", 48, 48, 0, 0.06, 0.03, 0.03, 0, 0, 5, Double.NaN, Double.NaN, 0, withInterval ? b : null)),
                List.of(new ServerStatusMessage("s1", 10, 0, true)));
    }

    private static double premiumWeight(ResourceManager.Decision d) {
        return d.decision().flows().stream().filter(f -> f.className().equals("premium")).findFirst().orElseThrow().weight();
    }

    /**
     * A step of a flow's arrivals is a change, estimated from the intervals since the step with the damping restarted:
     * the damped manager's decision is the undamped one's; without the intervals the damped one creeps.
     */
    @Test
    void aChangeOfTheLoad_isDecidedUndamped() {
        String yaml = """
                gateway: { stats: { reportingInterval: 250ms, window: 1500ms } }
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 10 } ]
                classes: [ { name: premium, target: 100ms }, { name: basic, target: 150ms } ]
                controller: { cycle: 250ms, model: mm1, correctionBound: 1, damping: %s }
                """;
        double[] after = new double[3];
        double[] before = new double[3];
        String[] damping = {"0.1", "1", "0.1"};
        for (int k = 0; k < 3; k++) {
            boolean intervals = k < 2; // the third manager's gateway reports no intervals: no change is seen
            ResourceManager rm = new ResourceManager("rm", config(String.format(Locale.ROOT, yaml, damping[k])), new Overrides(), 0);
            rm.onJoin("gw1", now);
            for (int i = 0; i < 24; i++) {
                now += 250_000_000L;
                assertTrue(rm.onStats(intervalStats(i, 48, 0.06, intervals), now).isEmpty(), "a steady load");
                before[k] = premiumWeight(rm.step(now));
            }
            now += 250_000_000L;
            Set<String> changed = rm.onStats(intervalStats(100, 140, 0.12, intervals), now);
            assertEquals(intervals ? Set.of("premium") : Set.of(), changed);
            after[k] = premiumWeight(rm.step(now));
        }
        assertEquals(before[1], before[0], 1e-9, "the same steady optimum, damped or not");
        assertTrue(after[1] > before[1], "the step moves the undamped optimum toward premium: " + before[1] + " -> " + after[1]);
        assertEquals(after[1], after[0], 1e-9, "damping restarted: the damped manager decides as the undamped one");
        assertTrue(after[2] < after[1], "without the change seen the damped manager creeps: " + after[2] + " vs " + after[1]);
    }

    /** A change seen in a report runs a cycle at once, at most once per min(1 s, Γ/4), as a surge does. */
    @Test
    void aChangeOfTheLoad_runsACycleAtOnce() {
        ControlBus bus = new ControlBus("vm://nowhere", null, null, "rm");
        String yaml = """
                gateway: { stats: { reportingInterval: 250ms, window: 1500ms } }
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 10 } ]
                classes: [ { name: premium, target: 100ms }, { name: basic, target: 150ms } ]
                controller: { cycle: 1h }
                """;
        try (ControlLoop loop = new ControlLoop("rm", config(yaml), bus, new Overrides(), new SimpleMeterRegistry(), () -> now).start()) {
            joinGw1(loop);
            for (int i = 0; i < 24; i++) {
                now += 250_000_000L;
                loop.core().onStats(intervalStats(i, 48, 0.06, true), "gw-account");
            }
            assertEquals(0, loop.status().counts().changeCycles(), "a steady load runs no extra cycle");
            now += 2_000_000_000L;
            loop.core().onStats(intervalStats(100, 112, 0.09, true), "gw-account");
            assertEquals(1, loop.status().counts().changeCycles(), "the step: a cycle at once");
            loop.core().onStats(intervalStats(101, 400, 0.09, true), "gw-account");
            assertEquals(1, loop.status().counts().changeCycles(), "another change within the gap waits for the next cycle");
        } finally {
            bus.close();
        }
    }
}
