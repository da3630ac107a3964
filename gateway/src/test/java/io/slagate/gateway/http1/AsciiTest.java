package io.slagate.gateway.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AsciiTest {
    @Test
    void string_isLatin1_fromHeapSliceAndDirectAlike() {
        byte[] bytes = "xxX-Note: caf\u00e9!".getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer slice = ByteBuffer.wrap(bytes, 2, bytes.length - 2).slice(); // array offset 2
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length - 2).put(slice.duplicate()).flip();
        for (ByteBuffer b : new ByteBuffer[] {slice, direct, slice.asReadOnlyBuffer()}) {
            assertEquals("caf\u00e9", Ascii.string(b, 8, 12), b.toString());
            assertEquals("X-Note", Ascii.string(b, 0, 6), b.toString());
        }
    }
}
