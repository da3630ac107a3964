package io.slagate.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.AllocationMessage;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The solve over classes against the exact one over flows (g, c), on instances small enough for both. The plant is
 * the paper's M/M/1 per slot (eq. 8–9, no correction), so each flow's measurement is what the model predicts, and
 * the full DP's optimum is the reference: the class solve's allocation is feasible for it, so its utility can only
 * be lower or equal.
 */
class ClassLevelSolveTest {
    private static final long NOW = 1_000_000_000_000L;
    private static final int CLASSES = 3;
    private static final double[] MU = {4, 2, 1}; // per slot, requests/s
    private static final double[] TARGET = {1, 2, 3};

    private static SlagateConfig config(String solve, String combining, int slots, String utility) {
        StringBuilder classes = new StringBuilder();
        for (int c = 0; c < CLASSES; c++) {
            classes.append("  - { name: c").append(c).append(", target: ").append((int) TARGET[c]).append("s").append(utility)
                    .append(" }\n");
        }
        return ConfigLoader.parse("""
                gateway: { stats: { reportingInterval: 5s, window: 30s } }
                servers:
                  - { id: s1, url: "http://127.0.0.1:1", concurrency: %d }
                classes:
                %s
                controller: { combining: %s, model: mm1, correctionBound: 1, damping: 1, minGain: 0, solve: %s }
                """.formatted(slots, classes.toString().stripTrailing().replace("\n", "\n").indent(0), combining, solve), "t");
    }

    /**
     * Gateway g's report: per class λ and its relative weight, the slots it holds on s1 (the manager reads flow (g, c)'s
     * share w~ as those slots × the class's fraction of the weights), and t from M/M/1 at that share with service rate
     * {@code mu[c]} per slot.
     */
    private static StatsMessage report(String gw, double[] lambda, double[] w, double[] mu) {
        double sum = 0;
        for (double x : w) {
            sum += x;
        }
        int cap = (int) Math.max(1, Math.round(sum));
        List<FlowStatsMessage> flows = new ArrayList<>();
        for (int c = 0; c < CLASSES; c++) {
            double share = cap * w[c] / sum;
            double t = 1 / (mu[c] - lambda[c] / share);
            assertTrue(t > 0, "a stable instance");
            flows.add(new FlowStatsMessage("c" + c, lambda[c], lambda[c], 0, t, 0, t, 0, 0, w[c]));
        }
        return new StatsMessage(BusMessage.SCHEMA, gw, 1, 0, 30, 1, flows, List.of(new ServerStatusMessage("s1", cap, 0, true)));
    }

    /** Each solve's cluster utility on one instance: {flows, classes}. */
    private static double[] bothUtilities(int gateways, long seed, double spread, boolean oneSlowFlow, String combining,
                                          String utility) {
        Random rnd = new Random(seed);
        int slots = 12 * gateways;
        double[][] lambda = new double[gateways][CLASSES];
        double[] classRate = new double[CLASSES];
        for (int g = 0; g < gateways; g++) {
            for (int c = 0; c < CLASSES; c++) {
                lambda[g][c] = MU[c] * 1.5 * (1 + spread * (2 * rnd.nextDouble() - 1)); // about 1.5 slots' worth, ± spread
                classRate[c] += lambda[g][c];
            }
        }
        // the share in force: each class's slots split by demand (as behind one balancer), every flow stable under it
        double[] classSlots = new double[CLASSES];
        double need = 0;
        for (int c = 0; c < CLASSES; c++) {
            need += classRate[c] / MU[c];
        }
        for (int c = 0; c < CLASSES; c++) {
            classSlots[c] = slots * (classRate[c] / MU[c]) / need;
        }
        double[] out = new double[2];
        String[] modes = {"flows", "classes"};
        for (int m = 0; m < 2; m++) {
            ResourceManager rm = new ResourceManager("rm", config(modes[m], combining, slots, utility), new Overrides(), 0);
            for (int g = 0; g < gateways; g++) {
                double[] w = new double[CLASSES];
                double[] mu = MU.clone();
                for (int c = 0; c < CLASSES; c++) {
                    w[c] = classSlots[c] * lambda[g][c] / classRate[c];
                }
                if (oneSlowFlow && g == 0) {
                    mu[0] = MU[0] * 0.6; // gateway 0's class-0 requests take longer (another mix, a slower path)
                    w[0] = Math.max(w[0], lambda[g][0] / mu[0] * 1.2);
                }
                rm.onStats(report("gw" + g, lambda[g], w, mu), NOW);
            }
            ResourceManager.Decision d = rm.step(NOW);
            AllocationMessage a = d.allocation();
            double total = 0;
            for (int g = 0; g < gateways; g++) {
                for (int c = 0; c < CLASSES; c++) {
                    total += a.gateways().get("gw" + g).weights().get("c" + c);
                }
            }
            assertEquals(slots, total, 1e-6, modes[m] + ": Σ w = N");
            out[m] = d.decision().clusterUtility();
        }
        return out;
    }

