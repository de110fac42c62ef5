// zend-async-ref: mock Zend engine. zend_fetch_debug_backtrace
// (zend_builtin_functions.h) over the chain of internal call frames.

#include "engine_internal.h"

extern "C" {
#include "zend_builtin_functions.h"
}

namespace {

// Fills `frame_array` (an initialized array) with PHP's description of the
// call `call`.
void DescribeFrame(zend_execute_data* call, int options, zval* frame_array) {
  zend_function* func = call->func;
  zval tmp;
  ZVAL_STR_COPY(&tmp, func->common.function_name);
  zend_hash_update(Z_ARRVAL_P(frame_array), ZSTR_KNOWN(ZEND_STR_FUNCTION),
                   &tmp);
  const bool has_this = Z_TYPE(call->This) == IS_OBJECT;
  if (func->common.scope != nullptr) {
    ZVAL_STR_COPY(&tmp, func->common.scope->name);
    zend_hash_update(Z_ARRVAL_P(frame_array), ZSTR_KNOWN(ZEND_STR_CLASS), &tmp);
    if (has_this && (options & DEBUG_BACKTRACE_PROVIDE_OBJECT)) {
      ZVAL_OBJ_COPY(&tmp, Z_OBJ(call->This));
      zend_hash_update(Z_ARRVAL_P(frame_array), ZSTR_KNOWN(ZEND_STR_OBJECT),
                       &tmp);
    }
    ZVAL_STR(&tmp, ZSTR_KNOWN(has_this ? ZEND_STR_OBJECT_OPERATOR
                                       : ZEND_STR_PAAMAYIM_NEKUDOTAYIM));
    zend_hash_update(Z_ARRVAL_P(frame_array), ZSTR_KNOWN(ZEND_STR_TYPE), &tmp);
  }
  if (!(options & DEBUG_BACKTRACE_IGNORE_ARGS)) {
    zval args;
    array_init(&args);
    for (uint32_t i = 1; i <= ZEND_CALL_NUM_ARGS(call); i++) {
      zval* arg = ZEND_CALL_ARG(call, i);
      Z_TRY_ADDREF_P(arg);
      zend_hash_next_index_insert(Z_ARRVAL(args), arg);
    }
    zend_hash_update(Z_ARRVAL_P(frame_array), ZSTR_KNOWN(ZEND_STR_ARGS), &args);
  }
}

}  // namespace

extern "C" {

void zend_fetch_debug_backtrace(zval* return_value, int skip_last, int options,
                                int limit) {
  array_init(return_value);
  zend_execute_data* call = EG(current_execute_data);
  for (int skipped = 0; call != nullptr && skipped < skip_last; skipped++) {
    call = call->prev_execute_data;
  }
  int frames = 0;
  for (; call != nullptr && (limit <= 0 || frames < limit);
       call = call->prev_execute_data) {
    if (call->func == nullptr) continue;
    zval frame;
    array_init(&frame);
    DescribeFrame(call, options, &frame);
    zend_hash_next_index_insert(Z_ARRVAL_P(return_value), &frame);
    frames++;
  }
}

}  // extern "C"
