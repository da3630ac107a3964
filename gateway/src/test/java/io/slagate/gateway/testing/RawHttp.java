package io.slagate.gateway.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 spoken by hand over a socket, for clients no library would be: broken framing, stalls,
 * early closes. Reads one response (length-delimited, or to the end of the connection).
 */
public final class RawHttp {
    /** A response as it arrived; header names lower-cased. */
    public record Response(int status, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private RawHttp() {
    }

    public static Socket open(int port, int readTimeoutMillis) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setSoTimeout(readTimeoutMillis);
        return s;
    }

    /** Sends {@code raw} on a new connection and reads one response. */
    public static Response exchange(int port, String raw) throws IOException {
        try (Socket s = open(port, 15_000)) {
            s.getOutputStream().write(raw.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            return read(s.getInputStream());
        }
    }

    /** A POST of a SOAP 1.1 envelope with its length, as a well-behaved client sends it. */
    public static String post(String path, String extraHeaders, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: gw.example\r\nContent-Type: text/xml; charset=utf-8\r\n"
                + "SOAPAction: \"urn:getQuote\"\r\n" + extraHeaders + "Content-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    public static Response read(InputStream in) throws IOException {
        String statusLine = line(in);
        if (statusLine == null) {
            throw new IOException("connection closed before a response");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        String l;
        while ((l = line(in)) != null && !l.isEmpty()) {
            int colon = l.indexOf(':');
            headers.merge(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim(), (a, b) -> a + ", " + b);
        }
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        String length = headers.get("content-length");
        byte[] body;
        if (length != null) {
            body = in.readNBytes(Integer.parseInt(length));
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            while (true) {
                int n = Integer.parseInt(line(in).trim(), 16);
                out.write(in.readNBytes(n));
                line(in);
                if (n == 0) {
                    break;
                }
            }
            body = out.toByteArray();
        } else if (status == 204 || status == 304 || status < 200) {
            body = new byte[0];
        } else {
            body = in.readAllBytes();
        }
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                b.write(c);
            }
        }
        return c < 0 && b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
    }
}
