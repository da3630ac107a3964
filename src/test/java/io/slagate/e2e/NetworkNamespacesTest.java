package io.slagate.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import io.slagate.gateway.testing.TestBackend;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
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
 * Several nodes whose traffic really crosses interfaces: the
 * broker, the resource manager and two gateways each run in their own network namespace, joined by
 * veth pairs to a bridge; the backends and the clients are in the test's namespace. Needs root and
 * {@code ip netns} (skipped otherwise, with the reason). Checks what {@link SeveralProcessesTest}
 * checks over loopback: one allocation splitting every N_s between the two gateways, every request
 * answered, and a killed gateway's share moving to the other.
 */
class NetworkNamespacesTest {
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final int N_S = 6;

    @TempDir
    Path dir;
    private final String tag = Long.toString(System.nanoTime() % 46656, 36); // short: interface names have 15 characters
    private final int subnet = 100 + (int) (System.nanoTime() % 100);
    private final List<String> namespaces = new ArrayList<>();
    private Nodes nodes;
    private final List<AutoCloseable> open = new ArrayList<>();
    private String bridge;

    private static boolean run(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    private static void must(String... cmd) {
        assertTrue(run(cmd), "failed: " + String.join(" ", cmd));
    }

    private String ip(int host) {
        return "10.213." + subnet + "." + host;
    }

    /** A namespace with one interface on the bridge at 10.213.SUBNET.host. */
    private String namespace(String name, int host) {
        String ns = "sg" + tag + name;
        String veth = "v" + tag + host;
        must("ip", "netns", "add", ns);
        namespaces.add(ns);
        must("ip", "link", "add", veth + "a", "type", "veth", "peer", "name", veth + "b");
        must("ip", "link", "set", veth + "b", "netns", ns);
        must("ip", "link", "set", veth + "a", "master", bridge, "up");
        must("ip", "netns", "exec", ns, "ip", "addr", "add", ip(host) + "/24", "dev", veth + "b");
        must("ip", "netns", "exec", ns, "ip", "link", "set", veth + "b", "up");
        must("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up");
        return ns;
    }

    @AfterEach
    void tearDown() throws Exception {
        if (nodes != null) {
            nodes.close();
        }
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        for (String ns : namespaces) {
            run("ip", "netns", "delete", ns); // its veth end goes with it, and the peer with that
        }
        if (bridge != null) {
            run("ip", "link", "delete", bridge);
        }
    }

    /** {@code ip netns exec} execs its command: the process is the JVM itself. */
    private static List<String> netns(String ns) {
        return List.of("ip", "netns", "exec", ns);
    }

    private static boolean reachable(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void nodesInTheirOwnNamespaces_shareTheServers_overRealInterfaces() throws Exception {
        assumeTrue(System.getProperty("os.name").startsWith("Linux") && run("ip", "netns", "list"),
                "needs Linux with the ip tool");
        bridge = "sgbr" + tag;
        assumeTrue(run("ip", "link", "add", bridge, "type", "bridge"), "needs root (CAP_NET_ADMIN) to create a bridge");
        must("ip", "addr", "add", ip(1) + "/24", "dev", bridge);
        must("ip", "link", "set", bridge, "up");
        String brokerNs = namespace("brk", 2);
        String rmNs = namespace("rm", 3);
        String gw1Ns = namespace("gw1", 4);
        String gw2Ns = namespace("gw2", 5);

        // backends in the test's namespace, on the bridge's address: the gateways reach them across the veths
        TestBackend b1 = new TestBackend(ip(1), 0);
        TestBackend b2 = new TestBackend(ip(1), 0);
        open.add(b1);
        open.add(b2);
        b1.behave(b1.delayed(10));
        b2.behave(b2.delayed(10));
        List<String> backends = List.of(b1.url(), b2.url());
        nodes = new Nodes(dir);
        String broker = ip(2) + ":61616";
        Path c1 = nodes.config("gw1", "gw1", ip(4), 8080, 8081, broker, backends, N_S);
        Path c2 = nodes.config("gw2", "gw2", ip(5), 8080, 8081, broker, backends, N_S);
        Path cb = nodes.config("node", "node", ip(2), 8080, 8081, broker, backends, N_S);
        nodes.launch(netns(brokerNs), "broker", "broker", "--config", cb.toString());
        await("the broker listens (seen from the test's namespace)").atMost(DEADLINE).pollInterval(Duration.ofMillis(250))
                .until(() -> reachable(ip(2), 61616));
        // namespace to namespace is bridged traffic, which a host firewall (br_netfilter, a FORWARD drop policy) may stop
        assumeTrue(run("ip", "netns", "exec", gw1Ns, "bash", "-c", "exec 3<>/dev/tcp/" + ip(2) + "/61616"),
                "namespaces cannot reach each other over the bridge here (the host's firewall filters bridged traffic)");
        nodes.launch(netns(rmNs), "rm", "resource-manager", "--config", cb.toString());
        nodes.launch(netns(gw1Ns), "gw1", "gateway", "--config", c1.toString());
        Process gw2 = nodes.launch(netns(gw2Ns), "gw2", "gateway", "--config", c2.toString());

        await("both gateways, across the bridge, hold one allocation that splits every N_s").atMost(DEADLINE)
                .pollInterval(Duration.ofMillis(250)).until(() -> {
                    Map<String, Integer> a = Nodes.caps(ip(4), 8081);
                    Map<String, Integer> b = Nodes.caps(ip(5), 8081);
                    return a.size() == 2 && b.size() == 2 && a.get("s1") + b.get("s1") == N_S && a.get("s2") + b.get("s2") == N_S
                            && a.get("s1") > 0 && b.get("s1") > 0;
                });

        HttpClient client = new HttpClient();
        client.start();
        open.add(client::stop);
        ClosedLoopLoad load1 = new ClosedLoopLoad(client, ip(4), 8080, "urn:premium", 6);
        ClosedLoopLoad load2 = new ClosedLoopLoad(client, ip(5), 8080, "urn:basic", 4);
        await("load runs through both").atMost(DEADLINE).until(() -> {
            assertEquals(0, load1.failed() + load2.failed(), "no failure: " + load1.lastFailure() + " " + load2.lastFailure());
            return load1.ok() > 200 && load2.ok() > 100;
        });
        assertTrue(b1.received() > 0 && b2.received() > 0, "both servers took requests from across the bridge");

        gw2.destroyForcibly().waitFor();
        load2.close();
        await("gw1 gets every slot").atMost(DEADLINE).pollInterval(Duration.ofMillis(250))
                .until(() -> Nodes.caps(ip(4), 8081).equals(Map.of("s1", N_S, "s2", N_S)));
        long served = load1.ok();
        await().atMost(DEADLINE).until(() -> load1.ok() > served + 100);
        load1.close();
        assertEquals(0, load1.failed(), "no request through gw1 failed: " + load1.lastFailure());
        assertEquals(load1.sent(), load1.ok());
        assertEquals(load2.sent(), load2.ok() + load2.failed(), "requests to the killed gateway ended, none hangs");
    }
}
