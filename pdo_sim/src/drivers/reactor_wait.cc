// zend-async-ref pdo_sim: suspending a driver call on the reactor
// (reactor_sleep.h).

#include "pdo_sim/src/drivers/reactor_sleep.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "zend_async_ref/park.h"
}

namespace pdo_sim::internal {

bool SleepOnReactor(uint32_t ms) {
  if (ms == 0 || EG(exception) != nullptr || ZEND_ASYNC_IS_SCHEDULER_CONTEXT) {
    return EG(exception) == nullptr;
  }
  zend_coroutine_t* self = ZEND_ASYNC_CURRENT_COROUTINE;
  if (self == nullptr) {
    if (!ZEND_ASYNC_IS_READY || !ZEND_ASYNC_IS_ENABLED()) return true;
    ZEND_ASYNC_SCHEDULER_LAUNCH();
    if (EG(exception) != nullptr) return false;
    self = ZEND_ASYNC_CURRENT_COROUTINE;
    if (self == nullptr) return true;
  }
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(ms, false);
  if (timer == nullptr) return false;
  // The park owns the timer (trans_event): the waker lets it go.
  zend_async_ref_park_t park = {};
  park.events[0].event = &timer->base;
  park.events[0].trans_event = true;
  return zend_async_ref_park(self, &park);
}

}  // namespace pdo_sim::internal
