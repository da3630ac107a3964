package io.slagate.gateway.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.junit.jupiter.api.Test;

/** The length field reads as Jetty's own would, by number and by text, however it is asked. */
class LengthFieldTest {
    @Test
    void readByNumberAndByText_inAndOutOfAFieldList() {
        LengthField f = new LengthField(12_345_678_901L);
        assertEquals(12_345_678_901L, f.getLongValue());
        assertEquals("12345678901", f.getValue());
        assertSame(f.getValue(), f.getValue(), "the text is made once");
        assertEquals("Content-Length", f.getName());
        assertEquals(HttpHeader.CONTENT_LENGTH, f.getHeader());

        HttpFields fields = HttpFields.build().add(new LengthField(250));
        assertEquals(250, fields.getLongField(HttpHeader.CONTENT_LENGTH));
        assertEquals("250", fields.get(HttpHeader.CONTENT_LENGTH));
        assertEquals("250", fields.get("content-length"));
        assertEquals(250, new LengthField(250).getIntValue());
        assertEquals("Content-Length: 250", new LengthField(250).toString());
    }

    @Test
    void withAndWithoutValues_asAPlainFieldOfTheSameText() {
        HttpField plain = new HttpField(HttpHeader.CONTENT_LENGTH, "7");
        assertEquals(plain.withValue("8").getValue(), new LengthField(7).withValue("8").getValue());
        assertEquals(plain.withValue("7").getValue(), new LengthField(7).withValue("7").getValue());
        assertEquals(String.valueOf(plain.withoutValue("7")), String.valueOf(new LengthField(7).withoutValue("7")));
        assertEquals(HttpHeader.CONTENT_LENGTH, new LengthField(7).withValue("8").getHeader());
    }
}
