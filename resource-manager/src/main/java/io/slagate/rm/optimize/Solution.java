package io.slagate.rm.optimize;

import java.util.Arrays;

/** Units per flow and the cluster utility Ω they reach. */
public record Solution(int[] units, double objective, String method) {
    @Override
    public String toString() {
        return method + " Ω=" + objective + " " + Arrays.toString(units);
    }
}
