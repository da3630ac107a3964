package io.slagate.gateway.locality;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** LARD and LARD/R as Pai et al. publish them, on loads whose right choice follows from the rules (caps of 8: T_high 4, T_low 1.54). */
class LardChooserTest {
    private static final String[] IDS = {"s1", "s2", "s3", "s4"};
    private static final int[] ALL = {0, 1, 2, 3};

    private static final class Pool implements ServerChooser.ServerLoad {
        final int[] outstanding = new int[4];

        @Override
        public boolean available(int s) {
            return outstanding[s] < 8;
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
            return 8;
        }
    }

    @Test
    void aNewTargetGoesToTheLeastLoaded_andStaysUntilItsServerIsOverloaded() {
        LocalityLearner types = new LocalityLearner("p", ALL, IDS, 0.25);
        LardChooser lard = new LardChooser(types, false);
        Pool pool = new Pool();
        int t = types.learn("/s productDetail");
        pool.outstanding[0] = 3;
        pool.outstanding[1] = 1;
        pool.outstanding[2] = 2;
        pool.outstanding[3] = 2;
        assertEquals(1, lard.choose(t, ALL, pool), "a new target: the least-loaded server");

        pool.outstanding[1] = 4; // at T_high (4 of 8): not above it
        assertEquals(1, lard.choose(t, ALL, pool));
        pool.outstanding[1] = 5; // above T_high, and s3 and s4 at 2 are not below T_low (1.54): it stays
        assertEquals(1, lard.choose(t, ALL, pool));
        pool.outstanding[3] = 1; // now s4 is below T_low: the target moves to the least-loaded
        assertEquals(3, lard.choose(t, ALL, pool));
        pool.outstanding[1] = 0;
        assertEquals(3, lard.choose(t, ALL, pool), "it stays where it moved");

        Arrays.fill(pool.outstanding, 3);
        pool.outstanding[3] = 7; // above T_high, nobody below T_low: stays
        assertEquals(3, lard.choose(t, ALL, pool));
        pool.outstanding[3] = 8; // at 2·T_high (full): moves whatever the others carry
        assertEquals(0, lard.choose(t, ALL, pool), "the least-loaded, the first of equals");
        assertArrayEquals(new int[] {0}, lard.servers(t), "LARD keeps one server a target");
    }

    @Test
    void lardR_addsTheLeastLoadedUnderOverload_sendsToTheLeastLoadedOfTheSet_andShedsAfterK() {
        LocalityLearner types = new LocalityLearner("p", ALL, IDS, 0.25);
        long[] now = {0};
        LardChooser r = new LardChooser(types, true, () -> now[0]);
        Pool pool = new Pool();
        int t = types.learn("/s bestSellers");
        assertEquals(0, r.choose(t, ALL, pool));
        pool.outstanding[0] = 8; // full: s2 joins the set
        now[0] = 1_000_000_000L;
        assertEquals(1, r.choose(t, ALL, pool));
        assertArrayEquals(new int[] {0, 1}, r.servers(t));
        pool.outstanding[0] = 2;
        pool.outstanding[1] = 3;
        assertEquals(0, r.choose(t, ALL, pool), "the least loaded of its set");
        now[0] += (LardChooser.K_SECONDS - 1) * 1_000_000_000L;
        r.choose(t, ALL, pool);
        assertArrayEquals(new int[] {0, 1}, r.servers(t), "within K: the set stays");
        now[0] += 2_000_000_000L;
        assertEquals(0, r.choose(t, ALL, pool));
        assertArrayEquals(new int[] {0}, r.servers(t), "K without growing: the most loaded member (s2) leaves");
    }
}
