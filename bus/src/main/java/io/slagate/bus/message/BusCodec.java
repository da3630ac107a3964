package io.slagate.bus.message;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * JSON encoding of bus messages. Unknown fields are ignored (a newer sender may add some); null fields are left out
 * (a missing field reads as null).
 */
public final class BusCodec {
    /**
     * Doubles read and written by Jackson's own fast algorithms (FastDoubleParser, Schubfach) rather than the JDK's: a
     * gateway's report is mostly numbers, and at 10,000 gateways the JDK's parsing of long decimals was a fifth of
     * decoding them. Both round-trip exactly.
     */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();

    private BusCodec() {
    }

    public static String encode(BusMessage m) {
        try {
            return JSON.writeValueAsString(m);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode " + m.getClass().getSimpleName(), e);
        }
    }

    /**
     * Decodes a message; throws {@link IllegalArgumentException} with a short reason for malformed
     * JSON, an unknown type, or a schema newer than this reader understands.
     */
    public static BusMessage decode(String json) {
        BusMessage m;
        try {
            m = JSON.readValue(json, BusMessage.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a bus message: " + e.getOriginalMessage());
        }
        if (m == null) {
            throw new IllegalArgumentException("empty message");
        }
        if (m.schema() > BusMessage.SCHEMA) {
            throw new IllegalArgumentException("schema " + m.schema() + " is newer than " + BusMessage.SCHEMA);
        }
        return m;
    }
}
