package io.slagate.gateway.http1;

import static io.slagate.gateway.http1.RequestHeadTest.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.gateway.http1.ResponseHead.Verdict;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ResponseHeadTest {
    static final String SOAP_ANSWER = "HTTP/1.1 200 OK\r\n"
            + "Server: nginx/1.22.1\r\n"
            + "Date: Sun, 29 Nov 2026 14:00:00 GMT\r\n"
            + "Content-Type: text/xml; charset=utf-8\r\n"
            + "Content-Length: 226\r\n"
            + "Connection: keep-alive\r\n"
            + "\r\n";

    @Test
    void aSoapAnswer_isReadInPlace_withItsFieldsFramingAndLines() {
        ResponseHead h = new ResponseHead(32 * 1024, 200);
        ByteBuffer b = bytes(SOAP_ANSWER + "<soap body>");
        assertEquals(Verdict.ACCEPTED, h.read(b, 0, b.limit()));
        assertEquals(SOAP_ANSWER.length(), h.length());
        assertEquals(200, h.status());
        assertEquals(1, h.minorVersion());
        assertEquals(5, h.fieldCount());
        assertEquals("Content-Type", h.name(2));
        assertEquals("text/xml; charset=utf-8", h.value("content-type"));
        assertEquals(226, h.contentLength());
        assertFalse(h.chunked());
        assertTrue(h.keepAlive());
        assertFalse(h.connectionNamesFields());
        assertFalse(h.bodiless(false));
        assertTrue(h.bodiless(true), "an answer to HEAD has no body whatever its length says");
        b.position(40); // Jetty's index reads from the buffer's position: the fields come out the same wherever it is
        assertEquals("Connection: keep-alive", h.httpField(4).toString());
        assertEquals(HttpHeader.CONNECTION, h.httpField(4).getHeader());
        assertEquals(HttpHeader.CONTENT_LENGTH, h.httpField(3).getHeader());
        assertEquals("226", h.httpField(3).getValue(), "a known name with a value of its own");
        assertEquals("Server", h.httpField(0).getName());
        assertEquals("nginx/1.22.1", h.httpField(0).getValue());
        String line = SOAP_ANSWER.substring(h.lineStart(3), h.lineEnd(3));
        assertEquals("Content-Length: 226\r\n", line, "a field's line, as it came, to relay");
    }

    @Test
    void aHeadCutAnywhere_isIncomplete_neverRefused_andTheNextAnswerIsReadByTheSameInstance() {
        ResponseHead h = new ResponseHead(32 * 1024, 200);
        for (int cut = 0; cut < SOAP_ANSWER.length(); cut++) {
            ByteBuffer b = bytes(SOAP_ANSWER);
            assertEquals(Verdict.INCOMPLETE, h.read(b, 0, cut), "cut after " + cut + " bytes");
        }
        String next = "HTTP/1.0 204\r\nConnection: keep-alive\r\n\r\n";
        ByteBuffer two = bytes(SOAP_ANSWER + "x".repeat(226) + next);
        assertEquals(Verdict.ACCEPTED, h.read(two, 0, two.limit()));
        assertEquals(Verdict.ACCEPTED, h.read(two, h.length() + (int) h.contentLength(), two.limit()));
        assertEquals(204, h.status());
        assertEquals(0, h.minorVersion());
        assertEquals(-1, h.contentLength());
        assertTrue(h.keepAlive(), "HTTP/1.0 kept alive when asked");
        assertTrue(h.bodiless(false));
    }

    @Test
    void chunkedAnswer_closeAndLatin1() {
        ResponseHead h = new ResponseHead(32 * 1024, 200);
        String head = "HTTP/1.1 500 Erreur interne\r\nTransfer-Encoding: chunked\r\nX-Note: caf\u00e9\r\nConnection: close\r\n\r\n";
        assertEquals(Verdict.ACCEPTED, h.read(bytes(head), 0, head.length()));
        assertTrue(h.chunked());
        assertEquals(-1, h.contentLength());
        assertFalse(h.keepAlive());
        assertEquals("caf\u00e9", h.value("x-note"), "a legacy server's Latin-1 value is relayed as it came");
        assertEquals("X-Note: caf\u00e9", h.httpField(1).toString());
        assertNull(h.httpField(1).getHeader(), "an unknown name stays unknown");
        String near = "HTTP/1.1 200 OK\r\nConnection: keep-alive, Upgrade\r\nContent-Typed: x\r\n\r\n";
        assertEquals(Verdict.ACCEPTED, h.read(bytes(near), 0, near.length()));
        assertEquals("keep-alive, Upgrade", h.httpField(0).getValue());
        assertTrue(h.connectionNamesFields(), "Upgrade is named: it stays on the server's hop");
        assertEquals("Content-Typed", h.httpField(1).getName(), "a known name's prefix is not the name");
        assertNull(h.httpField(1).getHeader());
        String cased = "HTTP/1.1 200 OK\r\nContent-Length: 7\r\nconnection: Keep-Alive\r\n\r\n";
        assertEquals(Verdict.ACCEPTED, h.read(bytes(cased), 0, cased.length()));
        assertEquals("7", h.httpField(0).getValue());
        assertEquals("Keep-Alive", h.httpField(1).getValue(), "a value is relayed as sent, whatever case the index has");
        assertEquals(HttpHeader.CONNECTION, h.httpField(1).getHeader());
    }

    /** Answers a client's parser could frame otherwise, or that split or fold: each refused, the server failed. */
    @ParameterizedTest
    @ValueSource(strings = {
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 0x5\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1234567890123456789\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
        "HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX-A: 1\r\n folded: in\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX-A: 1\nContent-Length: 5\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX-A: 1\rContent-Length: 5\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX-A: a\u0000b\r\n\r\n",
        "HTTP/1.1 200 OK\nContent-Length: 5\r\n\r\n",
        "HTTP/1.1 200 O\u0001K\r\n\r\n",
        "HTTP/1.1 200 \tOK\r\n\r\n",
        "HTTP/1.1 200 \u00e9t\u00e9\r\n\r\n",
        "HTTP/1.1 200 OK\r\n\n",
        "HTTP/1.1 200 OK\r\nX-A: 1\r\n\r",
        "HTTP/1.1  200 OK\r\n\r\n",
        "HTTP/1.1 20 OK\r\n\r\n",
        "HTTP/1.1 2000 OK\r\n\r\n",
        "HTTP/1.1 099 Low\r\n\r\n",
        "HTTP/1.1 600 High\r\n\r\n",
        "HTTP/2.0 200 OK\r\n\r\n",
        "HTTP/1.2 200 OK\r\n\r\n",
        "http/1.1 200 OK\r\n\r\n",
        "\r\nHTTP/1.1 200 OK\r\n\r\n",
        "<soap:Envelope>stray</soap:Envelope>",
    })
    void hostileOrBrokenAnswers_refused(String head) {
        ResponseHead h = new ResponseHead(32 * 1024, 200);
        ByteBuffer b = bytes(head + "\r\n\r\n");
        assertEquals(Verdict.REFUSED, h.read(b, 0, b.limit()), head);
        assertNotNull(h.refusal());
    }

    @Test
    void limits_headBytesAndFields() {
        ResponseHead small = new ResponseHead(64, 200);
        String big = "HTTP/1.1 200 OK\r\nX-Big: " + "x".repeat(100) + "\r\n\r\n";
        assertEquals(Verdict.REFUSED, small.read(bytes(big), 0, big.length()));
        assertTrue(small.refusal().contains("longer than 64"), small.refusal());
        ResponseHead few = new ResponseHead(32 * 1024, 3);
        String many = "HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n";
        assertEquals(Verdict.REFUSED, few.read(bytes(many), 0, many.length()));
        assertTrue(few.refusal().contains("more than 3"), few.refusal());
        String three = "HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n";
        assertEquals(Verdict.ACCEPTED, few.read(bytes(three), 0, three.length()));
    }
}
