// What the scheduler tells about its coroutines: get_coroutines,
// get_awaiting_info, and whether only main is alive.

#include "core/scheduler/scheduler.h"

namespace zar::core {

zend_array* GetCoroutines() {
  internal::SchedulerState* s = internal::State();
  zend_array* array =
      zend_new_array(s != nullptr ? zend_hash_num_elements(&s->coroutines) : 0);
  if (s == nullptr) return array;
  zval* coroutine_zv;
  ZEND_HASH_FOREACH_VAL(&s->coroutines, coroutine_zv) {
    AsyncCoroutine* coroutine =
        static_cast<AsyncCoroutine*>(Z_PTR_P(coroutine_zv));
    zval value;
    ZVAL_OBJ_COPY(&value, &coroutine->std);
    zend_hash_next_index_insert(array, &value);
  }
  ZEND_HASH_FOREACH_END();
  return array;
}

zend_array* GetAwaitingInfo(zend_coroutine_t* coroutine) {
  zend_async_waker_t* waker = coroutine != nullptr ? coroutine->waker : nullptr;
  zend_array* array = zend_new_array(
      waker != nullptr ? zend_hash_num_elements(&waker->events) : 0);
  if (waker == nullptr) return array;
  zval* trigger_zv;
  ZEND_HASH_FOREACH_VAL(&waker->events, trigger_zv) {
    zend_async_waker_trigger_t* trigger =
        static_cast<zend_async_waker_trigger_t*>(Z_PTR_P(trigger_zv));
    zend_async_event_t* event = trigger->event;
    if (event == nullptr) continue;
    zval value;
    if (event->info != nullptr) {
      ZVAL_STR(&value, event->info(event));
    } else {
      ZVAL_STR(&value, zend_string_init("event", 5, 0));
    }
    zend_hash_next_index_insert(array, &value);
  }
  ZEND_HASH_FOREACH_END();
  return array;
}

bool OnlyMainCoroutineIsAlive() {
  internal::SchedulerState* s = internal::State();
  if (s == nullptr) return true;
  zval* coroutine_zv;
  ZEND_HASH_FOREACH_VAL(&s->coroutines, coroutine_zv) {
    auto* coroutine = static_cast<AsyncCoroutine*>(Z_PTR_P(coroutine_zv));
    if (!ZEND_COROUTINE_IS_MAIN(&coroutine->coroutine) &&
        &coroutine->coroutine != ZEND_ASYNC_SCHEDULER) {
      return false;
    }
  }
  ZEND_HASH_FOREACH_END();
  return true;
}

}  // namespace zar::core
