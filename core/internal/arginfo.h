// zend-async-ref core: the argument information more than one of core's
// classes declares (their methods' ZEND_ME entries name them):
//
//   arginfo_none          no parameter
//   arginfo_cancellation  ?Async\AsyncCancellation $cancellation = null
//                         (Future::cancel(), TaskGroup::cancel())
//
// Each includer gets its own copy (ZEND_BEGIN_ARG_INFO_EX's arrays are
// static), as PHP's generated arginfo headers do.

#ifndef ZAR_CORE_INTERNAL_ARGINFO_H_
#define ZAR_CORE_INTERNAL_ARGINFO_H_

extern "C" {
#include "php.h"
}

namespace zar::core::internal {

ZEND_BEGIN_ARG_INFO_EX(arginfo_none, 0, 0, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_cancellation, 0, 0, 0)
ZEND_ARG_OBJ_INFO(0, cancellation, Async\\AsyncCancellation, 1)
ZEND_END_ARG_INFO()

}  // namespace zar::core::internal

#endif  // ZAR_CORE_INTERNAL_ARGINFO_H_
