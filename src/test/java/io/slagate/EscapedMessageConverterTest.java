package io.slagate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import org.junit.jupiter.api.Test;

/** No value that reaches a log line can forge another line: the text format escapes control characters. */
class EscapedMessageConverterTest {
    private static final String FORGED = "\n2026-01-01T00:00:00.000Z INFO  [main] AuditLog - audit: admin login";

    @Test
    void controlCharacters_escaped_plainTextUntouched() {
        String plain = "gateway gw1 listening on 127.0.0.1:8080";
        assertSame(plain, EscapedMessageConverter.escape(plain), "nothing to escape: the same string, no copy");
        assertEquals("a\\nb\\rc\\td\\u001b[2Je\\u0000f\\u2028g\\u0085h\\u007f",
                EscapedMessageConverter.escape("a\nb\rc\td\u001b[2Je\u0000f\u2028g\u0085h\u007f"));
        assertEquals("back\\slash kept, é and 日本 kept", EscapedMessageConverter.escape("back\\slash kept, é and 日本 kept"));
    }

    @Test
    void longMessages_bounded() {
        String s = "x".repeat(EscapedMessageConverter.MAX_CHARS + 100);
        String e = EscapedMessageConverter.escape(s);
        assertTrue(e.startsWith("x".repeat(EscapedMessageConverter.MAX_CHARS) + "…(100 more characters)"), e.substring(8180));
        assertEquals(EscapedMessageConverter.MAX_CHARS + "…(100 more characters)".length(), e.length());
    }

    /** The shipped configuration (logback.xml, text format): a user name with a forged line and ESC gives one line. */
    @Test
    void shippedTextFormat_oneLinePerEvent_whateverTheValues() throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
        try {
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            JoranConfigurator joran = new JoranConfigurator();
            joran.setContext(context);
            joran.doConfigure(getClass().getResource("/logback.xml"));
            context.getLogger("io.slagate.console.AuditLog").warn("login failed for user {} with SOAPAction {} from gateway {}",
                    "mallory" + FORGED, "\"urn:x\u001b[2J\"", "gw1\r\nfake");
            Thread t = new Thread(() -> context.getLogger("io.slagate.x").warn("failed",
                    new IllegalStateException("bad host" + FORGED, new RuntimeException("cause" + FORGED))), "worker" + FORGED);
            t.start();
            t.join();
        } finally {
            context.stop();
            System.setOut(out);
        }
        String both = captured.toString(StandardCharsets.UTF_8);
        String line = both.substring(0, both.indexOf('\n') + 1);
        String withException = both.substring(line.length());
        assertTrue(withException.startsWith("20") && withException.contains("[worker\\n2026-01-01"), "the thread's name escaped: " + withException);
        assertTrue(withException.contains("IllegalStateException: bad host\\n2026-01-01"), withException);
        assertTrue(withException.contains("Caused by: java.lang.RuntimeException: cause\\n2026-01-01"), withException);
        assertTrue(withException.lines().allMatch(l -> l.startsWith("20") || l.startsWith("\t") || l.startsWith("java.")
                || l.startsWith("Caused by: ")), "every line is the event's, a frame or an exception's head: " + withException);
        assertEquals(0, context.getStatusManager().getCopyOfStatusList().stream().filter(st -> st.getLevel() > 0).count(),
                "warnings or errors configuring the shipped logback.xml: " + context.getStatusManager().getCopyOfStatusList());
        assertEquals(1, line.chars().filter(c -> c == '\n').count(), "one event, one line: " + line);
        assertTrue(line.endsWith("\n"));
        assertTrue(line.contains("user mallory\\n2026-01-01T00:00:00.000Z INFO  [main] AuditLog - audit: admin login with"), line);
        assertTrue(line.contains("SOAPAction \"urn:x\\u001b[2J\""), line);
        assertTrue(line.contains("gateway gw1\\r\\nfake"), line);
        assertTrue(line.contains(" WARN  ["), "the shipped pattern: " + line);
    }
}
