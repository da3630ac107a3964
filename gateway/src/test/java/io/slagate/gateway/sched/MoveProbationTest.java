package io.slagate.gateway.sched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A moved server's first answers in its new pool: exactly one verdict, whoever answers. */
class MoveProbationTest {
    @Test
    void threeRefusalsInARow_refuse_anyOtherAnswerAccepts() {
        MoveProbation p = new MoveProbation(0, 1);
        assertEquals(MoveProbation.Verdict.UNDECIDED, p.answer(404));
        assertEquals(MoveProbation.Verdict.UNDECIDED, p.answer(501));
        assertEquals(MoveProbation.Verdict.REFUSED, p.answer(410));
        assertEquals(MoveProbation.Verdict.UNDECIDED, p.answer(404), "decided once");

        MoveProbation q = new MoveProbation(0, 1);
        q.answer(404);
        assertEquals(MoveProbation.Verdict.ACCEPTED, q.answer(500), "a SOAP fault comes from a service that exists");
        assertEquals(MoveProbation.Verdict.UNDECIDED, q.answer(404));
        assertEquals(MoveProbation.Verdict.ACCEPTED, new MoveProbation(0, 1).answer(200));
        assertEquals(MoveProbation.Verdict.ACCEPTED, new MoveProbation(0, 1).answer(503), "overloaded is not absent");
    }

    @Test
    void concurrentAnswers_exactlyOneVerdict() throws Exception {
        for (int round = 0; round < 200; round++) {
            MoveProbation p = new MoveProbation(0, 1);
            AtomicInteger verdicts = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            Thread[] t = new Thread[4];
            for (int i = 0; i < t.length; i++) {
                int status = i == 3 && round % 2 == 0 ? 200 : 404;
                t[i] = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int k = 0; k < 3; k++) {
                        if (p.answer(status) != MoveProbation.Verdict.UNDECIDED) {
                            verdicts.incrementAndGet();
                        }
                    }
                });
                t[i].start();
            }
            go.countDown();
            for (Thread x : t) {
                x.join();
            }
            assertEquals(1, verdicts.get(), "round " + round);
        }
    }
}
