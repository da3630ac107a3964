package io.slagate.gateway.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HeadBytesTest {
    private static String text(ByteBuffer b) {
        return StandardCharsets.ISO_8859_1.decode(b).toString();
    }

    @Test
    void statusLines_byVersion_withTheirReasons() {
        HeadBytes h = new HeadBytes();
        assertEquals("HTTP/1.1 200 OK\r\n", text(h.statusLine(1, 200).take()));
        assertEquals("HTTP/1.0 503 Service Unavailable\r\n", text(h.statusLine(0, 503).take()));
        assertEquals("HTTP/1.1 299 299\r\n", text(h.statusLine(1, 299).take()), "no reason phrase known: the number");
        assertEquals("HTTP/1.1 42 42\r\n", text(h.statusLine(1, 42).take()), "outside 100-599: rendered, not looked up");
    }

    @Test
    void aHeadGrowsPastItsFirstArray_andAFieldThatCouldSplitItIsRefused() {
        HeadBytes h = new HeadBytes();
        String value = "v".repeat(2000);
        String head = text(h.statusLine(1, 200).field("X-Long", value).crlf().take());
        assertEquals("HTTP/1.1 200 OK\r\nX-Long: " + value + "\r\n\r\n", head);
        assertThrows(IllegalArgumentException.class, () -> h.field("X-Split", "a\r\nSet-Cookie: x"));
        assertThrows(IllegalArgumentException.class, () -> h.field("Bad Name", "a"));
    }

    @Test
    void numbers_inDecimal() {
        HeadBytes h = new HeadBytes();
        assertEquals("0 7 10 226 999999999999999999 -3",
                text(h.number(0).ascii(" ").number(7).ascii(" ").number(10).ascii(" ").number(226).ascii(" ")
                        .number(999_999_999_999_999_999L).ascii(" ").number(-3).take()));
    }
}
