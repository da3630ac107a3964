package io.slagate.rm.optimize;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Damping of the allocation per pool: the move from the last decision toward the optimum, with a γ that adapts to
 * whether the optimum keeps its direction. Remembers each pool's last decision. The manager's thread only.
 */
public final class Damper {
    /** The last decision of a pool: its flows, N in units, units per flow, the move that led there, γ then, and the idle flows. */
    public record Last(List<String> flows, int total, int[] units, int[] move, double gamma, boolean[] idle) {
    }

    private final Map<String, Last> last = new HashMap<>();

    /** Pool {@code pool}'s last decision, or null before its first. */
    public Last last(String pool) {
        return last.get(pool);
    }

    /**
     * Forgets pool {@code pool}'s last decision: its next one goes to the optimum at once, and γ starts again from the
     * configured value. For a detected change of the load, which damping would otherwise spread over cycles.
     */
    public void restart(String pool) {
        last.remove(pool);
    }

    /** Takes over {@code other}'s memory of the last decisions (a reconfigured manager damps from where it was). */
    public void rememberFrom(Damper other) {
        last.putAll(other.last);
    }

    /**
     * Moves γ of the way from the last allocation to the optimum, rounded by largest remainder so
     * that Σ = total and every flow keeps its minimum (both ends satisfy them, so the blend does).
     *
     * <p>γ adapts, as step sizes do in sign-based descent: when the optimum asks to undo the last
     * move (the model overshot: it is wrong about this plant), γ halves, down to a sixteenth of the
     * configured value; whenever the optimum asks for a change that does not undo the last move, γ
     * grows by half again, up to the configured value — also after cycles in which the small γ
     * rounded the move away, so the loop cannot stay stuck on a stale allocation while the load
     * changes. A fixed γ alone only shrinks an oscillation's amplitude, and with integer units a
     * 2-cycle of any amplitude ≥ 1 survives it. No damping when the flows or N changed since the
     * last cycle, or when a flow idle then carries traffic now (a gateway that has just joined, a
     * class whose clients just came): there is nothing to blend from, and creeping up from the
     * minimum a flow got while idle would make its first clients wait for cycles.
     *
     * @param configured γ as configured ({@code controller.damping}); 1: no damping
     */
    public int[] damp(String pool, List<String> flows, int total, int minUnits, int[] optimum, boolean[] idle, double configured) {
        Last prev = last.get(pool);
        int[] out = optimum;
        double gamma = configured;
        boolean woke = false;
        if (prev != null && prev.flows().equals(flows)) {
            for (int j = 0; j < idle.length; j++) {
                woke |= prev.idle()[j] && !idle[j];
            }
        }
        if (configured < 1 && prev != null && prev.flows().equals(flows) && prev.total() == total && !woke) {
            long agreement = 0;
            for (int j = 0; j < optimum.length; j++) {
                agreement += (long) (optimum[j] - prev.units()[j]) * prev.move()[j];
            }
            boolean wantsChange = !Arrays.equals(optimum, prev.units());
            gamma = agreement < 0 ? Math.max(configured / 16, prev.gamma() / 2)
                    : wantsChange ? Math.min(configured, prev.gamma() * 1.5) : prev.gamma();
            double[] target = new double[optimum.length];
            for (int j = 0; j < optimum.length; j++) {
                int delta = optimum[j] - prev.units()[j];
                // a hair toward the optimum: a blend that lands on .5 rounds toward it, not by index
                // order (γ = 0.5 and a one-unit step would otherwise never be taken by a lower index)
                target[j] = prev.units()[j] + gamma * delta + 1e-6 * Integer.signum(delta);
            }
            out = CapPartition.round(target, total, minUnits);
        }
        int[] move = new int[out.length];
        if (prev != null && prev.flows().equals(flows) && prev.total() == total) {
            for (int j = 0; j < out.length; j++) {
                move[j] = out[j] - prev.units()[j];
            }
        }
        last.put(pool, new Last(List.copyOf(flows), total, out.clone(), move, gamma, idle.clone()));
        return out;
    }
}
