package io.slagate.console;

import io.slagate.util.Recent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who changed what, when: every change made through the console (and every login, failed or
 * not), appended as one JSON line to a file and kept in memory (the last 1,000) for the API.
 */
public final class AuditLog {
    private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int KEEP = 1000;

    public record Entry(long timestampMillis, String user, String action, String detail, String address) {
    }

    private final Path file;
    private final Recent<Entry> recent = new Recent<>(KEEP);

    public AuditLog(Path file) {
        this.file = file;
    }

    public synchronized void record(String user, String action, String detail, String address) {
        Entry e = new Entry(System.currentTimeMillis(), user, action, detail, address);
        recent.add(e);
        LOG.info("audit: {} {} {} from {}", user, action, detail, address);
        if (file != null) {
            try {
                Files.writeString(file, JSON.writeValueAsString(e) + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException x) {
                LOG.warn("cannot append to the audit file {}: {}", file, x.getMessage());
            }
        }
    }

    /** Most recent first. */
    public List<Entry> recent(int max) {
        return recent.newestFirst(max);
    }
}
