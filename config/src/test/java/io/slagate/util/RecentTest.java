package io.slagate.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecentTest {
    @Test
    void keepsTheLastCapacityItems_inBothOrders() {
        Recent<Integer> r = new Recent<>(3);
        assertEquals(List.of(), r.oldestFirst());
        for (int i = 1; i <= 5; i++) {
            r.add(i);
        }
        assertEquals(List.of(3, 4, 5), r.oldestFirst());
        assertEquals(List.of(5, 4), r.newestFirst(2));
        assertEquals(List.of(5, 4, 3), r.newestFirst(10));
    }

    @Test
    void aCapacityBelowOneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Recent<>(0));
    }
}
