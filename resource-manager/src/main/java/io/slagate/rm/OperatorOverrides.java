package io.slagate.rm;

import io.slagate.bus.message.ControlMessage;
import io.slagate.config.SlagateConfig;

/** An operator's override from the console applied to the manager's state: pause, pinned weights, capacities and pools. */
final class OperatorOverrides {
    private OperatorOverrides() {
    }

    /**
     * @param now the manager's clock, from which an expiring override counts
     * @return false when {@code c} is no override (nothing applied)
     * @throws IllegalArgumentException when the override names what does not exist
     */
    static boolean apply(ControlMessage c, long now, Overrides overrides, PoolMoves poolMoves, SlagateConfig config) {
        long until = c.expiresInSeconds() > 0 ? now + (long) (c.expiresInSeconds() * 1e9) : Long.MAX_VALUE;
        switch (c.command()) {
            case ControlMessage.PAUSE -> overrides.pause();
            case ControlMessage.RESUME -> overrides.resume();
            case ControlMessage.PIN_WEIGHT -> overrides.pinWeight(c.gatewayId(), c.className(), c.value(), until);
            case ControlMessage.UNPIN_WEIGHT -> overrides.unpinWeight(c.gatewayId(), c.className());
            case ControlMessage.PIN_CAPACITY -> overrides.pinCapacity(c.serverId(), (int) c.value(), until);
            case ControlMessage.UNPIN_CAPACITY -> overrides.unpinCapacity(c.serverId());
            case ControlMessage.PIN_POOL, ControlMessage.UNPIN_POOL -> {
                boolean known = config.servers().stream().anyMatch(sc -> sc.id().equals(c.serverId()) && sc.movable());
                if (!known) {
                    throw new IllegalArgumentException("no movable server " + c.serverId());
                }
                poolMoves.pin(c.serverId(), ControlMessage.PIN_POOL.equals(c.command()));
            }
            default -> {
                return false;
            }
        }
        return true;
    }
}
