package io.slagate.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.load.service.BackendServer;
import io.slagate.load.service.ServiceTime;
import io.slagate.rm.tune.HttpKnob;
import io.slagate.rm.tune.KnobSet;
import io.slagate.rm.tune.Tunable;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tuner's HTTP knob adapter against a real synthetic server's admin endpoint, and against one that never answers. */
class HttpKnobTest {
    @Test
    void readsAndSetsARealBackendsKnob_andAFailedOneRollsTheOthersBack() throws Exception {
        try (BackendServer b = BackendServer.start("127.0.0.1", List.of(0), ServiceTime.of(Duration.ofMillis(1), 0).withWorkers(4));
             ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            URI base = URI.create(b.urls().get(0) + "/admin/knobs");
            HttpKnob workers = new HttpKnob("workers", base, 1, 64, true, Duration.ofSeconds(2));
            HttpKnob knee = new HttpKnob("contentionKnee", base, 0, 64, true, Duration.ofSeconds(2));
            assertEquals(4, workers.read());
            workers.apply(12.4);
            assertEquals(12, workers.read(), "rounded");
            assertEquals(12, b.knobs().get(0).workers(), "and in force on the server");
            // a knob the server refuses (the name it does not have): a clear error, the server unchanged
            HttpKnob colour = new HttpKnob("colour", base, 0, 10, true, Duration.ofSeconds(2));
            Tunable.KnobException refused = assertThrows(Tunable.KnobException.class, () -> colour.apply(3));
            assertTrue(refused.getMessage().contains("400") && refused.getMessage().contains("no knob"), refused.getMessage());
            // a backend that accepts the connection and never answers: a timeout, not a tuner waiting forever
            Thread acceptor = new Thread(() -> {
                try {
                    Socket s = silent.accept();
                    Thread.sleep(10_000);
                    s.close();
                } catch (Exception ignored) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            HttpKnob hung = new HttpKnob("workers", URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/admin/knobs"), 1, 64, true,
                    Duration.ofMillis(300));
            KnobSet set = new KnobSet(List.of(workers, knee, hung));
            Tunable.KnobException timedOut = assertThrows(Tunable.KnobException.class, () -> set.applyUnit(new double[] {1, 1, 1}));
            assertTrue(timedOut.getMessage().contains("no answer within"), timedOut.getMessage());
            assertEquals(12, b.knobs().get(0).workers(), "the knobs set before the failure went back");
            assertEquals(0, b.knobs().get(0).contentionKnee());
            assertEquals(1, set.broken().size());
            assertThrows(IllegalArgumentException.class, () -> new HttpKnob("workers", base, 8, 2, true, Duration.ofSeconds(1)));
        }
    }
}
