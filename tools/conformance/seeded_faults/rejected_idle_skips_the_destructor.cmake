# An idle resource that beforeAcquire rejects is dropped without its
# destructor: it leaves the pool but is never destroyed. The model sees
# the destroyed resources and those alive differ.
set(FAULT_EDITS 1)
set(FAULT_FIND_1 [=[  pool->active_count--;
  DestroyResource(pool, resource);
  if (EG(exception) != nullptr) {
    // The destructor failed; the place it freed goes to a waiter.]=])
set(FAULT_REPLACE_1 [=[  pool->active_count--;
  zval_ptr_dtor(resource);
  if (EG(exception) != nullptr) {
    // The destructor failed; the place it freed goes to a waiter.]=])
