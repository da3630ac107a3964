package io.slagate.experiment.twin;

import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.SlagateConfig;
import io.slagate.rm.Overrides;
import io.slagate.rm.ResourceManager;
import io.slagate.rm.SurgeCycles;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The resource manager in the twin: the production decision logic ({@link ResourceManager}: change points, flow
 * observation, models and their correction, the solver, damping, cap splitting) and its rule for a cycle out of
 * turn ({@link SurgeCycles}), on the twin's clock. Reports arrive as the bus would hand them over, at once; each
 * cycle's allocation goes to every gateway, and its decision to whoever listens.
 */
public final class TwinManager {
    private final VirtualTime time;
    private final ResourceManager rm;
    private final SurgeCycles surges = new SurgeCycles();
    private final Duration cycle;
    private final List<TwinGateway> gateways = new ArrayList<>();
    private final List<Consumer<DecisionMessage>> listeners = new ArrayList<>();
    private long cycles;

    /**
     * @param phaseNanos when its first cycle runs: the manager's timer is not in step with the gateways' reports
     */
    public TwinManager(SlagateConfig config, VirtualTime time, long phaseNanos) {
        this.time = time;
        this.rm = new ResourceManager("rm-twin", config, new Overrides(), 0);
        this.cycle = config.controller().cycle();
        time.every(phaseNanos, cycle.toNanos(), this::cycle);
    }

    /** Where the classes' error budgets stand, for a controller with {@code controller.errorBudget}. */
    public void budgetSource(io.slagate.rm.BudgetSource source) {
        rm.budgetSource(source);
    }

    public void join(TwinGateway g) {
        gateways.add(g);
        rm.onJoin(g.id(), time.now());
    }

    public void onDecision(Consumer<DecisionMessage> listener) {
        listeners.add(listener);
    }

    /** A gateway's report: a detected change of load (or a surge) gets a cycle now, within the production rule's limit. */
    public void onStats(StatsMessage s) {
        Set<String> changed = rm.onStats(s, time.now());
        if (surges.admit(s.flashCrowd(), changed, s.gatewayId(), time.now(), cycle)) {
            cycle();
        }
    }

    public long cycles() {
        return cycles;
    }

    private void cycle() {
        long now = time.now();
        surges.cycled(now);
        ResourceManager.Decision d = rm.step(now);
        cycles++;
        AllocationMessage a = d.allocation();
        if (a != null) {
            for (TwinGateway g : gateways) {
                g.apply(a);
            }
        }
        if (d.decision() != null) {
            for (Consumer<DecisionMessage> l : listeners) {
                l.accept(d.decision());
            }
        }
    }
}
