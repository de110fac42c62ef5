// zend-async-ref core: the machine stacks coroutines run on.
//
// The stacks are the engine's (mock_zend/src/fiber_stack.h): one
// guard-paged allocator and one per-thread StackCache serve the engine's
// zend fiber contexts and core's fibers alike. This header names them in
// core's namespace.

#ifndef ZAR_CORE_FIBER_FIBER_STACK_H_
#define ZAR_CORE_FIBER_FIBER_STACK_H_

#include "mock_zend/src/fiber_stack.h"

namespace zar::core {

using mock_zend::internal::CountMappings;
using mock_zend::internal::CurrentStackGuard;
using mock_zend::internal::DefaultStackSize;
using mock_zend::internal::FiberStack;
using mock_zend::internal::kDefaultStackSize;
using mock_zend::internal::kMinStackSize;
using mock_zend::internal::MaxMapCount;
using mock_zend::internal::ParseStackSize;
using mock_zend::internal::SetDefaultStackSize;
using mock_zend::internal::SetStackGuard;
using mock_zend::internal::StackFailure;
using mock_zend::internal::StackFailureMessage;
using mock_zend::internal::StackGuard;

}  // namespace zar::core

#endif  // ZAR_CORE_FIBER_FIBER_STACK_H_
