package io.slagate.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.DecisionMessage;
import io.slagate.config.ConfigLoader;
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

    private static DecisionMessage decision(DecisionMessage.TuningStatus t) {
        return new DecisionMessage(BusMessage.SCHEMA, 1, 0, "rm-1", false, 0, 0, List.of(), List.of(), t);
    }

    private static DecisionMessage.TuningStatus best(double concurrency, double workers) {
        return new DecisionMessage.TuningStatus("measuring", List.of("concurrency", "workers"), List.of(concurrency, workers), 0.1,
                0.1, 0.1, List.of());
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

        writeBack.accept(decision(null)); // no tuner
        writeBack.accept(decision(new DecisionMessage.TuningStatus("baseline", List.of("concurrency", "workers"), List.of(), Double.NaN,
                Double.NaN, Double.NaN, List.of()))); // nothing measured yet
        assertTrue(ConfigLoader.load(file).controller().tuning().best().isEmpty());
        assertEquals(0, audit.recent(10).size());

        writeBack.accept(decision(best(8, 10)));
        assertEquals(Map.of("concurrency", 8.0, "workers", 10.0), ConfigLoader.load(file).controller().tuning().best(),
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
}
