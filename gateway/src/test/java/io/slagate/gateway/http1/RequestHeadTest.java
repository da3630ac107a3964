package io.slagate.gateway.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.slagate.gateway.http1.RequestHead.Verdict;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestHeadTest {
    static final String SOAP_POST = "POST /services/StockUtility?x=1 HTTP/1.1\r\n"
            + "Host: gw.example:8080\r\n"
            + "Content-Type: text/xml; charset=utf-8\r\n"
            + "SOAPAction: \"urn:premium\"\r\n"
            + "Content-Length: 223\r\n"
            + "Authorization: Basic YzA6cHc=  \r\n"
            + "\r\n";

    static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void aSoapPost_isReadInPlace_withItsFieldsAndFraming() {
        RequestHead h = new RequestHead(8192, 100);
        ByteBuffer b = bytes(SOAP_POST + "<soap body follows>");
        assertEquals(Verdict.ACCEPTED, h.read(b, 0));
        assertEquals(SOAP_POST.length(), h.length());
        assertEquals("POST", h.method());
        assertEquals("/services/StockUtility?x=1", h.target());
        assertEquals(1, h.minorVersion());
        assertEquals(5, h.fieldCount());
        assertEquals("SOAPAction", h.name(2));
        assertEquals("\"urn:premium\"", h.value("soapaction"));
        assertEquals("Basic YzA6cHc=", h.value("authorization"), "whitespace around a value is not part of it");
        assertEquals(223, h.contentLength());
        assertFalse(h.chunked());
        assertTrue(h.keepAlive());
        assertNull(h.value("x-request-deadline"));
    }

    @Test
    void aHeadCutAnywhere_isIncomplete_neverRefused_andTheSameInstanceReadsTheNextHead() {
        RequestHead h = new RequestHead(8192, 100);
        for (int cut = 0; cut < SOAP_POST.length(); cut++) {
            ByteBuffer b = bytes(SOAP_POST).limit(cut);
            assertEquals(Verdict.INCOMPLETE, h.read(b, 0), "cut after " + cut + " bytes");
        }
        String next = "GET /services/StockUtility?wsdl HTTP/1.0\r\nConnection: keep-alive\r\n\r\n";
        ByteBuffer two = bytes(SOAP_POST + "x".repeat(223) + next);
        assertEquals(Verdict.ACCEPTED, h.read(two, 0));
        int second = h.length() + (int) h.contentLength();
        assertEquals(Verdict.ACCEPTED, h.read(two, second));
        assertEquals("GET", h.method());
        assertEquals("/services/StockUtility?wsdl", h.target());
        assertEquals(0, h.minorVersion());
        assertEquals(-1, h.contentLength());
        assertTrue(h.keepAlive(), "HTTP/1.0 asked to keep the connection");
        assertEquals(next.length(), h.length());
    }

    /** The smuggling corpus: each head is refused with its status, whatever follows it. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            CL.TE                          | POST / HTTP/1.1~Host: a~Content-Length: 6~Transfer-Encoding: chunked~~                 | 400
            TE.CL                          | POST / HTTP/1.1~Host: a~Transfer-Encoding: chunked~Content-Length: 6~~                 | 400
            TE.TE obfuscated with a space  | POST / HTTP/1.1~Host: a~Transfer-Encoding: chunked~Transfer-Encoding : x~~            | 400
            TE with a second coding        | POST / HTTP/1.1~Host: a~Transfer-Encoding: gzip, chunked~~                             | 400
            TE named twice                 | POST / HTTP/1.1~Host: a~Transfer-Encoding: chunked~Transfer-Encoding: chunked~~       | 400
            TE identity                    | POST / HTTP/1.1~Host: a~Transfer-Encoding: identity~~                                  | 400
            TE in HTTP/1.0                 | POST / HTTP/1.0~Transfer-Encoding: chunked~~                                           | 400
            CL repeated equal              | POST / HTTP/1.1~Host: a~Content-Length: 5~Content-Length: 5~~                          | 400
            CL as a list                   | POST / HTTP/1.1~Host: a~Content-Length: 5, 5~~                                         | 400
            CL signed                      | POST / HTTP/1.1~Host: a~Content-Length: +5~~                                           | 400
            CL negative                    | POST / HTTP/1.1~Host: a~Content-Length: -1~~                                           | 400
            CL empty                       | POST / HTTP/1.1~Host: a~Content-Length: ~~                                             | 400
            CL of 19 digits                | POST / HTTP/1.1~Host: a~Content-Length: 1000000000000000000~~                          | 400
            CL in hexadecimal              | POST / HTTP/1.1~Host: a~Content-Length: 0x10~~                                         | 400
            obsolete line folding          | POST / HTTP/1.1~Host: a~SOAPAction: a~ b~~                                             | 400
            folded with a tab              | POST / HTTP/1.1~Host: a~X: a~\\tb~~                                                     | 400
            space before the colon         | POST / HTTP/1.1~Host: a~Content-Length : 5~~                                           | 400
            tab before the colon           | POST / HTTP/1.1~Host: a~Content-Length\\t: 5~~                                          | 400
            name outside tchar             | POST / HTTP/1.1~Host: a~Content(Length): 5~~                                           | 400
            empty name                     | POST / HTTP/1.1~Host: a~: 5~~                                                          | 400
            NUL in a value                 | POST / HTTP/1.1~Host: a~X: a\\0b~~                                                      | 400
            bare LF ending a field         | POST / HTTP/1.1~Host: a\\nX: b~~                                                        | 400
            bare CR in a value             | POST / HTTP/1.1~Host: a~X: a\\rb~~                                                      | 400
            bare LF ending the line        | POST / HTTP/1.1\\nHost: a~~                                                             | 400
            bare CR ending the head        | POST / HTTP/1.1~Host: a~\\r\\r~                                                          | 400
            two spaces after the method    | POST  / HTTP/1.1~Host: a~~                                                             | 400
            tab after the method           | POST\\t/ HTTP/1.1~Host: a~~                                                             | 400
            space inside the target        | POST /a b HTTP/1.1~Host: a~~                                                           | 400
            space after the version        | POST / HTTP/1.1 ~Host: a~~                                                             | 400
            lower-case version             | POST / http/1.1~Host: a~~                                                              | 400
            HTTP/2.0 on the wire           | POST / HTTP/2.0~Host: a~~                                                              | 505
            HTTP/1.2                       | POST / HTTP/1.2~Host: a~~                                                              | 505
            HTTP/1.1 without Host          | POST / HTTP/1.1~Content-Length: 0~~                                                    | 400
            two Hosts                      | POST / HTTP/1.1~Host: a~Host: b~~                                                      | 400
            Host with user information     | POST / HTTP/1.1~Host: evil@a~~                                                         | 400
            Host with a path               | POST / HTTP/1.1~Host: a/b~~                                                            | 400
            Host port out of range         | POST / HTTP/1.1~Host: a:65536~~                                                        | 400
            an empty line first            | ~POST / HTTP/1.1~Host: a~~                                                             | 400
            no method                      | \\s/ HTTP/1.1~Host: a~~                                                                 | 400
            DEL in a value                 | POST / HTTP/1.1~Host: a~X: a\\u007fb~~                                                  | 400
            non-ASCII in the target        | POST /\\u00e9 HTTP/1.1~Host: a~~                                                        | 400
            """)
    void theSmugglingCorpus_isRefused(String name, String head, int status) {
        RequestHead h = new RequestHead(8192, 100);
        assertEquals(Verdict.REFUSED, h.read(bytes(wire(head) + "0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n"), 0), name);
        assertEquals(status, h.status(), name + ": " + h.refusal());
    }

    /** {@code ~} is CRLF; {@code \r}, {@code \n}, {@code \t}, {@code \0}, {@code \s} and {@code \\uXXXX} as in Java. */
    static String wire(String s) {
        String t = s.strip().replace("~", "\r\n").replace("\\r", "\r").replace("\\n", "\n").replace("\\t", "\t")
                .replace("\\0", "\0").replace("\\s", " ");
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < t.length(); i++) {
            if (t.startsWith("\\u", i)) {
                out.append((char) Integer.parseInt(t.substring(i + 2, i + 6), 16));
                i += 5;
            } else {
                out.append(t.charAt(i));
            }
        }
        return out.toString();
    }

    @Test
    void aHeadPastItsLimits_isRefusedAs431_evenBeforeItEnds() {
        RequestHead small = new RequestHead(64, 100);
        String longHead = "POST / HTTP/1.1\r\nHost: a\r\nX-Long: " + "v".repeat(100);
        assertEquals(Verdict.REFUSED, small.read(bytes(longHead), 0), "no end in sight within the limit");
        assertEquals(431, small.status());
        RequestHead few = new RequestHead(8192, 3);
        assertEquals(Verdict.REFUSED, few.read(bytes("GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n"), 0));
        assertEquals(431, few.status());
    }

    @Test
    void keepAlive_followsTheVersionAndConnection() {
        RequestHead h = new RequestHead(8192, 100);
        assertEquals(Verdict.ACCEPTED, h.read(bytes("GET / HTTP/1.1\r\nHost: a\r\nConnection: upgrade, Close\r\n\r\n"), 0));
        assertFalse(h.keepAlive());
        assertEquals(Verdict.ACCEPTED, h.read(bytes("GET / HTTP/1.0\r\n\r\n"), 0));
        assertFalse(h.keepAlive());
        assertEquals(Verdict.ACCEPTED, h.read(bytes("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\nExpect: 100-continue\r\n\r\n"), 0));
        assertTrue(h.chunked());
        assertTrue(h.expectContinue());
        assertEquals(-1, h.contentLength());
        assertTrue(h.keepAlive());
    }
}
