package io.slagate.experiment;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** Experiment C's outputs over the (L_P, L_B) grid: the U = 0 contour, the utility chart, the capture table. */
final class RegionReport {
    private RegionReport() {
    }

    /** The capture table of the saturated points, and each model's error beside it. */
    static String captureSection(List<PointSweep.Result> points) {
        StringBuilder md = new StringBuilder("## Capture against the empirical oracle at the saturated points\n\n");
        md.append(String.format(Locale.ROOT, "Each point at scale %.2f (each controller run twice in a balanced order, the best static "
                + "fractional weights searched coarse to fine and re-measured twice; details in `POINT-L_P-L_B.md`). Capture = "
                + "(U_controller − U_FCFS) / (U_best − U_FCFS), shown where U_best − U_FCFS ≥ %.1f. Model error: the resource "
                + "manager's own |predicted − measured| / measured for the share in force over the measured part of each run, mean / median "
                + "over its decisions.%n%n",
                Experiments.POINT_SCALE, PointSweep.MIN_GAP));
        md.append("| (L_P, L_B) | U FCFS | U best static (w_P) |");
        for (String m : PointSweep.MODELS) {
            md.append(' ').append(m).append(" |");
        }
        for (String m : PointSweep.MODELS) {
            md.append(" error ").append(m).append(" |");
        }
        md.append("\n|---|---:|---:|").append("---:|".repeat(2 * PointSweep.MODELS.size())).append('\n');
        for (PointSweep.Result r : points) {
            md.append(String.format(Locale.ROOT, "| (%d,%d) | %.3f | %.3f (%.1f) |", r.lp(), r.lb(), r.fcfs().utility(),
                    r.oracle().utility(), r.oracle().premiumWeight()));
            for (String m : PointSweep.MODELS) {
                double c = r.capture(m);
                md.append(Double.isNaN(c) ? " n/a |" : String.format(Locale.ROOT, " %.2f |", c));
            }
            for (String m : PointSweep.MODELS) {
                PointSweep.Run run = r.controllers().get(m);
                md.append(' ').append(PointSweep.percent(run.modelError())).append(" / ").append(PointSweep.percent(run.medianModelError()))
                        .append(" |");
            }
            md.append('\n');
        }
        return md.append('\n').toString();
    }

    /** Where U crosses 0 along each row (fixed L_B) and column (fixed L_P), by linear interpolation: total clients there. */
    static String contour(int[] grid, double[][] u) {
        List<String> points = new ArrayList<>();
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        for (int j = 0; j < grid.length; j++) { // fixed L_B, vary L_P
            for (int i = 0; i + 1 < grid.length; i++) {
                if (u[i][j] >= 0 && u[i + 1][j] < 0) {
                    double lp = grid[i] + (grid[i + 1] - grid[i]) * u[i][j] / (u[i][j] - u[i + 1][j]);
                    points.add(String.format(Locale.ROOT, "(%.1f, %d)", lp, grid[j]));
                    lo = Math.min(lo, lp + grid[j]);
                    hi = Math.max(hi, lp + grid[j]);
                }
            }
        }
        for (int i = 0; i < grid.length; i++) { // fixed L_P, vary L_B
            for (int j = 0; j + 1 < grid.length; j++) {
                if (u[i][j] >= 0 && u[i][j + 1] < 0) {
                    double lb = grid[j] + (grid[j + 1] - grid[j]) * u[i][j] / (u[i][j] - u[i][j + 1]);
                    points.add(String.format(Locale.ROOT, "(%d, %.1f)", grid[i], lb));
                    lo = Math.min(lo, lb + grid[i]);
                    hi = Math.max(hi, lb + grid[i]);
                }
            }
        }
        if (points.isEmpty()) {
            return "no crossing inside the grid";
        }
        return String.format(Locale.ROOT, "(L_P, L_B) ≈ %s — total clients %.0f to %.0f", String.join(", ", points), lo, hi);
    }

    static void regionChart(String mode, int[] grid, double[][] u, Path file) throws IOException {
        XYSeriesCollection data = new XYSeriesCollection();
        for (int j = 0; j < grid.length; j++) {
            XYSeries s = new XYSeries("L_B = " + grid[j]);
            for (int i = 0; i < grid.length; i++) {
                s.add(grid[i], u[i][j]);
            }
            data.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Cluster utility, " + mode, "L_P (premium clients)", "min(U_P, U_B)", data);
        chart.getXYPlot().addRangeMarker(new ValueMarker(0));
        System.setProperty("java.awt.headless", "true");
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 760, 420);
    }
}
