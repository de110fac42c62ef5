# Close wakes the waiters only when there are two or more: a single waiter
# stays parked on a closed pool instead of failing with "Pool is closed".
set(FAULT_EDITS 1)
set(FAULT_FIND_1 [=[if (!pool->waiters.empty() && EG(active)) {]=])
set(FAULT_REPLACE_1 [=[if (pool->waiters.size() > 1 && EG(active)) {]=])
