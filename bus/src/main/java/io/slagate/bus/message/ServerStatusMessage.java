package io.slagate.bus.message;

/** One server as a gateway sees it: its cap N_{g,s} in force, outstanding requests, whether in rotation. */
public record ServerStatusMessage(String serverId, int cap, int outstanding, boolean inRotation) {
}
