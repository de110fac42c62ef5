// zend-async-ref core: the cache of released coroutine stacks, the
// engine's (mock_zend/src/stack_cache.h), named in core's namespace.

#ifndef ZAR_CORE_FIBER_STACK_CACHE_H_
#define ZAR_CORE_FIBER_STACK_CACHE_H_

#include "mock_zend/src/stack_cache.h"

namespace zar::core {

using mock_zend::internal::StackCache;

}  // namespace zar::core

#endif  // ZAR_CORE_FIBER_STACK_CACHE_H_
