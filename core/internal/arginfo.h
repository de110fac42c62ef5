// zend-async-ref core: the argument information more than one of core's
// classes declares (their methods' ZEND_ME entries name them):
//
//   arginfo_none          no parameter
//   arginfo_cancellation  ?Async\AsyncCancellation $cancellation = null
//                         (Future::cancel(), TaskGroup::cancel())
//
// and ZAR_ARG_INFO_1, the arginfo of a method with one parameter on one
// line:
//
//   ZAR_ARG_INFO_1(arginfo_map, 1, ZEND_ARG_TYPE_INFO(0, map, IS_CALLABLE, 0))
//
// Each includer gets its own copy (ZEND_BEGIN_ARG_INFO_EX's arrays are
// static), as PHP's generated arginfo headers do.

#ifndef ZAR_CORE_INTERNAL_ARGINFO_H_
#define ZAR_CORE_INTERNAL_ARGINFO_H_

extern "C" {
#include "php.h"
}

// The arginfo `name` of a method whose one parameter is `arg` (a ZEND_ARG_*
// entry); `required`: 1 when it must be passed, 0 when it is optional.
#define ZAR_ARG_INFO_1(name, required, arg) \
  ZEND_BEGIN_ARG_INFO_EX(name, 0, 0, required) arg ZEND_END_ARG_INFO()

namespace zar::core::internal {

ZEND_BEGIN_ARG_INFO_EX(arginfo_none, 0, 0, 0)
ZEND_END_ARG_INFO()

ZAR_ARG_INFO_1(arginfo_cancellation, 0,
               ZEND_ARG_OBJ_INFO(0, cancellation, Async\\AsyncCancellation, 1))

}  // namespace zar::core::internal

#endif  // ZAR_CORE_INTERNAL_ARGINFO_H_
