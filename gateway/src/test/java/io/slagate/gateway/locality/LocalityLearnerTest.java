package io.slagate.gateway.locality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import io.slagate.gateway.locality.ServerChooser;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The learner fed as the gateway feeds it, and locality dispatch on what it learned; a scripted pool of servers. */
class LocalityLearnerTest {
    private static final String[] IDS = {"s1", "s2", "s3"};

    /** Servers 0..2 of one pool, with scripted outstanding counts, caps and rotation. */
    private static final class Pool implements ServerChooser.ServerLoad {
        final int[] outstanding = new int[3];
        final int[] cap = {8, 8, 8};
        final boolean[] in = {true, true, true};

        @Override
        public boolean available(int s) {
            return in[s] && outstanding[s] < cap[s];
        }

        @Override
        public boolean inRotation(int s) {
            return in[s];
        }

        @Override
        public int outstanding(int s) {
            return outstanding[s];
        }

        @Override
        public int cap(int s) {
            return cap[s];
        }
    }

    private static final int[] ALL = {0, 1, 2};

    /** Two families over disjoint blocks: A (types a1, a2: blocks 1-4) and B (b1, b2: blocks 100-103); a third server. */
    private static LocalityLearner learned(Pool pool) {
        LocalityLearner l = new LocalityLearner("store", ALL, IDS, 0.25);
        for (int i = 0; i < 50; i++) {
            l.workingSet(l.learn("/s a1"), "1,2,3");
            l.workingSet(l.learn("/s a2"), "2,3,4");
            l.workingSet(l.learn("/s b1"), "100,101,102");
            l.workingSet(l.learn("/s b2"), "101, 102,103");
        }
        l.remap(s -> pool.in[s], s -> pool.cap[s]);
        return l;
    }

    private static int primary(LocalityLearner l, String type) {
        return l.map().ranking(l.learn(type))[0];
    }

    @Test
    void typesThatShareData_shareAServer_andTheFamiliesAreApart() {
        Pool pool = new Pool();
        pool.in[2] = false; // two servers for two families
        LocalityLearner l = learned(pool);
        assertEquals(primary(l, "/s a1"), primary(l, "/s a2"));
        assertEquals(primary(l, "/s b1"), primary(l, "/s b2"));
        assertNotEquals(primary(l, "/s a1"), primary(l, "/s b1"));
        assertEquals(2, l.map().groups().size());
        assertEquals(0.5, l.map().groups().get(0).loadShare(), 1e-9);
        // each family named by its lowest type index: LARD's target for all its types
        LocalityMap m = l.map();
        assertEquals(m.group(l.learn("/s a1")), m.group(l.learn("/s a2")));
        assertEquals(l.learn("/s a1"), m.group(l.learn("/s a2")));
        assertEquals(m.group(l.learn("/s b1")), m.group(l.learn("/s b2")));
        assertNotEquals(m.group(l.learn("/s a1")), m.group(l.learn("/s b1")));
    }

    @Test
    void moreServersThanFamilies_theMostSimilarTypesStayTogether() {
        Pool pool = new Pool();
        LocalityLearner l = learned(pool); // three servers, four types: one family is split, the other kept whole
        assertEquals(3, l.map().groups().size());
        boolean aTogether = primary(l, "/s a1") == primary(l, "/s a2");
        boolean bTogether = primary(l, "/s b1") == primary(l, "/s b2");
        assertEquals(true, aTogether ^ bTogether, l.map().groups().toString());
    }

