package io.slagate.rm.forecast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;

/** The regression forecaster and the pick by measured error, on series whose right answers are known. */
class RegressionAndBestOfForecasterTest {
    @Test
    void regression_onARamp_isExactAtOnce_andForgetsTheRampWithinItsWindow() {
        RegressionForecaster r = new RegressionForecaster(4);
        for (int i = 0; i < 10; i++) {
            r.observe(100 + 10 * i); // last: 190
        }
        assertEquals(200, r.forecast(), 1e-9, "a clean line is extrapolated exactly");
        assertEquals(190 + 2.5 * 10, r.ahead(2.5), 1e-9);
        assertEquals(0, r.error(), 1e-9);
        for (int i = 0; i < 4; i++) {
            r.observe(190); // the ramp ends
        }
        assertEquals(190, r.ahead(5), 1e-9, "four flat points later the slope is gone entirely");
        HoltForecaster h = new HoltForecaster(0.5, 0.3);
        for (int i = 0; i < 10; i++) {
            h.observe(100 + 10 * i);
        }
        for (int i = 0; i < 4; i++) {
            h.observe(190);
        }
        assertTrue(h.ahead(5) > 195, "Holt's smoothed trend still overshoots there: " + h.ahead(5));
    }

    @Test
    void regression_neverNegative_andIgnoresBrokenMeasurements() {
        RegressionForecaster r = new RegressionForecaster(3);
        assertTrue(Double.isNaN(r.ahead(1)), "nothing before two observations");
        r.observe(30);
        r.observe(Double.NaN);
        r.observe(-5);
        assertTrue(Double.isNaN(r.forecast()), "two broken points taught nothing");
        r.observe(20);
        r.observe(10);
        assertEquals(0, r.ahead(10), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> new RegressionForecaster(1));
    }

    @Test
    void bestOf_picksTheForecasterWithTheSmallerMeasuredError_andSwitchesWhenTheSeriesChanges() {
        // a forecaster that is right on flat series, and one that always says 0: the first must be chosen
        Forecaster zero = constantError(() -> 1, 0);
        BestOfForecaster b = new BestOfForecaster(List.of("zero", "holt"), List.of(zero, new HoltForecaster(0.5, 0.3)));
        for (int i = 0; i < 10; i++) {
            b.observe(50);
        }
        assertEquals("holt", b.chosen());
        assertEquals(50, b.ahead(3), 1e-6);

        // noisy flat series, then a clean ramp: on the ramp the regression's error falls below Holt's lagging one
        BestOfForecaster std = BestOfForecaster.standard();
        Random rnd = new Random(7);
        for (int i = 0; i < 40; i++) {
            std.observe(100 * (1 + 0.05 * rnd.nextGaussian()));
        }
        for (int i = 0; i < 15; i++) {
            std.observe(100 + 20 * i);
        }
        assertEquals("regression", std.chosen(), std.errors().toString());
        assertTrue(std.errors().get("regression") < std.errors().get("holt"), std.errors().toString());
        assertEquals(100 + 20 * 14 + 3 * 20, std.ahead(3), 1e-6, "the ramp three cycles on");
    }

    @Test
    void bestOf_twoForecastersAboutAsGood_noTakingTurns() {
        // two fixed-error stand-ins whose errors cross back and forth within the switch margin
        double[] errs = {0.10, 0.11};
        Forecaster a = constantError(() -> errs[0], 10);
        Forecaster b = constantError(() -> errs[1], 20);
        BestOfForecaster best = new BestOfForecaster(List.of("a", "b"), List.of(a, b));
        best.observe(1);
        assertEquals("a", best.chosen());
        for (int i = 0; i < 10; i++) {
            errs[0] = i % 2 == 0 ? 0.11 : 0.10;
            errs[1] = i % 2 == 0 ? 0.10 : 0.11;
            best.observe(1);
            assertEquals("a", best.chosen(), "a 10% difference is no reason to switch");
        }
        errs[1] = 0.05; // clearly better now
        best.observe(1);
        assertEquals("b", best.chosen());
        assertEquals(20, best.forecast(), 1e-9);
    }

    private static Forecaster constantError(DoubleSupplier error, double value) {
        return new Forecaster() {
            @Override
            public double observe(double rate) {
                return value;
            }

            @Override
            public double ahead(double steps) {
                return value;
            }

            @Override
            public double forecast() {
                return value;
            }

            @Override
            public double error() {
                return error.getAsDouble();
            }
        };
    }
}
