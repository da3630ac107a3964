package io.slagate.gateway.auth;

import io.slagate.gateway.soap.FaultReason;

/**
 * The blocks of one SOAP header, read in order by {@link SecurityHeader}: the Security block meant for the gateway
 * taken apart, every other block skipped whole unless it must be understood by the gateway (its actor or role is
 * {@code next}), which is then a MustUnderstand fault.
 */
final class Blocks {
    private static final String NEXT11 = "http://schemas.xmlsoap.org/soap/actor/next";
    private static final String NEXT12 = "http://www.w3.org/2003/05/soap-envelope/role/next";
    private static final String ULTIMATE12 = "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver";

    private final XmlScanner x;
    private final String soap;
    private final long nowMillis;
    private final long skewMillis;
    private boolean seenSecurity;
    private String user;
    private String password;
    private int from;
    private int to;

    Blocks(XmlScanner x, String soap, long nowMillis, long skewMillis) {
        this.x = x;
        this.soap = soap;
        this.nowMillis = nowMillis;
        this.skewMillis = skewMillis;
    }

    /** Reads to the header's end: what it holds for the gateway. */
    SecurityHeader.Read read(int limit, int size, boolean complete) throws XmlScanner.Malformed {
        while (true) {
            int e = SecurityHeader.significant(x);
            if (e == XmlScanner.MORE) {
                return SecurityHeader.tooLong(limit, size, complete);
            }
            if (e == XmlScanner.END) {
                return user == null ? SecurityHeader.Read.NONE : new SecurityHeader.Read(user, password, from, to, null, null);
            }
            String target = soap.equals(SecurityHeader.SOAP11) ? x.attribute(soap, "actor") : x.attribute(soap, "role");
            target = target == null || target.isBlank() ? null : target.strip(); // an empty actor is the default one to WSS libraries
            boolean forUs = target == null || target.equals(NEXT11) || target.equals(NEXT12) || target.equals(ULTIMATE12);
            if (SecurityHeader.WSSE.equals(x.namespace()) && !"Security".equals(x.local())) {
                throw new XmlScanner.Malformed("a WS-Security " + x.local() + " standing as a header block of its own");
            }
            if (SecurityHeader.WSSE.equals(x.namespace()) && !forUs) {
                // a Security block for another actor would go on with whatever it holds: the gateway stands behind none
                throw new XmlScanner.Malformed("a WS-Security block for the actor " + target + ", which the gateway does not pass on");
            }
            if (forUs && "Security".equals(x.local()) && SecurityHeader.WSSE.equals(x.namespace())) {
                if (seenSecurity) {
                    throw new XmlScanner.Malformed("two Security header blocks for the gateway");
                }
                seenSecurity = true;
                from = x.tagStart();
                if (!security()) {
                    return SecurityHeader.tooLong(limit, size, complete);
                }
                to = x.tagEnd();
            } else if (target != null && !target.equals(ULTIMATE12) && forUs && mustUnderstand()) {
                return SecurityHeader.Read.fault(FaultReason.MUST_UNDERSTAND, "the header block {" + x.namespace() + "}"
                        + x.local() + " is for the gateway to understand, and it does not");
            } else if (!skip()) {
                return SecurityHeader.tooLong(limit, size, complete);
            }
        }
    }

    private boolean mustUnderstand() throws XmlScanner.Malformed {
        String m = x.attribute(soap, "mustUnderstand");
        return "1".equals(m) || "true".equals(m);
    }

    /** Reads the Security block's children; false when the bytes ran out. */
    private boolean security() throws XmlScanner.Malformed {
        boolean token = false;
        boolean timestamp = false;
        while (true) {
            int e = SecurityHeader.significant(x);
            if (e == XmlScanner.MORE) {
                return false;
            }
            if (e == XmlScanner.END) {
                return true;
            }
            if ("UsernameToken".equals(x.local()) && SecurityHeader.WSSE.equals(x.namespace()) && !token) {
                token = true;
                if (!usernameToken()) {
                    return false;
                }
            } else if ("Timestamp".equals(x.local()) && SecurityHeader.WSU.equals(x.namespace()) && !timestamp) {
                timestamp = true;
                if (!timestamp()) {
                    return false;
                }
            } else {
                throw new XmlScanner.Malformed("a Security block holding {" + x.namespace() + "}" + x.local()
                        + " (the gateway reads one UsernameToken and one Timestamp)");
            }
        }
    }

