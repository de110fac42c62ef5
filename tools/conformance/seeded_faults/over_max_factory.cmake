# An acquire may take a place when none is free (unreserved() == 0) and make
# a resource with max_size already counted: the pool lends one more than
# max_size. The model sees an acquire served that must wait, and
# active + reserved over max.
set(FAULT_EDITS 2)
set(FAULT_FIND_1 [=[has_reservation || pool->unreserved() > 0;]=])
set(FAULT_REPLACE_1 [=[has_reservation || pool->unreserved() >= 0;]=])
set(FAULT_FIND_2 [=[if (pool->total() < pool->base.max_size) {]=])
set(FAULT_REPLACE_2 [=[if (pool->total() <= pool->base.max_size) {]=])
