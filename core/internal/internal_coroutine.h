// zend-async-ref core: a coroutine that runs C code of core on data of its
// own (a future's chain run, a task group's finally handlers).
//
//   SpawnInternal<Data, Run, Free>(scope, data)
//
// spawns a coroutine in `scope` (NULL: the current one) whose body is
// Run(data) and which frees `data` with Free(data) when it goes, whether
// or not it ever ran (its extended_data, internal_entry and
// extended_dispose). Returns the coroutine, or nullptr with `data` freed
// already and the spawn's exception (if any) left in flight.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_INTERNAL_INTERNAL_COROUTINE_H_
#define ZAR_CORE_INTERNAL_INTERNAL_COROUTINE_H_

#include <cstdint>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::core::internal {

template <typename Data, void (*Run)(Data*), void (*Free)(Data*)>
zend_coroutine_t* SpawnInternal(zend_async_scope_t* scope, Data* data,
                                int32_t priority = 0) {
  zend_coroutine_t* coroutine = ZEND_ASYNC_SPAWN_WITH_SCOPE_EX(scope, priority);
  if (UNEXPECTED(coroutine == nullptr)) {
    Free(data);
    return nullptr;
  }
  coroutine->extended_data = data;
  coroutine->internal_entry = [] {
    auto* own = static_cast<Data*>(ZEND_ASYNC_CURRENT_COROUTINE->extended_data);
    if (own != nullptr) Run(own);
  };
  coroutine->extended_dispose = [](zend_coroutine_t* ended) {
    auto* own = static_cast<Data*>(ended->extended_data);
    ended->extended_data = nullptr;
    if (own != nullptr) Free(own);
  };
  return coroutine;
}

}  // namespace zar::core::internal

#endif  // ZAR_CORE_INTERNAL_INTERNAL_COROUTINE_H_
