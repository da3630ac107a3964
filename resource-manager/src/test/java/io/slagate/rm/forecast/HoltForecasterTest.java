package io.slagate.rm.forecast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Holt's trend on synthetic series whose right answers are known: flat, ramp, step, noise. */
class HoltForecasterTest {
    @Test
    void flat_forecastsTheLevel_errorZero() {
        HoltForecaster h = new HoltForecaster(0.5, 0.3);
        for (int i = 0; i < 20; i++) {
            h.observe(40);
        }
        assertEquals(40, h.forecast(), 1e-9);
        assertEquals(0, h.error(), 1e-9);
    }

    @Test
    void ramp_convergesToTheNextValue_whereTheLastWindowIsAStepBehind() {
        HoltForecaster h = new HoltForecaster(0.5, 0.3);
        double f = Double.NaN;
        for (int i = 0; i < 60; i++) {
            f = h.observe(10 + 2 * i); // the next value is 10 + 2·60 = 130
        }
        assertEquals(130, f, 0.5, "one cycle ahead of the ramp");
        assertTrue(Math.abs(f - 130) < Math.abs(128 - 130), "closer than the last measurement");
        assertTrue(h.error() < 0.01, "its error falls on a clean ramp: " + h.error());
    }

    @Test
    void ahead_onARamp_isTheRateThatManyStepsOn_andOnAFlatSeriesTheLevel() {
        HoltForecaster ramp = new HoltForecaster(0.5, 0.3);
        HoltForecaster flat = new HoltForecaster(0.5, 0.3);
        assertTrue(Double.isNaN(ramp.ahead(3)), "nothing before two observations");
        for (int i = 0; i < 40; i++) {
            ramp.observe(100 + 5 * i); // last: 295
            flat.observe(80);
        }
        assertEquals(295 + 3.5 * 5, ramp.ahead(3.5), 0.5);
        assertEquals(80, flat.ahead(10), 1e-6);
        HoltForecaster falling = new HoltForecaster(0.5, 0.3);
        for (int i = 0; i < 40; i++) {
            falling.observe(Math.max(0, 100 - 5 * i));
        }
        assertTrue(falling.ahead(10) >= 0, "never a negative rate");
    }

    @Test
    void seasonal_noSeasonalTerm_soAboutAsGoodAsTheLastWindow_andItsErrorEstimateSaysSo() {
        // a daily-like cycle, 40 cycles a period, between 50 and 150: the trend's lag and its anticipation of the
        // slopes about cancel; the turning points it cannot see (a seasonal term would)
        HoltForecaster h = new HoltForecaster(0.5, 0.3);
        double holtError = 0;
        double naiveError = 0;
        double relative = 0;
        int n = 0;
        double last = Double.NaN;
        for (int i = 0; i < 400; i++) {
            double rate = 100 + 50 * Math.sin(2 * Math.PI * i / 40);
            if (i > 40) {
                holtError += Math.abs(h.forecast() - rate);
                naiveError += Math.abs(last - rate);
                relative += Math.abs(h.forecast() - rate) / rate;
                n++;
            }
            h.observe(rate);
            last = rate;
        }
        assertEquals(1, holtError / naiveError, 0.1, "Holt " + holtError + " against the last value " + naiveError);
        assertEquals(relative / n, h.error(), 0.05, "its error estimate is the error it makes");
    }

    @Test
    void step_errorJumps_thenTheForecastSettlesOnTheNewLevel() {
        HoltForecaster h = new HoltForecaster(0.5, 0.3);
        for (int i = 0; i < 20; i++) {
            h.observe(10);
        }
        h.observe(100);
        assertTrue(h.error() > 0.2, "a step is a surprise: " + h.error());
        for (int i = 0; i < 40; i++) {
            h.observe(100);
        }
        assertEquals(100, h.forecast(), 1.0);
        assertTrue(h.error() < 0.05, "and then it is not: " + h.error());
    }

    @Test
    void noise_errorNearTheNoise_forecastNearTheMean() {
        HoltForecaster h = new HoltForecaster(0.3, 0.1);
        Random r = new Random(3);
        for (int i = 0; i < 500; i++) {
            h.observe(50 * (1 + 0.1 * r.nextGaussian()));
        }
        assertEquals(50, h.forecast(), 10, "within two of its own noise (10%) of the mean: smoothed, not drifting");
        assertTrue(h.error() > 0.03 && h.error() < 0.3, "about the noise's 10%: " + h.error());
    }

    @Test
    void brokenMeasurements_teachNothing_badFactorsRefused() {
        HoltForecaster h = new HoltForecaster(0.5, 0.3);
        h.observe(10);
        h.observe(12);
        double f = h.forecast();
        assertEquals(f, h.observe(Double.NaN), 0);
        assertEquals(f, h.observe(-5), 0);
        assertThrows(IllegalArgumentException.class, () -> new HoltForecaster(0, 0.3));
        assertThrows(IllegalArgumentException.class, () -> new HoltForecaster(0.5, 1.5));
    }
}
