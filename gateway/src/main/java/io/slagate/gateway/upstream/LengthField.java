package io.slagate.gateway.upstream;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;

/**
 * A {@code Content-Length} field that holds its number and makes the value's text only when someone asks for it: the
 * relay listener writes the number digit by digit into the client's head, so on the usual path no string is made
 * (Jetty's long-valued field formats its text when built).
 */
final class LengthField extends HttpField {
    private final long length;
    private String text;

    LengthField(long length) {
        super(HttpHeader.CONTENT_LENGTH, HttpHeader.CONTENT_LENGTH.asString(), (String) null);
        this.length = length;
    }

    @Override
    public String getValue() {
        String t = text;
        if (t == null) {
            t = Long.toString(length);
            text = t;
        }
        return t;
    }

    @Override
    public long getLongValue() {
        return length;
    }

    @Override
    public int getIntValue() {
        return Math.toIntExact(length);
    }

    @Override
    public HttpField withValue(String value) {
        return new HttpField(getHeader(), getName(), getValue()).withValue(value);
    }

    @Override
    public HttpField withoutValue(String value) {
        return new HttpField(getHeader(), getName(), getValue()).withoutValue(value);
    }
}
