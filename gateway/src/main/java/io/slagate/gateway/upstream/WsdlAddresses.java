package io.slagate.gateway.upstream;

import io.slagate.gateway.proxy.Forwarded;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Request;

/**
 * A service's own address in the WSDL and XSD documents it serves ({@code ?wsdl}, {@code ?wsdl2},
 * {@code ?xsd=…}), replaced by the gateway's: clients that read the WSDL through the gateway must
 * keep calling through it, and Axis2 ignores Host and X-Forwarded-* when it writes
 * {@code soap:address}. The absolute http(s) URLs of {@code location} and {@code schemaLocation}
 * attributes (soap, soap12 and http addresses, wsdl imports, xsd imports and includes) get the
 * gateway's scheme and authority; their paths stay. Only such GETs are touched, never the POST path.
 */
final class WsdlAddresses {
    /** {@code location="http://host:port} or {@code schemaLocation='https://host}: the part that is replaced. */
    private static final Pattern ADDRESS = Pattern.compile("(\\b(?:location|schemaLocation)\\s*=\\s*[\"'])https?://[^/\"'\\s?#]+");
    /** What a Host header may hold to be written into a document: a name or address and a port, nothing else. */
    private static final Pattern AUTHORITY = Pattern.compile("[A-Za-z0-9.\\-]+(?::[0-9]{1,5})?|\\[[0-9A-Fa-f:.]+\\](?::[0-9]{1,5})?");

    private WsdlAddresses() {
    }

    /** Whether the request asks for a service description: a GET or HEAD with {@code ?wsdl}, {@code ?wsdl2} or {@code ?xsd=…}. */
    static boolean asksForDescription(Request c2p) {
        if (!HttpMethod.GET.is(c2p.getMethod())) {
            return false;
        }
        String q = c2p.getHttpURI().getQuery();
        if (q == null) {
            return false;
        }
        String lower = q.toLowerCase(Locale.ROOT);
        return lower.equals("wsdl") || lower.equals("wsdl2") || lower.startsWith("xsd=") || lower.startsWith("wsdl=");
    }

    /**
     * The gateway's address as this client reached it: scheme and Host, or what a trusted proxy said
     * in X-Forwarded-Proto/-Host; null when no usable authority is known (the document is left as it is).
     */
    static String publicBase(Request c2p, boolean trustedProxy) {
        String scheme = c2p.isSecure() ? "https" : "http";
        String host = Forwarded.host(c2p, c2p.getHeaders());
        if (trustedProxy) {
            String fh = c2p.getHeaders().get(HttpHeader.X_FORWARDED_HOST);
            String fp = c2p.getHeaders().get(HttpHeader.X_FORWARDED_PROTO);
            if (fh != null) {
                host = fh.split(",")[0].trim();
            }
            if ("https".equalsIgnoreCase(fp) || "http".equalsIgnoreCase(fp)) {
                scheme = fp.toLowerCase(Locale.ROOT);
            }
        }
        return AUTHORITY.matcher(host).matches() ? scheme + "://" + host : null;
    }

    /** The document with every absolute address of a location attribute moved to {@code base}; the same buffer when none was. */
    static ByteBuffer rewrite(ByteBuffer document, String base) {
        // ISO-8859-1 maps every byte to one char and back: the pattern is ASCII, and UTF-8 text passes through unchanged
        String text = StandardCharsets.ISO_8859_1.decode(document.duplicate()).toString();
        Matcher m = ADDRESS.matcher(text);
        if (!m.find()) {
            return document;
        }
        StringBuilder out = new StringBuilder(text.length() + 64);
        do {
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + base));
        } while (m.find());
        m.appendTail(out);
        return ByteBuffer.wrap(out.toString().getBytes(StandardCharsets.ISO_8859_1));
    }
}
