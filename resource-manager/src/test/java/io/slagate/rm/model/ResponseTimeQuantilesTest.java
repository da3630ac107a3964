package io.slagate.rm.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Percentile predictions against answers found independently: closed forms where they
 * exist (M/M/1's exponential sojourn time, the service time alone when no request waits, Erlang's
 * tail when every client is always queued) and a seeded discrete-event simulation of the same FCFS
 * queue otherwise.
 */
class ResponseTimeQuantilesTest {

    /** Response times of an FCFS station with m servers, exponential service (mean s), fed by N clients
     *  thinking Exp(z) (closed) or, with n = 0, by a Poisson stream at rate lambda (open). */
    private static double simulatedQuantile(int n, double z, double lambda, double s, int m, double p, long seed) {
        Random rnd = new Random(seed);
        PriorityQueue<double[]> events = new PriorityQueue<>((x, y) -> Double.compare(x[0], y[0])); // {time, kind, arrivedAt}
        ArrayDeque<Double> queue = new ArrayDeque<>();
        int busy = 0;
        if (n > 0) {
            for (int i = 0; i < n; i++) {
                events.add(new double[] {exp(rnd, z), 0, 0});
            }
        } else {
            events.add(new double[] {exp(rnd, 1 / lambda), 0, 0});
        }
        int samples = 200_000;
        int warmup = 20_000;
        double[] r = new double[samples];
        int done = 0;
        while (done < samples + warmup) {
            double[] e = events.poll();
            double now = e[0];
            if (e[1] == 0) { // arrival
                if (n == 0) {
                    events.add(new double[] {now + exp(rnd, 1 / lambda), 0, 0});
                }
                if (busy < m) {
                    busy++;
                    events.add(new double[] {now + exp(rnd, s), 1, now});
                } else {
                    queue.add(now);
                }
            } else { // departure
                if (done >= warmup) {
                    r[done - warmup] = now - e[2];
                }
                done++;
                if (n > 0) {
                    events.add(new double[] {now + exp(rnd, z), 0, 0});
                }
                if (queue.isEmpty()) {
                    busy--;
                } else {
                    events.add(new double[] {now + exp(rnd, s), 1, queue.poll()});
                }
            }
        }
        Arrays.sort(r);
        return r[(int) Math.ceil(p * samples) - 1];
    }

    private static double exp(Random rnd, double mean) {
        return -mean * Math.log(1 - rnd.nextDouble());
    }

    @Test
    void mm1_isTheExponentialSojournTime() {
        // λ = 5/s at w = 1 with t = 0.5 s: μ = 7/s; at w = 2, M/M/1 of eq. 9 has t = 1/(7 − 2.5); sojourn Exp(μ − λ/w)
        FlowObservation o = new FlowObservation(5, 0.5, 1);
        double q = new MM1Model().predictQuantileSeconds(o, 2, 0.95);
        assertEquals(Math.log(20) / (7 - 2.5), q, 1e-9);
    }

    @Test
    void erlangC_oneSlotIsMM1_andSeveralMatchTheSimulation() {
        // m = 1: R ~ Exp(μ − λ) exactly; λ = 6, S = 0.1
        FlowObservation o = new FlowObservation(6, 0.25, 1, 6, 0.1);
        assertEquals(Math.log(20) / (10 - 6), new ErlangCModel().predictQuantileSeconds(o, 1, 0.95), 1e-6);
        // m = 4, a = 3 slots busy on average: simulate the same queue
        FlowObservation four = new FlowObservation(30, 0.2, 4, 30, 0.1);
        double predicted = new ErlangCModel().predictQuantileSeconds(four, 4, 0.95);
        double simulated = simulatedQuantile(0, 0, 30, 0.1, 4, 0.95, 7);
        assertEquals(simulated, predicted, 0.03 * simulated, "predicted " + predicted + " simulated " + simulated);
    }

    @Test
    void closed_matchesClosedFormsAtItsEdges() {
        // more slots than clients: nobody waits, R ~ Exp(S)
        assertEquals(-0.1 * Math.log(0.05), ClosedPopulationModel.exactQuantile(5, 1, 0.1, 8, 8, 0.95), 1e-6);
        // no think time, one slot: an arrival finds the N − 1 others queued, R ~ Erlang(N, 1/S)
        int n = 4;
        double s = 0.1;
        double x = ClosedPopulationModel.exactQuantile(n, 0, s, 1, 1, 0.9);
        double tail = 0;
        for (int i = 0; i < n; i++) {
            tail += Math.exp(-x / s) * Math.pow(x / s, i) / factorial(i);
        }
        assertEquals(0.1, tail, 1e-6);
    }

    @Test
    void closed_matchesTheSimulation_whereClientsQueue() {
        int[][] cases = {{20, 5}, {20, 1}, {12, 3}};
        for (int[] c : cases) {
            double z = 1;
            double s = 0.4;
            for (double p : new double[] {0.5, 0.95, 0.99}) {
                double predicted = ClosedPopulationModel.exactQuantile(c[0], z, s, c[1], c[1], p);
                double simulated = simulatedQuantile(c[0], z, 0, s, c[1], p, 11);
                assertEquals(simulated, predicted, 0.04 * simulated, "N=" + c[0] + " m=" + c[1] + " p=" + p);
            }
        }
    }

    @Test
    void closed_calibratedFlow_percentileFallsWithTheShare_andMatchesTheMeasuredSystem() {
        // a measurement of N = 20 clients (Z = 1 s, S = 1 s) at 5 slots, calibrated back
        double r = ClosedPopulationModel.exact(20, 1, 1, 5, 5);
        double x = 20 / (r + 1);
        FlowObservation o = new FlowObservation(x, r, 5, x, 1);
        ClosedPopulationModel model = new ClosedPopulationModel();
        double previous = Double.POSITIVE_INFINITY;
        for (double w = 2; w <= 12; w += 0.5) {
            double q = model.predictQuantileSeconds(o, w, 0.95);
            assertTrue(q < previous + 1e-9, "p95 at " + w + " = " + q + " after " + previous);
            previous = q;
        }
        assertEquals(ClosedPopulationModel.exactQuantile(20, 1, 1, 4, 4, 0.95), model.predictQuantileSeconds(o, 4, 0.95),
                0.02 * model.predictQuantileSeconds(o, 4, 0.95));
    }

    @Test
    void correction_takesTheMeasuredPercentileAsTheLevel() {
        FlowObservation o = new FlowObservation(5, 0.5, 1, 5, Double.NaN, 2.0); // p95 measured 2.0 s
        ModelCorrection c = new ModelCorrection(4);
        MM1Model mm1 = new MM1Model();
        assertEquals(2.0, c.predictQuantile("f", mm1, o, 1, 0.95), 1e-9);
        double change = mm1.predictQuantileSeconds(o, 2, 0.95) - mm1.predictQuantileSeconds(o, 1, 0.95);
        assertEquals(2.0 + change, c.predictQuantile("f", mm1, o, 2, 0.95), 1e-9);
    }

    private static double factorial(int i) {
        double f = 1;
        for (int k = 2; k <= i; k++) {
            f *= k;
        }
        return f;
    }
}
