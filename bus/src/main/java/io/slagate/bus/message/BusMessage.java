package io.slagate.bus.message;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A message on the control bus: small JSON, a {@code type} and a {@code schema} version. A reader
 * skips (and logs) a message of an unknown type or a newer schema instead of failing.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = StatsMessage.class, name = "stats"),
        @JsonSubTypes.Type(value = AllocationMessage.class, name = "allocation"),
        @JsonSubTypes.Type(value = HeartbeatMessage.class, name = "heartbeat"),
        @JsonSubTypes.Type(value = DecisionMessage.class, name = "decision"),
        @JsonSubTypes.Type(value = ControlMessage.class, name = "control"),
        @JsonSubTypes.Type(value = ConfigMessage.class, name = "config"),
        @JsonSubTypes.Type(value = RosterMessage.class, name = "roster"),
        @JsonSubTypes.Type(value = CredentialsMessage.class, name = "credentials"),
})
public sealed interface BusMessage permits StatsMessage, AllocationMessage, HeartbeatMessage, DecisionMessage,
        ControlMessage, ConfigMessage, RosterMessage, CredentialsMessage {
    int SCHEMA = 1;

    int schema();
}
