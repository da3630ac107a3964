package io.slagate.gateway.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import io.slagate.config.ConfigLoader;
import io.slagate.config.SlagateConfig;
import org.junit.jupiter.api.Test;

class TwinSplitTest {
    private static final SlagateConfig CONFIG = ConfigLoader.parse("""
            servers:
              - { id: s1, url: "http://127.0.0.1:1", pool: a }
              - { id: s2, url: "http://127.0.0.1:2", pool: t }
            classes:
              - { name: p, target: 1s, pool: a }
              - { name: b, target: 2s, pool: a }
              - { name: p-trial, target: 1s, pool: t }
            controller:
              tuning:
                safe: a
                experimental: t
                share: 0.3
                twins: { p: p-trial }
                knobs: [ { name: concurrency, min: 1, max: 20 } ]
            """, "t.yaml");

    @Test
    void exactlyTheShare_goesToTheTwin_andClassesWithoutOneStay() {
        TwinSplit split = TwinSplit.of(CONFIG);
        int twin = 0;
        for (int i = 0; i < 1000; i++) {
            twin += split.route(0) == 2 ? 1 : 0;
            assertEquals(1, split.route(1), "b has no twin");
        }
        assertEquals(300, twin);
        assertEquals(0, TwinSplit.NONE.route(0));
        assertEquals(2, split.route(2), "a twin is not split again");
    }

    @Test
    void eachPartition_splitsItsOwnClasses_atItsOwnShare() {
        TwinSplit split = TwinSplit.of(ConfigLoader.parse("""
                servers:
                  - { id: a1, url: "http://127.0.0.1:1", pool: a }
                  - { id: a2, url: "http://127.0.0.1:2", pool: a-trial }
                  - { id: b1, url: "http://127.0.0.1:3", pool: b }
                  - { id: b2, url: "http://127.0.0.1:4", pool: b-trial }
                classes:
                  - { name: p, target: 1s, pool: a }
                  - { name: p-trial, target: 1s, pool: a-trial }
                  - { name: q, target: 1s, pool: b }
                  - { name: q-trial, target: 1s, pool: b-trial }
                controller:
                  tuning:
                    partitions:
                      quotes: { safe: a, experimental: a-trial, share: 0.25, twins: { p: p-trial }, knobs: [ { name: concurrency, min: 1, max: 9 } ] }
                      trades: { safe: b, experimental: b-trial, share: 0.5, twins: { q: q-trial }, knobs: [ { name: concurrency, min: 1, max: 9 } ] }
                """, "t.yaml"));
        int p = 0;
        int q = 0;
        for (int i = 0; i < 1000; i++) {
            p += split.route(0) == 1 ? 1 : 0;
            q += split.route(2) == 3 ? 1 : 0;
        }
        assertEquals(250, p, "quotes' share");
        assertEquals(500, q, "trades' share");
    }
}
