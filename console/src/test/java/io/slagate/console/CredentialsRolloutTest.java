package io.slagate.console;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.slagate.bus.ControlBus;
import io.slagate.bus.EmbeddedBroker;
import io.slagate.bus.GatewayRoster;
import io.slagate.bus.message.BusMessage;
import io.slagate.bus.message.CredentialsMessage;
import io.slagate.bus.message.HeartbeatMessage;
import io.slagate.bus.message.Topics;
import io.slagate.config.AuthenticationSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A change of the customers' credentials and the gateways that apply it, over a real in-VM broker with gateways that
 * answer by heartbeat: the answer names who applied it and who did not by the deadline, a gateway behind gets the
 * current files again, another console's newer change is taken in, and an unreadable file is never published.
 */
class CredentialsRolloutTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    @TempDir
    Path dir;
    private EmbeddedBroker broker;
    private ControlBus consoleBus;
    private ControlBus gatewayBus;
    private LiveState state;
    private CustomerCredentials files;
    private CredentialsRollout rollout;
    private final List<CredentialsMessage> sent = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws Exception {
        broker = EmbeddedBroker.start("rollout-test", "", null, null);
        Files.writeString(dir.resolve("customers.htpasswd"), "# customers\n");
        files = new CustomerCredentials(settings());
        state = new LiveState(100, Duration.ofSeconds(60), new GatewayRoster(64, Map.of(), null), System::nanoTime);
        consoleBus = new ControlBus(broker.vmUrl(), null, null, "console");
        state.attach(consoleBus);
        rollout = new CredentialsRollout(files, consoleBus, state, System::nanoTime, Duration.ofMillis(800));
        rollout.attach();
        gatewayBus = new ControlBus(broker.vmUrl(), null, null, "gateways").subscribe(Topics.CREDENTIALS, m -> sent.add((CredentialsMessage) m));
        consoleBus.start();
        gatewayBus.start();
        await().atMost(DEADLINE).until(() -> consoleBus.isConnected() && gatewayBus.isConnected());
    }

    private AuthenticationSettings settings() {
        return new AuthenticationSettings(AuthenticationSettings.Mode.REQUIRED, "slagate",
                dir.resolve("customers.htpasswd").toString(), null, null, null, null, AuthenticationSettings.Revocation.NONE, 10,
                Duration.ofMinutes(5), 1, new AuthenticationSettings.Limit(1, 10), new AuthenticationSettings.Limit(10, 100),
                new AuthenticationSettings.Limit(1, 10), false, null, AuthenticationSettings.WsSecurity.OFF);
    }

    @AfterEach
    void stop() throws Exception {
        consoleBus.close();
        gatewayBus.close();
        broker.close();
    }

    private void beat(String gateway, long credentialsVersion) {
        gatewayBus.publish(Topics.HEARTBEAT_GATEWAY, new HeartbeatMessage(BusMessage.SCHEMA, gateway, "gateway", HeartbeatMessage.ALIVE,
                System.currentTimeMillis(), 0, credentialsVersion));
    }

    @Test
    void theAnswer_namesWhoAppliedTheChange_andWhoDidNotByTheDeadline() throws Exception {
        beat("gw1", 0);
        beat("gw2", 0);
        beat("no-auth", -1); // authenticates nobody: not waited for
        await().atMost(DEADLINE).until(() -> state.credentialsVersions().size() == 2);
        files.putBasic("acme", "acme-password-1".toCharArray());
        var answer = rollout.publish("operator");
        await("the change went out").atMost(DEADLINE).until(() -> !sent.isEmpty());
        long version = sent.get(sent.size() - 1).version();
        beat("gw1", version);
        CredentialsRollout.Reach reach = answer.get();
        assertEquals(List.of("gw1"), reach.applied());
        assertEquals(List.of("gw2"), reach.pending(), "gw2 never said it applied it: named at the deadline");

        var second = rollout.publish("operator"); // the same files: the same version, already applied by gw1
        beat("gw2", version);
        assertEquals(List.of("gw1", "gw2"), second.get().applied());
        assertEquals(version, second.get().version());
    }

    @Test
    void aGatewayBehind_getsTheCurrentFilesAgain_andAnotherConsolesNewerChangeIsTakenIn() throws Exception {
        files.putBasic("acme", "acme-password-1".toCharArray());
        rollout.publish("operator").get();
        await().atMost(DEADLINE).until(() -> !sent.isEmpty());
        long version = sent.get(0).version();
        int before = sent.size();
        beat("restarted-gw", 0); // a gateway that came back knowing nothing of the change
        await("the current files sent again").atMost(DEADLINE).until(() -> sent.size() > before);
        CredentialsMessage again = sent.get(sent.size() - 1);
        assertEquals(version, again.version());
        assertTrue(again.htpasswd().contains("acme:$2y$10$"), again.htpasswd());

        String theirs = "# customers\nbeta:$2y$10$" + "a".repeat(53) + "\n";
        gatewayBus.publish(Topics.CREDENTIALS, new CredentialsMessage(BusMessage.SCHEMA, version + 1, theirs, null, "other-console", 0));
        await("another console's newer change is written here").atMost(DEADLINE)
                .until(() -> Files.readString(dir.resolve("customers.htpasswd")).equals(theirs));
        assertEquals(version + 1, files.version());
        gatewayBus.publish(Topics.CREDENTIALS, new CredentialsMessage(BusMessage.SCHEMA, version, "stale\n", null, "old-console", 0));
        await().during(Duration.ofMillis(300)).atMost(DEADLINE)
                .until(() -> Files.readString(dir.resolve("customers.htpasswd")).equals(theirs));
    }

    @Test
    void anUnreadableFile_isAnError_andNothingIsPublished() throws Exception {
        Path f = dir.resolve("customers.htpasswd");
        Files.delete(f);
        Files.createDirectory(f); // there, and no file to read: as a file no permission lets this user read (root reads any)
        assertThrows(IOException.class, () -> rollout.publish("operator"));
        await().during(Duration.ofMillis(300)).atMost(DEADLINE).until(sent::isEmpty);
    }

    /**
     * A console restarted knows the version its files hold (kept beside them); a console whose files are older than what
     * a gateway applies (it missed another console's change) repeats nothing and takes no change, so it cannot undo it.
     */
    @Test
    void aConsoleKnowsItsVersionAfterARestart_andOneBehindTheGatewaysRepeatsNothing() throws Exception {
        files.putBasic("acme", "acme-password-1".toCharArray());
        long version = rollout.publish("operator").get().version();
        assertEquals(version, new CustomerCredentials(settings()).version(), "read back from beside the files");
        beat("gw-ahead", version + 5); // a change made by a console this one did not hear
        await().atMost(DEADLINE).until(() -> rollout.behind() == version + 5);
        int before = sent.size();
        beat("restarted-gw", 0);
        await("nothing repeated").during(Duration.ofMillis(500)).atMost(DEADLINE).until(() -> sent.size() == before);
        gatewayBus.publish(Topics.CREDENTIALS, new CredentialsMessage(BusMessage.SCHEMA, version + 5, "# theirs\n", null, "other", 0));
        await("caught up by the other console's files").atMost(DEADLINE).until(() -> rollout.behind() == 0);
    }
}