    private boolean usernameToken() throws XmlScanner.Malformed {
        while (true) {
            int e = SecurityHeader.significant(x);
            if (e == XmlScanner.MORE) {
                return false;
            }
            if (e == XmlScanner.END) {
                if (user == null || user.isEmpty() || user.length() > 256 || password == null) {
                    throw new XmlScanner.Malformed("a UsernameToken without " + (password == null && user != null ? "a Password"
                            : "a Username of 1-256 characters"));
                }
                return true;
            }
            String local = x.local();
            boolean wsse = SecurityHeader.WSSE.equals(x.namespace());
            if (wsse && local.equals("Username") && user == null) {
                user = leafText();
            } else if (wsse && local.equals("Password") && password == null) {
                String type = x.attribute(null, "Type");
                if (SecurityHeader.PASSWORD_DIGEST.equals(type)) {
                    throw new Digest();
                }
                if (type != null && !type.equals(SecurityHeader.PASSWORD_TEXT)) {
                    throw new XmlScanner.Malformed("a Password of Type " + type);
                }
                password = leafText();
            } else if (wsse && local.equals("Nonce") || SecurityHeader.WSU.equals(x.namespace()) && local.equals("Created")) {
                leafText(); // PasswordText over TLS: neither adds anything a replay would lack
            } else {
                throw new XmlScanner.Malformed("a UsernameToken holding {" + x.namespace() + "}" + local);
            }
        }
    }

    private boolean timestamp() throws XmlScanner.Malformed {
        long created = Long.MIN_VALUE;
        long expires = Long.MAX_VALUE;
        while (true) {
            int e = SecurityHeader.significant(x);
            if (e == XmlScanner.MORE) {
                return false;
            }
            if (e == XmlScanner.END) {
                if (created != Long.MIN_VALUE && created - skewMillis > nowMillis) {
                    throw new XmlScanner.Malformed("a Timestamp created in the future");
                }
                if (expires + skewMillis < nowMillis || expires < created) {
                    throw new XmlScanner.Malformed("a Timestamp that has expired");
                }
                return true;
            }
            if (!SecurityHeader.WSU.equals(x.namespace())) {
                throw new XmlScanner.Malformed("a Timestamp holding {" + x.namespace() + "}" + x.local());
            }
            if (x.local().equals("Created") && created == Long.MIN_VALUE) {
                created = SecurityHeader.instant(leafText());
            } else if (x.local().equals("Expires") && expires == Long.MAX_VALUE) {
                expires = SecurityHeader.instant(leafText());
            } else {
                throw new XmlScanner.Malformed("a Timestamp holding " + x.local() + " (or twice)");
            }
        }
    }

    /** The text of an element with nothing but text in it, up to its end. */
    private String leafText() throws XmlScanner.Malformed {
        StringBuilder text = new StringBuilder();
        while (true) {
            int e = x.next();
            if (e == XmlScanner.TEXT) {
                text.append(x.text());
            } else if (e == XmlScanner.END) {
                if (x.markedUp()) {
                    throw new XmlScanner.Malformed("a comment or CDATA inside " + x.local() + " (parsers read such a text differently)");
                }
                return text.toString();
            } else if (e == XmlScanner.MORE) {
                throw new XmlScanner.Malformed("a SOAP header cut short, or longer than wsSecurity.maxHeaderBytes");
            } else {
                throw new XmlScanner.Malformed("an element inside {" + x.namespace() + "}" + x.local());
            }
        }
    }

    /** Skips the element just started, whatever it holds; false when the bytes ran out. */
    private boolean skip() throws XmlScanner.Malformed {
        int depth = x.depth();
        while (x.depth() >= depth) {
            int e = x.next();
            if (e == XmlScanner.MORE) {
                return false;
            }
        }
        return true;
    }

    /** A PasswordDigest token: refused with a fault of its own. */
    static final class Digest extends XmlScanner.Malformed {
        Digest() {
            super("a PasswordDigest UsernameToken: it needs the cleartext password at the gateway, which keeps only bcrypt"
                    + " hashes; send PasswordText over TLS");
        }
    }
}
