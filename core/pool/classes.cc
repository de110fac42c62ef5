// Registering the pool's PHP classes (classes.h, registration.h).

#include "core/pool/classes.h"

#include "core/internal/arginfo.h"
#include "core/internal/php_object.h"
#include "core/pool/object.h"
#include "core/pool/registration.h"

namespace zar::core {
namespace {

using internal::arginfo_none;

zend_class_entry* pool_ce = nullptr;
zend_class_entry* state_ce = nullptr;
zend_class_entry* breaker_ce = nullptr;
zend_class_entry* strategy_ce = nullptr;

ZAR_ARG_INFO_1(arginfo_report_success, 1,
               ZEND_ARG_TYPE_INFO(0, source, IS_MIXED, 0))

ZEND_BEGIN_ARG_INFO_EX(arginfo_report_failure, 0, 0, 2)
ZEND_ARG_TYPE_INFO(0, source, IS_MIXED, 0)
ZEND_ARG_INFO(0, error)
ZEND_END_ARG_INFO()

// clang-format off
const zend_function_entry kCircuitBreakerMethods[] = {
    ZEND_ABSTRACT_ME(Async_CircuitBreaker, getState, arginfo_none)
    ZEND_ABSTRACT_ME(Async_CircuitBreaker, activate, arginfo_none)
    ZEND_ABSTRACT_ME(Async_CircuitBreaker, deactivate, arginfo_none)
    ZEND_ABSTRACT_ME(Async_CircuitBreaker, recover, arginfo_none)
    ZEND_FE_END};

const zend_function_entry kStrategyMethods[] = {
    ZEND_ABSTRACT_ME(Async_CircuitBreakerStrategy, reportSuccess,
                     arginfo_report_success)
    ZEND_ABSTRACT_ME(Async_CircuitBreakerStrategy, reportFailure,
                     arginfo_report_failure)
    ZEND_ABSTRACT_ME(Async_CircuitBreakerStrategy, shouldRecover, arginfo_none)
    ZEND_FE_END};
// clang-format on

}  // namespace

bool RegisterPoolClasses() {
  state_ce = zend_register_internal_enum("Async\\CircuitBreakerState", IS_UNDEF,
                                         nullptr);
  if (state_ce == nullptr) return false;
  zend_enum_add_case_cstr(state_ce, "ACTIVE", nullptr);
  zend_enum_add_case_cstr(state_ce, "INACTIVE", nullptr);
  zend_enum_add_case_cstr(state_ce, "RECOVERING", nullptr);

  breaker_ce = internal::RegisterInterface("Async\\CircuitBreaker",
                                           kCircuitBreakerMethods);
  strategy_ce = internal::RegisterInterface("Async\\CircuitBreakerStrategy",
                                            kStrategyMethods);
  if (breaker_ce == nullptr || strategy_ce == nullptr) return false;

  pool_ce = internal::RegisterObjectClass("Async\\Pool", PoolMethods(),
                                          internal::CreateEventWrapper,
                                          PoolObjectHandlers());
  if (pool_ce == nullptr) return false;
  zend_class_implements(pool_ce, 2, zend_ce_countable, breaker_ce);
  return true;
}

void ForgetPoolClasses() {
  pool_ce = nullptr;
  state_ce = nullptr;
  breaker_ce = nullptr;
  strategy_ce = nullptr;
}

zend_class_entry* PoolClass() { return pool_ce; }
zend_class_entry* CircuitBreakerStateClass() { return state_ce; }
zend_class_entry* CircuitBreakerClass() { return breaker_ce; }
zend_class_entry* CircuitBreakerStrategyClass() { return strategy_ce; }

}  // namespace zar::core
