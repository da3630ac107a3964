package io.slagate.gateway.locality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import io.slagate.gateway.locality.ServerChooser;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LardChooserTest {
    private static final String[] IDS = {"s1", "s2", "s3", "s4"};
    private static final int[] ALL = {0, 1, 2, 3};

    private static final class Pool implements ServerChooser.ServerLoad {
        final int[] outstanding = new int[4];

        @Override
        public boolean available(int s) {
            return outstanding[s] < 20;
        }

        @Override
        public boolean inRotation(int s) {
            return true;
        }

        @Override
        public int outstanding(int s) {
            return outstanding[s];
        }

        @Override
        public int cap(int s) {
            return 20;
        }
    }

    @Test
    void aTypeStaysOnItsHashedServer_untilThatServerIsOverloaded() {
        LocalityLearner types = new LocalityLearner("p", ALL, IDS, 0.25);
        LardChooser lard = new LardChooser(types, IDS);
        Pool pool = new Pool();
        int t = types.learn("/s productDetail");
        int first = lard.choose(t, ALL, pool);
        assertEquals(first, new LardChooser(types, IDS).choose(t, ALL, pool), "the hash: the same server for the same type");

        pool.outstanding[first] = 13; // 65% of its slots: not above T_high
        assertEquals(first, lard.choose(t, ALL, pool));
        pool.outstanding[first] = 14; // above T_high, and the others are idle (under T_low): the type moves
        int second = lard.choose(t, ALL, pool);
        assertNotEquals(first, second);
        pool.outstanding[first] = 0;
        assertEquals(second, lard.choose(t, ALL, pool), "it stays where it moved");

        // above T_high but nobody under T_low: it stays
        Arrays.fill(pool.outstanding, 6);
        pool.outstanding[second] = 15;
        assertEquals(second, lard.choose(t, ALL, pool));
        // full: it moves whatever the others carry
        pool.outstanding[second] = 20;
        assertNotEquals(second, lard.choose(t, ALL, pool));
    }
}
