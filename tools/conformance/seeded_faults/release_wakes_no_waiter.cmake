# A release keeps the resource idle and forgets the waiters: nobody is
# woken with a reservation. The model sees the oldest waiter, which it
# serves with that resource, still pending beside it.
set(FAULT_EDITS 1)
set(FAULT_FIND_1 [=[  if (pool->waiters.HasUnreserved()) WakeWaiter(pool);
}]=])
set(FAULT_REPLACE_1 [=[}]=])
