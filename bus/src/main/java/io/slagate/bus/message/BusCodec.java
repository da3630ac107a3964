package io.slagate.bus.message;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * JSON encoding of bus messages. Unknown fields are ignored (a newer sender may add some); null fields are left out
 * (a missing field reads as null).
 */
public final class BusCodec {
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

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
