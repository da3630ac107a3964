package io.slagate.bus;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.BusTls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bus over TLS: a broker with an {@code ssl://} listener and clients that trust its certificate. */
class BusTlsTest {
    @TempDir
    Path dir;

    private Path keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
        return dir;
    }

    @Test
    void sslBroker_trustedClientsTalk_untrustedAndPlainClientsDoNot() throws Exception {
        // passwords come from the environment in production; here one made up per run
        String password = Long.toHexString(System.nanoTime()) + "pw";
        Path brokerKs = dir.resolve("broker.p12");
        Path cert = dir.resolve("broker.cer");
        Path trust = dir.resolve("trust.p12");
        keytool("-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
                "-keystore", brokerKs.toString(), "-storepass", password, "-keypass", password);
        keytool("-exportcert", "-alias", "broker", "-keystore", brokerKs.toString(), "-storepass", password,
                "-file", cert.toString());
        keytool("-importcert", "-noprompt", "-alias", "broker", "-file", cert.toString(), "-storetype", "PKCS12",
                "-keystore", trust.toString(), "-storepass", password);
        BusTls brokerTls = new BusTls(brokerKs.toString(), "PKCS12", password, null, null, null);
        BusTls clientTls = new BusTls(null, null, null, trust.toString(), "PKCS12", password);

        try (EmbeddedBroker broker = EmbeddedBroker.start("tls", "ssl://127.0.0.1:0", null, null, List.of(), brokerTls)) {
            String sslUrl = broker.tcpUrl().replace("tcp://", "ssl://");
            List<BusMessage> got = new CopyOnWriteArrayList<>();
            ControlBus reader = new ControlBus(sslUrl, null, null, clientTls, "reader").subscribe(Topics.HEARTBEAT_GATEWAY, got::add).start();
            ControlBus writer = new ControlBus(sslUrl, null, null, clientTls, "writer").start();
            // without the trust store the JDK's default trust refuses the self-signed certificate
            ControlBus untrusted = new ControlBus(sslUrl, null, null, null, "untrusted").start();
            ControlBus plain = new ControlBus(broker.tcpUrl(), null, null, null, "plain").start();
            try {
                await().atMost(Duration.ofSeconds(20)).until(() -> reader.isConnected() && writer.isConnected());
                await("a heartbeat crosses the TLS connections").atMost(Duration.ofSeconds(20)).until(() -> {
                    writer.publish(Topics.HEARTBEAT_GATEWAY, new HeartbeatMessage(BusMessage.SCHEMA, "writer", "gateway", HeartbeatMessage.ALIVE, System.currentTimeMillis(), 0));
                    return !got.isEmpty();
                });
                await("the untrusted client has tried and failed").atMost(Duration.ofSeconds(20))
                        .until(() -> untrusted.lastError() != null);
                assertFalse(untrusted.isConnected(), "an untrusted certificate is refused");
                assertFalse(plain.isConnected(), "plain TCP is not spoken on the TLS listener");
                assertTrue(reader.isConnected());
            } finally {
                reader.close();
                writer.close();
                untrusted.close();
                plain.close();
            }
        }
    }
    @Test
    void brokerRequiringClientCertificates_acceptsOnlyClientsThatPresentATrustedOne() throws Exception {
        String password = Long.toHexString(System.nanoTime()) + "pw";
        Path brokerKs = dir.resolve("broker.p12");
        Path clientKs = dir.resolve("client.p12");
        Path brokerTrust = dir.resolve("broker-trust.p12");
        Path clientTrust = dir.resolve("client-trust.p12");
        for (String[] pair : new String[][] {{"broker", brokerKs.toString()}, {"client", clientKs.toString()}}) {
            keytool("-genkeypair", "-alias", pair[0], "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                    "-dname", "CN=" + pair[0], "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
                    "-keystore", pair[1], "-storepass", password, "-keypass", password);
            keytool("-exportcert", "-alias", pair[0], "-keystore", pair[1], "-storepass", password,
                    "-file", dir.resolve(pair[0] + ".cer").toString());
        }
        keytool("-importcert", "-noprompt", "-alias", "client", "-file", dir.resolve("client.cer").toString(),
                "-storetype", "PKCS12", "-keystore", brokerTrust.toString(), "-storepass", password);
        keytool("-importcert", "-noprompt", "-alias", "broker", "-file", dir.resolve("broker.cer").toString(),
                "-storetype", "PKCS12", "-keystore", clientTrust.toString(), "-storepass", password);
        BusTls brokerTls = new BusTls(brokerKs.toString(), "PKCS12", password, brokerTrust.toString(), "PKCS12", password);
        BusTls withCertificate = new BusTls(clientKs.toString(), "PKCS12", password, clientTrust.toString(), "PKCS12", password);
        BusTls withoutCertificate = new BusTls(null, null, null, clientTrust.toString(), "PKCS12", password);

        try (EmbeddedBroker broker = EmbeddedBroker.start("mtls", "ssl://127.0.0.1:0?transport.needClientAuth=true", null, null,
                List.of(), brokerTls)) {
            String sslUrl = broker.tcpUrl().replace("tcp://", "ssl://");
            ControlBus good = new ControlBus(sslUrl, null, null, withCertificate, "good").start();
            ControlBus anonymous = new ControlBus(sslUrl, null, null, withoutCertificate, "anonymous").start();
            try {
                await("the client with a trusted certificate connects").atMost(Duration.ofSeconds(20)).until(good::isConnected);
                // without a certificate the TLS 1.3 handshake ends on the broker's side after the client's: the
                // client keeps retrying and must never count as connected
                await("no client certificate, no connection").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                        .until(() -> !anonymous.isConnected());
            } finally {
                good.close();
                anonymous.close();
            }
        }
    }

    /**
     * A network of two brokers over TLS, with per-role accounts: the bridges speak TLS to each other (each broker
     * trusts the other's certificate), a gateway's heartbeat on one reaches a manager on the other with its account,
     * and neither listener speaks plain TCP.
     */
    @Test
    void aNetworkOfBrokersOverTls_carriesMessagesWithTheirSenders() throws Exception {
        String password = Long.toHexString(System.nanoTime()) + "pw";
        Path trust = dir.resolve("trust.p12");
        for (String name : new String[] {"broker-a", "broker-b"}) {
            Path ks = dir.resolve(name + ".p12");
            keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                    "-dname", "CN=" + name, "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12",
                    "-keystore", ks.toString(), "-storepass", password, "-keypass", password);
            keytool("-exportcert", "-alias", name, "-keystore", ks.toString(), "-storepass", password,
                    "-file", dir.resolve(name + ".cer").toString());
            keytool("-importcert", "-noprompt", "-alias", name, "-file", dir.resolve(name + ".cer").toString(),
                    "-storetype", "PKCS12", "-keystore", trust.toString(), "-storepass", password);
        }
        BusTls clients = new BusTls(null, null, null, trust.toString(), "PKCS12", password);
        List<io.slagate.config.BusAccount> accounts = List.of(new io.slagate.config.BusAccount("gw", "gateway", "gw-pw-for-test"),
                new io.slagate.config.BusAccount("rm", "resource-manager", "rm-pw-for-test"));
        int portA = freePort();
        int portB = freePort();
        EmbeddedBroker a = EmbeddedBroker.start("tls-net-a", "ssl://127.0.0.1:" + portA, "admin", "admin-pw-for-test", accounts,
                brokerTls("broker-a", password, trust), List.of("ssl://127.0.0.1:" + portB));
        try (EmbeddedBroker b = EmbeddedBroker.start("tls-net-b", "ssl://127.0.0.1:" + portB, "admin", "admin-pw-for-test", accounts,
                brokerTls("broker-b", password, trust), List.of("ssl://127.0.0.1:" + portA))) {
            List<String> managerSaw = new CopyOnWriteArrayList<>();
            ControlBus manager = new ControlBus("ssl://127.0.0.1:" + portA, "rm", "rm-pw-for-test", clients, "rm-on-a")
                    .subscribeWithSender(Topics.HEARTBEAT_GATEWAY, (m, who) -> managerSaw.add(who + " " + ((HeartbeatMessage) m).componentId()))
                    .start();
            ControlBus gateway = new ControlBus("ssl://127.0.0.1:" + portB, "gw", "gw-pw-for-test", clients, "gw-on-b").start();
            ControlBus plain = new ControlBus("tcp://127.0.0.1:" + portB, "gw", "gw-pw-for-test", null, "plain").start();
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> manager.isConnected() && gateway.isConnected());
                long[] n = {0};
                await("a heartbeat on B crosses the TLS bridge to the manager on A, with the gateway's account")
                        .atMost(Duration.ofSeconds(30)).until(() -> {
                            gateway.publish(Topics.HEARTBEAT_GATEWAY, new HeartbeatMessage(BusMessage.SCHEMA, "gw1", "gateway",
                                    HeartbeatMessage.ALIVE, n[0]++, 0));
                            return managerSaw.contains("gw gw1");
                        });
                assertFalse(plain.isConnected(), "plain TCP is not spoken on the TLS listener");
            } finally {
                manager.close();
                gateway.close();
                plain.close();
                a.close();
            }
        }
    }

    private BusTls brokerTls(String name, String password, Path trust) {
        return new BusTls(dir.resolve(name + ".p12").toString(), "PKCS12", password, trust.toString(), "PKCS12", password);
    }

    private static int freePort() throws Exception {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
