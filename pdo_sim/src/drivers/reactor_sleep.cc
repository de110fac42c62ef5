// zend-async-ref pdo_sim: suspending a driver call on the reactor
// (reactor_sleep.h).

#include "pdo_sim/src/drivers/reactor_sleep.h"

extern "C" {
#include "Zend/zend_async_API.h"
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
  if (ZEND_ASYNC_WAKER_NEW(self) == nullptr) return EG(exception) == nullptr;
  zend_async_timer_event_t* timer = ZEND_ASYNC_NEW_TIMER_EVENT(ms, false);
  if (timer == nullptr) {
    zend_async_waker_clean(self);
    return false;
  }
  zend_async_resume_when(self, &timer->base, true,
                         zend_async_waker_callback_resolve, nullptr);
  if (EG(exception) == nullptr) ZEND_ASYNC_SUSPEND();
  if (self->waker != nullptr) zend_async_waker_clean(self);
  return EG(exception) == nullptr;
}

}  // namespace pdo_sim::internal