    private static final String CONCAVE = ""; // the paper's utility (eq. 7)
    private static final String STEP = ", utility: { type: step, slope: 0.2 }";

    /** Relative gap of the class solve below the full DP: {flows, classes} → (flows − classes) / |flows|. */
    private static double gap(double[] u, String what) {
        assertTrue(u[0] >= u[1] - 1e-9 * Math.max(1, Math.abs(u[0])), "the full DP is the optimum: " + what);
        return (u[0] - u[1]) / Math.abs(u[0]);
    }

    /**
     * A concave utility: the class solve's tables are the full DP's inner tables built by marginal gains, so it is
     * exact, whatever the gateways' demand and even where one gateway's flow answers more slowly.
     */
    @Test
    void concaveUtility_classSolveIsTheFullDpsOptimum() {
        for (String combining : List.of("sum", "min")) {
            for (int gateways : new int[] {2, 4, 8}) {
                for (long seed = 1; seed <= 6; seed++) {
                    for (double spread : new double[] {0.1, 0.8}) {
                        for (boolean slow : new boolean[] {false, true}) {
                            double[] u = bothUtilities(gateways, seed, spread, slow, combining, CONCAVE);
                            String what = String.format(Locale.ROOT, "%s, %d gateways, seed %d, spread %.1f, slow %s: flows %.6f"
                                    + " classes %.6f", combining, gateways, seed, spread, slow, u[0], u[1]);
                            assertTrue(gap(u, what) <= 1e-9, what);
                        }
                    }
                }
            }
        }
    }

    /**
     * A step utility (not concave): each class is seen as one flow and its share split by demand. Under sum
     * combining, behind one balancer (demand within ±10%), that is within 1% of the full DP; where one gateway's flow
     * answers more slowly, the full DP gives it more than its demand's share and the class solve does not, so it falls
     * further behind. Under min combining the class solve can be far behind: a step's reward is all or nothing per
     * flow, the DP gives the worst class just enough units in aggregate, and rounding them across the gateways leaves
     * some of its flows just past the target (which is why {@code solve: auto} keeps such pools on the full DP).
     */
    @Test
    void stepUtility_sumWithinOnePercentBehindOneBalancer_aSlowerFlowCostsMore_minFarBehind() {
        double worstBalanced = 0;
        double worstSlow = 0;
        double worstMin = 0;
        for (int gateways : new int[] {2, 4, 8}) {
            for (long seed = 1; seed <= 6; seed++) {
                double[] u = bothUtilities(gateways, seed, 0.1, false, "sum", STEP);
                String what = String.format(Locale.ROOT, "%d gateways, seed %d: flows %.6f classes %.6f", gateways, seed, u[0], u[1]);
                worstBalanced = Math.max(worstBalanced, gap(u, what));
                assertTrue(gap(u, what) <= 0.01, what);
                worstSlow = Math.max(worstSlow, gap(bothUtilities(gateways, seed, 0.1, true, "sum", STEP), "slow: " + what));
                worstMin = Math.max(worstMin, gap(bothUtilities(gateways, seed, 0.1, false, "min", STEP), "min: " + what));
            }
        }
        System.out.printf(Locale.ROOT, "step utility: worst gap under sum behind one balancer %.4f, with one slower flow %.4f;"
                + " under min %.4f%n", worstBalanced, worstSlow, worstMin);
        assertTrue(worstSlow > worstBalanced, "a slower flow costs the class solve more than rounding does");
        assertTrue(worstMin > 0.01, "under min, the rounding of a step's class costs more than 1%: " + worstMin);
    }
}
