package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.gateway.testing.TestBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.HttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several nodes as separate JVM processes, started through the launcher's main class: a broker,
 * two resource managers (active and standby), two gateways; backends and load in this JVM. Each
 * gateway gets its own allocation and Σ_g N_{g,s} = N_s; killing a gateway gives its share to the
 * other within three cycles; killing the active resource manager leaves the gateways serving and the
 * standby takes over; a restarted broker is reconnected to; and every client request is answered.
 */
class SeveralProcessesTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int N_S = 8;

    @TempDir
    Path dir;
    private Nodes nodes;
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void stopAll() throws Exception {
        nodes.close();
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private static Map<String, Integer> caps(int adminPort) {
        return Nodes.caps("127.0.0.1", adminPort);
    }

    private static long version(int adminPort) {
        return Nodes.version("127.0.0.1", adminPort);
    }

    @Test
    void brokerTwoManagersTwoGateways_killsAndRestarts_everyRequestAnswered() throws Exception {
        TestBackend b1 = new TestBackend();
        TestBackend b2 = new TestBackend();
        open.add(b1);
        open.add(b2);
        b1.behave(b1.delayed(20));
        b2.behave(b2.delayed(20));
        nodes = new Nodes(dir);
        int broker = Nodes.freePort();
        int gw1 = Nodes.freePort();
        int adm1 = Nodes.freePort();
        int gw2 = Nodes.freePort();
        int adm2 = Nodes.freePort();
        List<String> servers = List.of(b1.url(), b2.url());
        Path c1 = nodes.config("gw1", "gw1", "127.0.0.1", gw1, adm1, "127.0.0.1:" + broker, servers, N_S);
        Path c2 = nodes.config("gw2", "gw2", "127.0.0.1", gw2, adm2, "127.0.0.1:" + broker, servers, N_S);
        Path brokerOnly = nodes.brokerConfig("broker", "127.0.0.1:" + broker);
        Process brokerProcess = nodes.launch("broker", "broker", "--config", brokerOnly.toString());
        nodes.launch("rm-1", "resource-manager", "--config", c1.toString());
        nodes.launch("rm-2", "resource-manager", "--config", c1.toString());
        Process gw1Process = nodes.launch("gw1", "gateway", "--config", c1.toString());
        Process gw2Process = nodes.launch("gw2", "gateway", "--config", c2.toString());

        await("both gateways hold one allocation that splits every N_s").atMost(DEADLINE).pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    Map<String, Integer> a = caps(adm1);
                    Map<String, Integer> b = caps(adm2);
                    long v1 = version(adm1);
                    return v1 > 0 && v1 == version(adm2) && a.size() == 2 && b.size() == 2
                            && a.get("s1") + b.get("s1") == N_S && a.get("s2") + b.get("s2") == N_S
                            && a.get("s1") > 0 && b.get("s1") > 0;
                });

        HttpClient client = new HttpClient();
        client.start();
        open.add(client::stop);
        ClosedLoopLoad load = new ClosedLoopLoad(client, gw1, "urn:premium", 8);
        ClosedLoopLoad load2 = new ClosedLoopLoad(client, gw2, "urn:basic", 4);

        // a gateway dies: within three cycles (plus the expiry) its share goes to the other
        gw2Process.destroyForcibly().waitFor();
        load2.close();
        await("gw1 gets every slot").atMost(DEADLINE).pollInterval(Duration.ofMillis(200))
                .until(() -> caps(adm1).equals(Map.of("s1", N_S, "s2", N_S)));

        // the active manager dies: gw1 keeps serving, the standby takes over with newer versions
        long before = version(adm1);
        long served = load.ok();
        List<Process> managers = nodes.processes().subList(1, 3);
        String active = activeManager();
        Process activeProcess = managers.stream().filter(p -> active.endsWith("-" + p.pid())).findFirst().orElseThrow();
        activeProcess.destroyForcibly().waitFor();
        await("gw1 keeps serving").atMost(DEADLINE).until(() -> load.ok() > served + 100);
        String standbyLog = active.endsWith("-" + managers.get(0).pid()) ? "rm-2" : "rm-1";
        await("the standby takes over").atMost(DEADLINE).until(() -> nodes.logged(standbyLog, "is now active"));
        await("and publishes").atMost(DEADLINE).pollInterval(Duration.ofMillis(200)).until(() -> version(adm1) > before);

        // the broker dies and comes back: gw1 keeps serving, then allocations flow again
        brokerProcess.destroyForcibly().waitFor();
        long whileDown = version(adm1);
        long servedDown = load.ok();
        await("gw1 serves while the broker is down").atMost(DEADLINE).until(() -> load.ok() > servedDown + 100);
        nodes.launch("broker-2", "broker", "--config", brokerOnly.toString());
        await("allocations flow again after the broker restart").atMost(DEADLINE).pollInterval(Duration.ofMillis(200))
                .until(() -> version(adm1) > whileDown);

        load.close();
        assertEquals(0, load.failed(), "no request through gw1 failed: " + load.lastFailure());
        assertEquals(load.sent(), load.ok(), "every request sent to gw1 was answered");
        assertEquals(load2.sent(), load2.ok() + load2.failed(), "requests to the killed gateway ended (answered or failed), none hangs");
        assertTrue(load.ok() > 500, "the load ran: " + load.ok());

        // what the logs said (the shipped logging configuration): the broker loss in one line that says what it means
        // for each process, no stack traces; and a gateway stopped by SIGTERM says it drains, leaves and stops
        assertTrue(nodes.logged("gw1", "lost the broker; reconnecting (the last allocation stays in force"), "gw1's log");
        assertTrue(nodes.logged(standbyLog, "lost the broker; reconnecting (no allocation is published until it is back"),
                standbyLog + "'s log");
        // logged from the bus's worker after the transport resumed, so an allocation may arrive a moment before the line
        await("gw1 logs its reconnection").atMost(DEADLINE).until(() -> nodes.logged("gw1", "reconnected to"));
        for (String name : List.of("gw1", standbyLog)) {
            List<String> traces = Files.readAllLines(dir.resolve(name + ".log")).stream().filter(l -> l.startsWith("\tat ")).toList();
            assertTrue(traces.isEmpty(), name + " logged a stack trace: " + traces.subList(0, Math.min(5, traces.size())));
        }
        gw1Process.destroy(); // SIGTERM
        assertTrue(gw1Process.waitFor(30, TimeUnit.SECONDS), "gw1 exits on SIGTERM");
        assertTrue(nodes.logged("gw1", "gateway gw1 stopping: new requests get a shutting-down fault"), "gw1's log");
        assertTrue(nodes.logged("gw1", "gateway gw1 left the control plane"), "gw1's log");
        assertTrue(nodes.logged("gw1", "gateway gw1 stopped"), "gw1's log");
    }

    /** The active manager's id, as the standby names it in its log ("… stands by: ID is active"). */
    private String activeManager() {
        String[] found = new String[1];
        await("one manager stands by for the other").atMost(DEADLINE).until(() -> {
            for (String name : List.of("rm-1", "rm-2")) {
                for (String l : Files.readAllLines(dir.resolve(name + ".log"))) {
                    int at = l.indexOf("stands by: ");
                    if (at >= 0) {
                        found[0] = l.substring(at + "stands by: ".length(), l.indexOf(" is active", at));
                        return true;
                    }
                }
            }
            return false;
        });
        return found[0];
    }
}
