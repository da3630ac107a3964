package io.slagate.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.config.ConfigLoader;
import io.slagate.config.TuningSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tuner's best configuration reaches the configuration file once per change, validated, audited; a restart reads it. */
class TuningWriteBackTest {
    @TempDir
    Path dir;

    private static DecisionMessage decision(DecisionMessage.TuningStatus... t) {
        return new DecisionMessage(BusMessage.SCHEMA, 1, 0, "rm-1", false, 0, 0, List.of(), List.of(), List.of(t));
    }

    private static DecisionMessage.TuningStatus best(double concurrency, double workers) {
        return best("default", concurrency, workers);
    }

    private static DecisionMessage.TuningStatus best(String partition, double concurrency, double workers) {
        return new DecisionMessage.TuningStatus(partition, "measuring", List.of("concurrency", "workers"), List.of(concurrency, workers),
                0.1, 0.1, 0.1, List.of());
    }

    @Test
    void aNewBest_isWrittenBackOnce_andAuditedAsTheManagers_anOutOfBoundsOneRefused() throws Exception {
        Path file = dir.resolve("slagate.yaml");
        Files.writeString(file, """
                servers:
                  - { id: s1, url: "http://127.0.0.1:9001", pool: a }
                  - { id: s2, url: "http://127.0.0.1:9002", pool: t }
                classes:
                  - { name: p, target: 1s, pool: a }
                  - { name: p-trial, target: 1s, pool: t }
                controller: { tuning: { safe: a, experimental: t, twins: { p: p-trial }, knobs: [ { name: concurrency, min: 1, max: 20 },
                  { name: workers, path: /admin/knobs, min: 1, max: 64 } ] } }
                """);
        ConfigEditor editor = new ConfigEditor(file, ConfigLoader.load(file));
        AuditLog audit = new AuditLog(dir.resolve("audit.log"));
        TuningWriteBack writeBack = new TuningWriteBack(editor, audit);

        writeBack.accept(decision()); // no tuner
        writeBack.accept(decision(new DecisionMessage.TuningStatus("default", "baseline", List.of("concurrency", "workers"), List.of(), Double.NaN,
                Double.NaN, Double.NaN, List.of()))); // nothing measured yet
        assertTrue(ConfigLoader.load(file).controller().tuning().get(0).best().isEmpty());
        assertEquals(0, audit.recent(10).size());

        writeBack.accept(decision(best(8, 10)));
        assertEquals(Map.of("concurrency", 8.0, "workers", 10.0), ConfigLoader.load(file).controller().tuning().get(0).best(),
                "a restart reads it");
        assertTrue(Files.readString(file).contains("workers: 10"), "whole numbers as integers: " + Files.readString(file));
        assertTrue(Files.exists(dir.resolve("slagate.yaml.bak")), "the previous file kept");
        writeBack.accept(decision(best(8, 10)));
        List<AuditLog.Entry> entries = audit.recent(10);
        assertEquals(1, entries.size(), "the same best again writes nothing: " + entries);
        assertEquals("tuning-best", entries.get(0).action());
        assertTrue(entries.get(0).user().contains("rm-1"), entries.get(0).user());

        String before = Files.readString(file);
        writeBack.accept(decision(best(80, 10))); // outside concurrency's bounds: the loader refuses it
        assertEquals(before, Files.readString(file), "a refused best leaves the file as it was");
        assertEquals(1, audit.recent(10).size());
    }

    @Test
    void eachPartitionsBest_goesUnderItsOwnName() throws Exception {
        Path file = dir.resolve("slagate.yaml");
        Files.writeString(file, """
                servers:
                  - { id: a1, url: "http://127.0.0.1:9001", pool: a }
                  - { id: a2, url: "http://127.0.0.1:9002", pool: a-trial }
                  - { id: b1, url: "http://127.0.0.1:9003", pool: b }
                  - { id: b2, url: "http://127.0.0.1:9004", pool: b-trial }
                classes:
                  - { name: p, target: 1s, pool: a }
                  - { name: p-trial, target: 1s, pool: a-trial }
                  - { name: q, target: 1s, pool: b }
                  - { name: q-trial, target: 1s, pool: b-trial }
                controller:
                  tuning:
                    partitions:
                      quotes: { safe: a, experimental: a-trial, twins: { p: p-trial }, knobs: [ { name: concurrency, min: 1, max: 20 },
                        { name: workers, path: /admin/knobs, min: 1, max: 64 } ] }
                      trades: { safe: b, experimental: b-trial, twins: { q: q-trial }, knobs: [ { name: concurrency, min: 1, max: 20 },
                        { name: workers, path: /admin/knobs, min: 1, max: 64 } ], best: { concurrency: 3, workers: 4 } }
                """);
        ConfigEditor editor = new ConfigEditor(file, ConfigLoader.load(file));
        AuditLog audit = new AuditLog(dir.resolve("audit.log"));
        TuningWriteBack writeBack = new TuningWriteBack(editor, audit);

        writeBack.accept(decision(best("quotes", 8, 10), best("trades", 3, 4)));
        List<TuningSettings> parts = ConfigLoader.load(file).controller().tuning();
        assertEquals(Map.of("concurrency", 8.0, "workers", 10.0), parts.get(0).best(), "quotes' best, under quotes");
        assertEquals(Map.of("concurrency", 3.0, "workers", 4.0), parts.get(1).best(), "trades' unchanged best is not rewritten");
        assertEquals(1, audit.recent(10).size(), "one write: " + audit.recent(10));
        assertTrue(audit.recent(10).get(0).detail().startsWith("quotes"), audit.recent(10).get(0).detail());

        writeBack.accept(decision(best("trades", 5, 6), best("nosuch", 1, 1)));
        parts = ConfigLoader.load(file).controller().tuning();
        assertEquals(Map.of("concurrency", 8.0, "workers", 10.0), parts.get(0).best());
        assertEquals(Map.of("concurrency", 5.0, "workers", 6.0), parts.get(1).best());
        assertEquals(2, audit.recent(10).size(), "a partition the file does not have is refused, nothing written for it");
    }
}
