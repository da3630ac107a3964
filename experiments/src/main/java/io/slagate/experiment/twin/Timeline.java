package io.slagate.experiment.twin;

import io.slagate.gateway.sched.Allocation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One controlled run over time, for an operator to look at: per reporting interval the weights in force and each
 * class's mean response time, as CSV and as an SVG plot of two panels (weights; response times with their targets).
 */
public final class Timeline {
    private final Scenario scenario;
    private final List<double[]> rows = new ArrayList<>();

    /** @param intervalSeconds the rows' spacing */
    public Timeline(Scenario scenario, TwinRun.Result run, double intervalSeconds) {
        this.scenario = scenario;
        int n = scenario.load().classes().size();
        long step = VirtualTime.nanos(intervalSeconds);
        int w = 0;
        double[] weights = Allocation.fromConfig(scenario.config()).weights(); // in force until the first cycle
        for (long t = step; t <= scenario.load().endNanos(); t += step) {
            while (w < run.weights().size() && run.weights().get(w).atNanos() <= t) {
                weights = run.weights().get(w++).weights();
            }
            double[] row = new double[1 + 2 * n];
            row[0] = t / 1e9;
            for (int c = 0; c < n; c++) {
                row[1 + c] = weights[c];
                row[1 + n + c] = run.completions().span(c, t - step, t).meanSeconds();
            }
            rows.add(row);
        }
    }

    public String csv() {
        StringBuilder b = new StringBuilder("seconds");
        for (Workload.ClassLoad c : scenario.load().classes()) {
            b.append(",weight_").append(c.className());
        }
        for (Workload.ClassLoad c : scenario.load().classes()) {
            b.append(",mean_response_seconds_").append(c.className());
        }
        b.append('\n');
        for (double[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                b.append(i == 0 ? "" : ",").append(Double.isNaN(r[i]) ? "" : String.format(Locale.ROOT, "%.4f", r[i]));
            }
            b.append('\n');
        }
        return b.toString();
    }

    public String svg() {
        int n = scenario.load().classes().size();
        String[] colours = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
        double end = scenario.load().endNanos() / 1e9;
        double wMax = 1, rMax = 0.1;
        for (double[] r : rows) {
            for (int c = 0; c < n; c++) {
                wMax = Math.max(wMax, r[1 + c]);
                rMax = Math.max(rMax, Double.isNaN(r[1 + n + c]) ? 0 : r[1 + n + c]);
            }
        }
        for (int c = 0; c < n; c++) {
            rMax = Math.max(rMax, scenario.targetSeconds(c) * 1.2);
        }
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"900\" height=\"560\" font-family=\"sans-serif\" font-size=\"12\">%n"
                        + "<rect width=\"900\" height=\"560\" fill=\"white\"/>%n"));
        panel(b, 20, "weights in force (controller, seed 1)", wMax, end);
        panel(b, 290, "mean response time per interval, seconds (dashed: the class's target)", rMax, end);
        for (int c = 0; c < n; c++) {
            String colour = colours[c % colours.length];
            b.append(line(c + 1, wMax, 20, end, colour));
            b.append(line(1 + n + c, rMax, 290, end, colour));
            double ty = 290 + 230 - 230 * scenario.targetSeconds(c) / rMax;
            b.append(String.format(Locale.ROOT, "<line x1=\"60\" x2=\"860\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"6 4\"/>%n",
                    ty, ty, colour));
            b.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"550\" fill=\"%s\">%s</text>%n", 60 + 150 * c, colour,
                    scenario.load().classes().get(c).className()));
        }
        for (int k = 1; k < scenario.load().phases().size(); k++) {
            double x = 60 + 800 * scenario.load().startNanos(k) / 1e9 / end;
            b.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"20\" y2=\"520\" stroke=\"#999\"/>%n", x, x));
        }
        return b.append("</svg>\n").toString();
    }

    private static void panel(StringBuilder b, int top, String title, double max, double end) {
        b.append(String.format(Locale.ROOT, "<rect x=\"60\" y=\"%d\" width=\"800\" height=\"230\" fill=\"none\" stroke=\"#333\"/>%n", top));
        b.append(String.format(Locale.ROOT, "<text x=\"60\" y=\"%d\">%s</text>%n", top - 5, title));
        b.append(String.format(Locale.ROOT, "<text x=\"5\" y=\"%d\">%.3g</text><text x=\"5\" y=\"%d\">0</text>%n", top + 12, max, top + 230));
        b.append(String.format(Locale.ROOT, "<text x=\"800\" y=\"%d\">%.0f s</text>%n", top + 245, end));
    }

    private String line(int column, double max, int top, double end, String colour) {
        StringBuilder points = new StringBuilder();
        for (double[] r : rows) {
            if (!Double.isNaN(r[column])) {
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", 60 + 800 * r[0] / end, top + 230 - 230 * r[column] / max));
            }
        }
        return String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" points=\"%s\"/>%n", colour, points.toString().trim());
    }
}