    @Test
    void dispatch_followsTheMapping_spillsUnderBoundedLoads_andSkipsAServerThatLeft() {
        Pool pool = new Pool();
        LocalityLearner l = learned(pool);
        LocalityChooser chooser = new LocalityChooser(l);
        int a1 = l.learn("/s a1");
        int home = l.map().ranking(a1)[0];
        int spill = l.map().ranking(a1)[1];
        assertEquals(home, chooser.choose(a1, ALL, pool), "an idle pool: the group's server");

        // 3 outstanding on its server, none elsewhere: with this request 4 in the pool, ceil(1.25 × 4 / 24 × 8) = 2 < 4
        pool.outstanding[home] = 3;
        assertEquals(-1, chooser.choose(a1, ALL, pool), "over the bound: left to least-outstanding, which finds the room");

        // balanced load: 3 on each; ceil(1.25 × 10 / 24 × 8) = 5 ≥ 4: home again
        Arrays.fill(pool.outstanding, 3);
        assertEquals(home, chooser.choose(a1, ALL, pool));

        // its server leaves the rotation: the type's next server meanwhile, and a remap gives the group a live server
        pool.in[home] = false;
        Arrays.fill(pool.outstanding, 0);
        assertEquals(spill, chooser.choose(a1, ALL, pool), "its next server, always the same one");
        l.remap(s -> pool.in[s], s -> pool.cap[s]);
        assertNotEquals(home, l.map().ranking(a1)[0]);

        // every server full: left to least-outstanding (which will find none free either)
        Arrays.fill(pool.in, true);
        Arrays.fill(pool.outstanding, 8);
        assertEquals(-1, chooser.choose(a1, ALL, pool));
    }

    @Test
    void aTypeNotMappedYet_isLeftToLeastOutstanding() {
        Pool pool = new Pool();
        LocalityLearner l = learned(pool);
        assertEquals(-1, new LocalityChooser(l).choose(l.learn("/s new"), ALL, pool));
    }

    @Test
    void aMixChange_isLearnedWithinAFewIntervals() {
        Pool pool = new Pool();
        LocalityLearner l = learned(pool);
        int a1 = l.learn("/s a1");
        // a1 now reads family B's blocks; after a few intervals (observations halve each time) it joins B
        for (int interval = 0; interval < 4; interval++) {
            for (int i = 0; i < 50; i++) {
                l.workingSet(l.learn("/s a1"), "100,101,102");
                l.workingSet(l.learn("/s a2"), "2,3,4");
                l.workingSet(l.learn("/s b1"), "100,101,102");
                l.workingSet(l.learn("/s b2"), "101,102,103");
            }
            l.remap(s -> pool.in[s], s -> pool.cap[s]);
        }
        assertEquals(primary(l, "/s b1"), l.map().ranking(a1)[0], l.map().groups().toString());
    }

    @Test
    void whatAServerDeclares_isNotTrusted() {
        LocalityLearner l = new LocalityLearner("store", ALL, IDS, 0.25);
        int t = l.learn("/s x");
        l.workingSet(t, "1,2,<script>,3"); // stops at the first character that is not a digit, comma or space
        l.workingSet(t, "99999999999999999999"); // over an int: ignored
        l.workingSet(t, "7".repeat(5000)); // long values are read up to 1024 characters, then the number is too large
        l.workingSet(t, null);
        l.workingSet(-1, "1");
        String many = "1,".repeat(10_000);
        l.workingSet(t, many); // at most 64 blocks are taken from one declaration
        Pool pool = new Pool();
        l.remap(s -> pool.in[s], s -> pool.cap[s]); // nothing above broke the learner
        assertEquals(1, l.map().groups().size());
    }

    @Test
    void anArrivalOfAnUnknownType_registersNothing() {
        LocalityLearner l = new LocalityLearner("store", ALL, IDS, 0.25);
        for (int i = 0; i < 1000; i++) {
            assertEquals(-1, l.arrived("/s made-up-" + i), "a type is learned only from a server's answer");
        }
        assertEquals(0, l.learn("/s real"));
        assertEquals(0, l.arrived("/s real"));
    }

    @Test
    void typesAreBounded() {
        LocalityLearner l = new LocalityLearner("store", ALL, IDS, 0.25);
        for (int i = 0; i < RequestTypes.MAX; i++) {
            assertEquals(i, l.learn("/s op" + i));
        }
        assertEquals(-1, l.learn("/s one-too-many"));
        assertEquals(5, l.learn("/s op5"), "known types keep their index");
        assertNull(new RequestTypes().name(0));
    }
}
