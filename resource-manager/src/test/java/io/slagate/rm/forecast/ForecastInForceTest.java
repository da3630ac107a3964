package io.slagate.rm.forecast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.bus.message.FlowStatsMessage;
import io.slagate.bus.message.ServerStatusMessage;
import io.slagate.bus.message.StatsMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.rm.Overrides;
import io.slagate.rm.ResourceManager;
import io.slagate.rm.model.FlowObservation;
import io.slagate.rm.model.MM1Model;
import io.slagate.rm.model.ModelCorrection;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A forecast in force: eq. 9 at the rate ahead, μ and the correction's level from what was measured. */
class ForecastInForceTest {
    @Test
    void mm1_predictsAtTheRateAhead_fromTheMeasuredServiceRate() {
        FlowObservation o = new FlowObservation(4, 0.5, 1); // μ = 1/0.5 + 4/1 = 6 (eq. 8)
        MM1Model mm1 = new MM1Model();
        assertEquals(1 / (6.0 - 4), mm1.predictSeconds(o, 1), 1e-12);
        assertEquals(1 / (6.0 - 5), mm1.predictSeconds(o.withForecast(5), 1), 1e-12, "eq. 9 at λ = 5");
        // the correction keeps the measured level and adds the load's change: 0.5 + (1.0 − 0.5)
        assertEquals(1.0, new ModelCorrection(1).predict("f", mm1, o.withForecast(5), 1), 1e-12);
    }

    private static StatsMessage stats(long seq, double premiumRate) {
        return new StatsMessage(BusMessage.SCHEMA, "gw1", seq, 0, 30, 1,
                List.of(new FlowStatsMessage("premium", premiumRate, premiumRate, 0, 1.0, 0.5, 0.5, 0, 0, 5),
                        new FlowStatsMessage("basic", 3, 3, 0, 1.0, 0.5, 0.5, 0, 0, 5)),
                List.of(new ServerStatusMessage("s1", 10, 0, true)));
    }

    private static double lastForecast(String mode, double[] rates) {
        ResourceManager rm = new ResourceManager("rm", ConfigLoader.parse("""
                servers: [ { id: s1, url: "http://127.0.0.1:1", concurrency: 10 } ]
                classes: [ { name: premium, target: 2s }, { name: basic, target: 3s } ]
                controller: { model: mm1, forecast: %s }
                """.formatted(mode), "forecast"), new Overrides(), 0);
        long now = Long.MAX_VALUE / 2;
        DecisionMessage d = null;
        for (int i = 0; i < rates.length; i++) {
            rm.onStats(stats(i + 1, rates[i]), now);
            d = rm.step(now).decision();
        }
        return d.flows().stream().filter(f -> f.className().equals("premium")).findFirst().orElseThrow().forecastRate();
    }

    @Test
    void manager_trendIsAheadOfTheRamp_noneAndUntrustedAutoUseTheWindow() {
        double[] ramp = new double[30];
        for (int i = 0; i < ramp.length; i++) {
            ramp[i] = 1 + 0.2 * i; // +0.2 per cycle; the last window's mean: 6.8
        }
        double trend = lastForecast("trend", ramp);
        // a 30 s window's mean is the rate 15 s back; the next 5 s cycle ends 5 s ahead: 4 cycles of 0.2
        assertEquals(6.8 + 4 * 0.2, trend, 0.1, "a rising rate at the next cycle's end, not the lagging window's");
        double[] falling = new double[30];
        for (int i = 0; i < falling.length; i++) {
            falling[i] = 7 - 0.2 * i; // the last window's mean: 1.2
        }
        // falling: the highest rate of the next cycle is at its start, 3 cycles ahead of the window's mean
        assertEquals(1.2 - 3 * 0.2, lastForecast("trend", falling), 0.1, "a falling rate at the next cycle's start");
        assertTrue(Double.isNaN(lastForecast("none", ramp)));
        assertEquals(trend, lastForecast("auto", ramp), 1e-9, "a clean ramp: the forecast's error is small, so auto trusts it");
        double[] jumpy = new double[30];
        for (int i = 0; i < jumpy.length; i++) {
            jumpy[i] = i % 2 == 0 ? 1 : 5; // no trend a forecaster could follow: its error stays large
        }
        assertTrue(Double.isNaN(lastForecast("auto", jumpy)), "auto ignores a forecast it cannot trust");
        assertTrue(Double.isFinite(lastForecast("trend", jumpy)), "trend uses it anyway");
    }
}
