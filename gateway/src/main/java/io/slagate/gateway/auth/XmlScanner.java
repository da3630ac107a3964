package io.slagate.gateway.auth;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A strict pull reader of the start of an XML document in UTF-8, enough to walk a SOAP header and no more: elements,
 * attributes, namespaces, text with the five predefined entities, character references and CDATA, comments, and the
 * XML declaration. It refuses what a SOAP message must not carry and a hostile one would use to make two parsers
 * disagree or one work hard: a DTD (so no entity can be declared or expanded), a processing instruction, an entity
 * that is not predefined, a document in another encoding, a control character, a nesting deeper than a bound. It
 * reads bytes in place; nothing is built but the names and the texts asked for.
 */
final class XmlScanner {
    /** What {@link #next} met. */
    static final int START = 1;
    static final int END = 2;
    static final int TEXT = 3;
    /** The bytes given ran out before the next event was whole. */
    static final int MORE = 4;
    static final int MAX_ATTRIBUTES = 64;
    /** Namespace declarations in a whole document: each name is resolved against those in scope, so they are few. */
    static final int MAX_DECLARATIONS = 64;

    /** Why the document is refused. */
    static class Malformed extends Exception {
        Malformed(String why) {
            super(why, null, false, false);
        }
    }

    private final byte[] b;
    private final int end;
    private final int maxDepth;
    private int pos;
    private boolean prologDone;
    private boolean pendingEnd;

    // the element just started (START) or ended (END)
    private String prefix;
    private String local;
    private String namespace;
    private int tagStart;
    private int tagEnd;
    private final List<String[]> attributes = new ArrayList<>(); // {prefix, local, value}
    private String text;

    /** Open elements' qualified names, and the namespace bindings in scope: {depth, prefix, uri}. */
    private final List<String> open = new ArrayList<>();
    private final List<Object[]> bindings = new ArrayList<>();
    private int declarations;
    /** A comment or a CDATA section met since the last start tag. */
    private boolean markedUp;

    XmlScanner(byte[] b, int from, int to, int maxDepth) {
        this.b = b;
        this.pos = from;
        this.end = to;
        this.maxDepth = maxDepth;
    }

    /** The next event: {@link #START}, {@link #END}, {@link #TEXT} or {@link #MORE}. */
    int next() throws Malformed {
        if (pendingEnd) { // the end of an empty-element tag
            pendingEnd = false;
            return endElement();
        }
        if (!prologDone && !prolog()) {
            return MORE;
        }
        while (pos < end) {
            if (b[pos] != '<') {
                return readText();
            }
            if (starts("<!--")) {
                if (!comment()) {
                    return MORE;
                }
                markedUp = true;
                continue;
            }
            if (starts("<![CDATA[")) {
                return readText();
            }
            if (pos + 1 < end && (b[pos + 1] == '!' || b[pos + 1] == '?')) {
                throw new Malformed(b[pos + 1] == '!' ? "a DTD or declaration" : "a processing instruction");
            }
            int at = pos;
            int event = pos + 1 < end && b[pos + 1] == '/' ? endTag() : startTag();
            if (event == MORE) {
                pos = at;
            }
            return event;
        }
        return MORE;
    }

    int depth() {
        return open.size();
    }

    String local() {
        return local;
    }

    String namespace() {
        return namespace;
    }

    /** Where the tag just read begins ({@code <}) and ends (after {@code >}). */
    int tagStart() {
        return tagStart;
    }

    int tagEnd() {
        return tagEnd;
    }

    /** The value of the current element's attribute {@code local} in {@code ns} (null: no namespace), or null. */
    String attribute(String ns, String name) throws Malformed {
        for (String[] a : attributes) {
            if (a[1].equals(name) && (ns == null ? a[0] == null : a[0] != null && ns.equals(uri(a[0])))) {
                return a[2];
            }
        }
        return null;
    }

    /**
     * Whether a comment or a CDATA section stood in the content read since the last start tag: parsers differ on
     * whether such a text is one (a WS-Security library may read only its first text node).
     */
    boolean markedUp() {
        return markedUp;
    }

    /** The text just read, entities and character references resolved. */
    String text() {
        return text;
    }

