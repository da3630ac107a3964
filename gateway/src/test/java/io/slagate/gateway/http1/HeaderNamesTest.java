package io.slagate.gateway.http1;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.eclipse.jetty.http.HttpHeader;
import org.junit.jupiter.api.Test;

/** The lookup must answer as Jetty's own index does, for every header it knows and for names it does not. */
class HeaderNamesTest {
    /** {@code name} at absolute indices 3.. of a buffer whose position is 2, as a head's lines are held. */
    private static HttpHeader find(String name) {
        byte[] bytes = ("ab:" + name + ": v").getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        b.position(2);
        return HeaderNames.find(b, 3, 3 + name.length());
    }

    @Test
    void everyHeaderJettyIndexes_isFound_inAnyCase() {
        int found = 0;
        for (HttpHeader h : HttpHeader.values()) {
            String name = h.asString();
            if (HttpHeader.CACHE.get(name) != h) {
                continue;
            }
            assertSame(h, find(name), name);
            assertSame(h, find(name.toLowerCase(Locale.ROOT)), name);
            assertSame(h, find(name.toUpperCase(Locale.ROOT)), name);
            found++;
        }
        assertTrue(found > 50, "headers compared: " + found);
    }

    @Test
    void namesJettyDoesNotKnow_areNotHeaders() {
        for (String name : new String[] {"Content-Typ", "Content-Types", "Content-Type ", "X-Custom", "SOAPAction", "Hosts",
                "Hos", "-ontent-Type", "Content_Type", "", "Content-Type:", "Contentmtype"}) {
            assertNull(find(name), name);
            assertNull(HttpHeader.CACHE.get(name), "the test's premise: Jetty does not know " + name);
        }
    }

    @Test
    void aLetterAndABytePastItsCase_doNotMeet() {
        // '-' (0x2d) and 'm' (0x6d) share a slot; '\r' (0x0d) too: the full comparison must tell them apart
        assertNull(find("-ax-Forwards"));
        assertNull(find("\rax-Forwards"));
        assertSame(HttpHeader.MAX_FORWARDS, find("max-forwards"));
    }
}
