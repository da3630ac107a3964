package io.slagate.gateway.auth;

/** What XML 1.0 allows where {@link XmlScanner} reads: character references, characters, white space, name bytes. */
final class XmlChars {
    private XmlChars() {
    }

    static int character(String name) throws XmlScanner.Malformed {
        if (!name.startsWith("#")) {
            throw new XmlScanner.Malformed("the entity &" + name + "; (only the five predefined ones exist without a DTD)");
        }
        int cp;
        try {
            cp = name.startsWith("#x") ? Integer.parseInt(name.substring(2), 16) : Integer.parseInt(name.substring(1));
        } catch (NumberFormatException e) {
            throw new XmlScanner.Malformed("a malformed character reference &" + name + ";");
        }
        if (cp == 0x9 || cp == 0xa || cp == 0xd || cp >= 0x20 && cp <= 0xd7ff || cp >= 0xe000 && cp <= 0xfffd
                || cp >= 0x10000 && cp <= 0x10ffff) {
            return cp;
        }
        throw new XmlScanner.Malformed("a reference to a character XML does not allow");
    }

    static void control(byte c) throws XmlScanner.Malformed {
        if (c >= 0 && c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            throw new XmlScanner.Malformed("a control character");
        }
    }

    static boolean space(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    /**
     * An ASCII name character. Names beyond ASCII are refused: XML 1.0 and 1.1 and parsers differ on which of them are
     * name characters (U+0085 and U+2028 end a name in one and not another), and a SOAP header has no need of them.
     */
    static boolean nameByte(byte c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == ':';
    }
}
