package io.slagate.config.utility;


/**
 * A class utility function U_c: maps a response time (seconds) to a scalar that says how much
 * meeting, missing or beating the class's target is worth (section III-B). Implementations are
 * pure and cheap: the optimizer evaluates them many times per control cycle.
 */
@FunctionalInterface
public interface UtilityFunction {
    double utility(double responseTimeSeconds);
}
