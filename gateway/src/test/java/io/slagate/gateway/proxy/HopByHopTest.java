package io.slagate.gateway.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.junit.jupiter.api.Test;

class HopByHopTest {
    /** The names a server's lines are read with and the headers its fields are judged by are the same set. */
    @Test
    void fixedNames_areExactlyTheFixedHeaders() {
        Set<String> byHeader = new TreeSet<>();
        for (HttpHeader h : HttpHeader.values()) {
            if (HopByHop.isHopByHop(new HttpField(h, "x"), null)) {
                byHeader.add(h.asString().toLowerCase(Locale.ROOT));
            }
        }
        assertEquals(byHeader, new TreeSet<>(Arrays.asList(HopByHop.FIXED_NAMES)));
        for (String name : HopByHop.FIXED_NAMES) {
            assertTrue(HopByHop.isHopByHop(new HttpField(name.toUpperCase(Locale.ROOT), "x"), null), name);
        }
    }
}
