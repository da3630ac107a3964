package io.slagate.gateway.auth;

import io.slagate.config.AuthenticationSettings;
import io.slagate.gateway.soap.FaultReason;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The WS-Security header of a SOAP request, read from the body's first bytes and never past the SOAP header: the
 * {@code wsse:Security} block meant for the gateway (no actor or role, or {@code next}), its {@code UsernameToken}
 * and its {@code wsu:Timestamp}. The body itself is never parsed. What the gateway cannot stand behind is refused,
 * not passed on: two Security blocks for it, a Security block holding anything but a UsernameToken and a Timestamp, a
 * token without a name or a password, a PasswordDigest (it needs the cleartext password, which the gateway does not
 * keep), a Timestamp out of its window, a header block the gateway must understand and does not, and every XML
 * construct {@link XmlScanner} refuses (a DTD, an entity, a nesting too deep, a header longer than the bound).
 */
public final class SecurityHeader {
    static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
    static final String WSSE = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
    static final String WSU = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
    static final String PASSWORD_TEXT = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText";
    static final String PASSWORD_DIGEST = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest";
    static final int MAX_DEPTH = 32;

    /**
     * What the header holds: no token ({@code user} null, no fault), a token (its name, its password, and the bytes
     * {@code [from, to)} of the Security block that carries it), or a {@code fault} with the reason why.
     */
    public record Read(String user, String password, int from, int to, FaultReason fault, String why) {
        static final Read NONE = new Read(null, null, 0, 0, null, null);

        static Read fault(FaultReason reason, String why) {
            return new Read(null, null, 0, 0, reason, why);
        }

        public boolean hasToken() {
            return user != null;
        }
    }

    private final AuthenticationSettings.WsSecurity settings;

    public SecurityHeader(AuthenticationSettings.WsSecurity settings) {
        this.settings = settings;
    }

    /** How much of a body must be read before the header can be judged. */
    public int bytesNeeded() {
        return settings.maxHeaderBytes();
    }

    /**
     * Reads the header of {@code body[0, size)} ({@code complete}: that is the whole body) at wall-clock {@code nowMillis}.
     */
    public Read read(byte[] body, int size, boolean complete, long nowMillis) {
        int limit = Math.min(size, settings.maxHeaderBytes());
        XmlScanner x = new XmlScanner(body, 0, limit, MAX_DEPTH);
        try {
            int e = significant(x);
            if (e != XmlScanner.START || !isEnvelope(x)) {
                return e == XmlScanner.MORE ? tooLong(limit, size, complete) : Read.NONE; // not a SOAP envelope: nothing of ours
            }
            String soap = x.namespace();
            e = significant(x);
            if (e == XmlScanner.MORE) {
                return tooLong(limit, size, complete);
            }
            if (e != XmlScanner.START || !soap.equals(x.namespace())) {
                throw new XmlScanner.Malformed("a SOAP envelope whose first element is neither Header nor Body");
            }
            if (!"Header".equals(x.local())) {
                return "Body".equals(x.local()) ? afterBody(x, soap, limit, size, complete, Read.NONE) : Read.NONE;
            }
            Read read = new Blocks(x, soap, nowMillis, settings.clockSkew().toMillis()).read(limit, size, complete);
            if (read.fault() != null) {
                return read;
            }
            e = significant(x);
            if (e == XmlScanner.MORE) {
                return tooLong(limit, size, complete);
            }
            if (e != XmlScanner.START || !"Body".equals(x.local()) || !soap.equals(x.namespace())) {
                throw new XmlScanner.Malformed("a SOAP header not followed by the Body (a second Header?)");
            }
            return afterBody(x, soap, limit, size, complete, read);
        } catch (Blocks.Digest d) {
            return Read.fault(FaultReason.PASSWORD_DIGEST_UNSUPPORTED, d.getMessage());
        } catch (XmlScanner.Malformed m) {
            return Read.fault(FaultReason.SECURITY_HEADER_INVALID, m.getMessage());
        }
    }

    /**
     * {@code read}, once what follows the Body start is known not to be a second SOAP header: where the whole envelope
     * lies within what was read, the Body is skipped and the envelope must end after it (SOAP 1.1 allows other
     * elements there, never a Header). A longer body is not read: the gateway never parses a body past its bound.
     */
    private static Read afterBody(XmlScanner x, String soap, int limit, int size, boolean complete, Read read)
            throws XmlScanner.Malformed {
        if (!complete || size > limit) {
            return read;
        }
        int depth = x.depth();
        while (x.depth() >= depth) {
            if (x.next() == XmlScanner.MORE) {
                return tooLong(limit, size, complete);
            }
        }
        while (true) {
            int e = significant(x);
            if (e == XmlScanner.END || e == XmlScanner.MORE) {
                return read; // the envelope ends (or the body does, which a server refuses as it will)
            }
            if (SOAP12.equals(soap) || "Header".equals(x.local()) && soap.equals(x.namespace())
                    || WSSE.equals(x.namespace())) {
                throw new XmlScanner.Malformed("an element after the SOAP Body that a server could read as a header");
            }
            int d = x.depth();
            while (x.depth() >= d) {
                if (x.next() == XmlScanner.MORE) {
                    return read;
                }
            }
        }
    }

    private static boolean isEnvelope(XmlScanner x) {
        return "Envelope".equals(x.local()) && (SOAP11.equals(x.namespace()) || SOAP12.equals(x.namespace()));
    }

    /** The header ran out of bytes: past the bound, or a body that ends inside its header. */
    static Read tooLong(int limit, int size, boolean complete) {
        if (complete && size <= limit) {
            return Read.fault(FaultReason.SECURITY_HEADER_INVALID, "the body ends inside its SOAP header");
        }
        return Read.fault(FaultReason.SECURITY_HEADER_INVALID, "a SOAP header longer than wsSecurity.maxHeaderBytes (" + limit + ")");
    }

    /** The next event that is not white space between elements. */
    static int significant(XmlScanner x) throws XmlScanner.Malformed {
        while (true) {
            int e = x.next();
            if (e != XmlScanner.TEXT) {
                return e;
            }
            if (!x.text().isBlank()) {
                throw new XmlScanner.Malformed("text between the elements of a SOAP envelope");
            }
        }
    }

    /** Parses an xsd:dateTime of a Timestamp, as wall-clock milliseconds. */
    static long instant(String text) throws XmlScanner.Malformed {
        try {
            return Instant.parse(text.strip()).toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new XmlScanner.Malformed("a Timestamp that is not an xsd:dateTime in UTC: " + text);
        }
    }
}
