package io.slagate.gateway.sched;


/** Static priority: the first backlogged class in configuration order (the paper's baseline). */
final class PrioritySelector implements ClassSelector {
    @Override
    public int select(int[] queues, boolean[] backlogged, int[] executing, Allocation allocation, int capacity) {
        return FIRST_BACKLOGGED.select(queues, backlogged, executing, allocation, capacity);
    }
}