    /** Skips a byte order mark and the XML declaration; false when the declaration is not whole yet. */
    private boolean prolog() throws Malformed {
        if (end - pos >= 2 && (b[pos] == (byte) 0xfe || b[pos] == (byte) 0xff)) {
            throw new Malformed("a document in UTF-16: the gateway reads SOAP headers in UTF-8");
        }
        if (end - pos >= 3 && b[pos] == (byte) 0xef && b[pos + 1] == (byte) 0xbb && b[pos + 2] == (byte) 0xbf) {
            pos += 3;
        }
        if (starts("<?xml") && pos + 5 < end && XmlChars.space(b[pos + 5])) {
            int close = indexOf("?>", pos);
            if (close < 0) {
                return false;
            }
            String decl = new String(b, pos, close - pos, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
            if (!decl.matches("<\\?xml\\s+version\\s*=\\s*[\"']1\\.0[\"'](?s).*")) {
                throw new Malformed("an XML version other than 1.0 (1.1 reads names and line ends otherwise)");
            }
            int enc = decl.indexOf("encoding");
            if (enc >= 0 && !decl.matches("(?s).*encoding\\s*=\\s*[\"'](utf-8|us-ascii)[\"'].*")) {
                throw new Malformed("an encoding other than UTF-8");
            }
            pos = close + 2;
        }
        prologDone = true;
        return true;
    }

    private boolean comment() throws Malformed {
        int close = indexOf("--", pos + 4);
        if (close < 0) {
            return false;
        }
        if (close + 2 >= end) {
            return false;
        }
        if (b[close + 2] != '>') {
            throw new Malformed("'--' inside a comment");
        }
        pos = close + 3;
        return true;
    }

    private int readText() throws Malformed {
        StringBuilder out = new StringBuilder();
        int runStart = pos;
        while (pos < end && (b[pos] != '<' || starts("<![CDATA["))) {
            if (starts("<![CDATA[")) {
                flush(out, runStart, pos);
                int close = indexOf("]]>", pos + 9);
                if (close < 0) {
                    return MORE;
                }
                flush(out, pos + 9, close);
                markedUp = true;
                pos = close + 3;
                runStart = pos;
            } else if (b[pos] == '&') {
                flush(out, runStart, pos);
                if (!reference(out)) {
                    return MORE;
                }
                runStart = pos;
            } else {
                if (starts("]]>")) {
                    throw new Malformed("']]>' in text");
                }
                XmlChars.control(b[pos]);
                pos++;
            }
        }
        if (pos >= end) {
            return MORE; // a text is whole only once the tag after it is in sight
        }
        flush(out, runStart, pos);
        text = out.toString();
        return TEXT;
    }

    private int startTag() throws Malformed {
        tagStart = pos;
        markedUp = false;
        pos++;
        String qname = name();
        attributes.clear();
        List<Object[]> declared = new ArrayList<>();
        while (true) {
            boolean spaced = skipSpace();
            if (pos >= end) {
                return MORE;
            }
            if (b[pos] == '>' || b[pos] == '/') {
                break;
            }
            if (!spaced) {
                throw new Malformed("attributes not separated by space");
            }
            String aname = name();
            skipSpace();
            if (pos >= end) {
                return MORE;
            }
            if (b[pos++] != '=') {
                throw new Malformed("an attribute without '='");
            }
            skipSpace();
            String value = quoted();
            if (value == null) {
                return MORE;
            }
            attribute(aname, value, declared);
        }
        boolean empty = b[pos] == '/';
        if (empty && (pos + 1 >= end || b[pos + 1] != '>')) {
            if (pos + 1 >= end) {
                return MORE;
            }
            throw new Malformed("'/' not followed by '>'");
        }
        pos += empty ? 2 : 1;
        tagEnd = pos;
        if (open.size() >= maxDepth) {
            throw new Malformed("elements nested deeper than " + maxDepth);
        }
        open.add(qname);
        for (Object[] d : declared) {
            if (++declarations > MAX_DECLARATIONS) {
                throw new Malformed("over " + MAX_DECLARATIONS + " namespace declarations");
            }
            bindings.add(new Object[] {open.size(), d[0], d[1]});
        }
        split(qname);
        namespace = uri(prefix);
        pendingEnd = empty;
        return START;
    }

    private void attribute(String aname, String value, List<Object[]> declared) throws Malformed {
        int colon = aname.indexOf(':');
        String p = colon < 0 ? null : aname.substring(0, colon);
        String l = colon < 0 ? aname : aname.substring(colon + 1);
        if (aname.equals("xmlns")) {
            declared.add(new Object[] {"", value});
        } else if ("xmlns".equals(p)) {
            declared.add(new Object[] {l, value});
        }
        if (attributes.size() >= MAX_ATTRIBUTES) {
            throw new Malformed("an element with over " + MAX_ATTRIBUTES + " attributes");
        }
        for (String[] a : attributes) {
            if (a[1].equals(l) && Objects.equals(a[0], p)) {
                throw new Malformed("attribute " + aname + " twice");
            }
        }
        attributes.add(new String[] {p, l, value});
    }

    private int endTag() throws Malformed {
        tagStart = pos;
        pos += 2;
        String qname = name();
        skipSpace();
        if (pos >= end) {
            return MORE;
        }
        if (b[pos++] != '>') {
            throw new Malformed("an end tag not closed by '>'");
        }
        tagEnd = pos;
        if (open.isEmpty() || !open.get(open.size() - 1).equals(qname)) {
            throw new Malformed("</" + qname + "> does not close the open element");
        }
        split(qname);
        namespace = uri(prefix);
        return endElement();
    }

    private int endElement() {
        bindings.removeIf(d -> (int) d[0] == open.size());
        open.remove(open.size() - 1);
        return END;
    }

    private void split(String qname) throws Malformed {
        int colon = qname.indexOf(':');
        prefix = colon < 0 ? "" : qname.substring(0, colon);
        local = colon < 0 ? qname : qname.substring(colon + 1);
        if (local.isEmpty() || local.indexOf(':') >= 0) {
            throw new Malformed("a malformed name " + qname);
        }
    }

    /** The namespace bound to {@code p} ("" for the default) where the reader stands. */
    private String uri(String p) throws Malformed {
        for (int i = bindings.size() - 1; i >= 0; i--) {
            if (bindings.get(i)[1].equals(p)) {
                String u = (String) bindings.get(i)[2];
                return u.isEmpty() ? null : u;
            }
        }
        if (p.isEmpty()) {
            return null;
        }
        if (p.equals("xml")) {
            return "http://www.w3.org/XML/1998/namespace";
        }
        if (p.equals("xmlns")) {
            return "http://www.w3.org/2000/xmlns/";
        }
        throw new Malformed("the prefix " + p + " is bound to no namespace");
    }

    private String name() throws Malformed {
        int start = pos;
        while (pos < end && XmlChars.nameByte(b[pos])) {
            pos++;
        }
        if (pos == start || pos - start > 256) {
            throw new Malformed(pos == start ? "a tag without a name" : "a name over 256 bytes");
        }
        byte first = b[start];
        if (first == '-' || first == '.' || first >= '0' && first <= '9' || first == ':') {
            throw new Malformed("a name that starts with '" + (char) first + "'");
        }
        return decode(start, pos);
    }

    private String quoted() throws Malformed {
        if (pos >= end) {
            return null;
        }
        byte q = b[pos];
        if (q != '"' && q != '\'') {
            throw new Malformed("an attribute value not in quotes");
        }
        pos++;
        StringBuilder out = new StringBuilder();
        int runStart = pos;
        while (pos < end && b[pos] != q) {
            if (b[pos] == '<') {
                throw new Malformed("'<' in an attribute value");
            }
            if (b[pos] == '&') {
                flush(out, runStart, pos);
                if (!reference(out)) {
                    return null;
                }
                runStart = pos;
            } else {
                XmlChars.control(b[pos]);
                pos++;
            }
        }
        if (pos >= end) {
            return null;
        }
        flush(out, runStart, pos);
        pos++;
        return out.toString();
    }

    /** A reference at {@code pos}: one of the five predefined entities or a character reference; anything else is refused. */
    private boolean reference(StringBuilder out) throws Malformed {
        int semi = -1;
        for (int i = pos + 1; i < end && i < pos + 12; i++) {
            if (b[i] == ';') {
                semi = i;
                break;
            }
        }
        if (semi < 0) {
            if (end - pos < 12) {
                return false;
            }
            throw new Malformed("a reference without ';'");
        }
        String name = new String(b, pos + 1, semi - pos - 1, StandardCharsets.ISO_8859_1);
        switch (name) {
            case "lt" -> out.append('<');
            case "gt" -> out.append('>');
            case "amp" -> out.append('&');
            case "quot" -> out.append('"');
            case "apos" -> out.append('\'');
            default -> out.appendCodePoint(XmlChars.character(name));
        }
        pos = semi + 1;
        return true;
    }

    /** Appends the text of {@code [from, to)}, its line ends as a parser reports them (XML 1.0 2.11: CR LF and CR are LF). */
    private void flush(StringBuilder out, int from, int to) throws Malformed {
        if (to > from) {
            String t = decode(from, to);
            out.append(t.indexOf('\r') < 0 ? t : t.replace("\r\n", "\n").replace('\r', '\n'));
        }
    }

    private String decode(int from, int to) throws Malformed {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b, from, to - from)).toString();
        } catch (CharacterCodingException e) {
            throw new Malformed("bytes that are not UTF-8");
        }
    }

    private boolean skipSpace() {
        int start = pos;
        while (pos < end && XmlChars.space(b[pos])) {
            pos++;
        }
        return pos > start;
    }

    private boolean starts(String s) {
        if (end - pos < s.length()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (b[pos + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private int indexOf(String s, int from) {
        outer:
        for (int i = from; i + s.length() <= end; i++) {
            for (int j = 0; j < s.length(); j++) {
                if (b[i + j] != s.charAt(j)) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
