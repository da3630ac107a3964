package io.slagate.load;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Writes a run's results: {@code samples.csv} (one row per class per second), {@code summary.json},
 * and PNG charts — response time against target, throughput, and, when the gateway's /stats was
 * read, weights and queue lengths over time. Charts by JFreeChart, headless.
 */
public final class ReportWriter {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportWriter() {
    }

    public static void write(LoadSpec spec, List<SecondSample> samples, Summary summary) throws IOException {
        Path dir = spec.out();
        Files.createDirectories(dir);
        List<String> lines = new ArrayList<>();
        lines.add(SecondSample.CSV_HEADER);
        for (SecondSample s : samples) {
            lines.add(s.csv());
        }
        Files.write(dir.resolve("samples.csv"), lines);
        JSON.writeValue(dir.resolve("summary.json").toFile(), summary);
        charts(spec, samples, dir);
    }

    static void charts(LoadSpec spec, List<SecondSample> samples, Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        JFreeChart rt = chart("Mean response time", "ms", samples, SecondSample::meanMs);
        XYPlot plot = rt.getXYPlot();
        for (LoadSpec.ClassSpec c : spec.classes()) {
            if (c.target() != null) {
                ValueMarker m = new ValueMarker(c.target().toMillis());
                m.setLabel("target " + c.name());
                m.setPaint(Color.GRAY);
                m.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {6f, 4f}, 0f));
                plot.addRangeMarker(m);
            }
        }
        save(rt, dir.resolve("response-time.png"));
        save(chart("Throughput", "requests/s", samples, s -> s.throughput()), dir.resolve("throughput.png"));
        if (samples.stream().anyMatch(s -> !Double.isNaN(s.weight()))) {
            save(chart("Weight w_{g,c}", "weight", samples, SecondSample::weight), dir.resolve("weights.png"));
            save(chart("Queue length at the gateway", "requests", samples, s -> s.queue() < 0 ? Double.NaN : s.queue()),
                    dir.resolve("queues.png"));
        }
    }

    private static JFreeChart chart(String title, String yLabel, List<SecondSample> samples, ToDoubleFunction<SecondSample> y) {
        Map<String, XYSeries> series = new LinkedHashMap<>();
        for (SecondSample s : samples) {
            double v = y.applyAsDouble(s);
            XYSeries xy = series.computeIfAbsent(s.className(), XYSeries::new);
            if (!Double.isNaN(v)) {
                xy.add(s.second(), v);
            }
        }
        XYSeriesCollection data = new XYSeriesCollection();
        series.values().forEach(data::addSeries);
        JFreeChart chart = ChartFactory.createXYLineChart(title, "time (s)", yLabel, data);
        chart.getXYPlot().setBackgroundPaint(Color.WHITE);
        chart.getXYPlot().setRangeGridlinePaint(Color.LIGHT_GRAY);
        chart.getXYPlot().setDomainGridlinePaint(Color.LIGHT_GRAY);
        return chart;
    }

    private static void save(JFreeChart chart, Path file) throws IOException {
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 960, 420);
    }
}
