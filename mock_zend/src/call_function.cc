// zend-async-ref: mock Zend engine. Calling functions and methods
// (zend_API.h, zend_interfaces.h).
//
// Every call ends in zend_mock_execute_internal(). A call made while an
// exception is in flight does not run (PHP never enters a function with an
// exception pending): it returns SUCCESS with an UNDEF result. A callee
// that throws leaves its exception in EG(exception) and an UNDEF result;
// the call still returns SUCCESS.

#include "engine_internal.h"

extern "C" {

zend_result zend_call_function(zend_fcall_info* fci,
                               zend_fcall_info_cache* fci_cache) {
  if (fci->retval != nullptr) ZVAL_UNDEF(fci->retval);
  if (EG(exception) != nullptr) return SUCCESS;

  zend_fcall_info_cache resolved;
  zend_fcall_info_cache* fcc = fci_cache;
  if (fcc == nullptr || fcc->function_handler == nullptr) {
    if (!mock_zend::internal::ResolveCallableForCall(&fci->function_name,
                                                     fci->object, &resolved)) {
      return FAILURE;
    }
    if (fcc != nullptr) *fcc = resolved;
    fcc = &resolved;
  }

  zend_function* func = fcc->function_handler;
  zend_object* object =
      (func->common.fn_flags & ZEND_ACC_STATIC) ? nullptr : fcc->object;
  zval result;
  zend_mock_execute_internal(func, object, fci->param_count, fci->params,
                             &result);
  if (EG(exception) != nullptr) {
    zval_ptr_dtor(&result);
    ZVAL_UNDEF(&result);
  }
  if (fci->retval != nullptr) {
    ZVAL_COPY_VALUE(fci->retval, &result);
  } else {
    zval_ptr_dtor(&result);
  }
  return SUCCESS;
}

void zend_call_known_function(zend_function* fn, zend_object* object,
                              zend_class_entry* called_scope, zval* retval_ptr,
                              uint32_t param_count, zval* params,
                              HashTable* named_params) {
  zval discarded;
  zend_fcall_info fci = empty_fcall_info;
  fci.size = sizeof(fci);
  ZVAL_UNDEF(&fci.function_name);
  fci.retval = retval_ptr != nullptr ? retval_ptr : &discarded;
  fci.params = params;
  fci.param_count = param_count;
  fci.object = object;
  fci.named_params = named_params;
  zend_fcall_info_cache fcc = empty_fcall_info_cache;
  fcc.function_handler = fn;
  fcc.object = object;
  fcc.called_scope = called_scope;
  fcc.calling_scope = fn->common.scope;
  zend_call_function(&fci, &fcc);
  if (retval_ptr == nullptr) zval_ptr_dtor(&discarded);
}

void zend_call_known_instance_method(zend_function* fn, zend_object* object,
                                     zval* retval_ptr, uint32_t param_count,
                                     zval* params) {
  zend_call_known_function(fn, object, object->ce, retval_ptr, param_count,
                           params, nullptr);
}

zend_result zend_call_method_if_exists(zend_object* object,
                                       zend_string* method_name, zval* retval,
                                       uint32_t param_count, zval* params) {
  zend_object* target = object;
  zend_function* fn =
      object->handlers->get_method(&target, method_name, nullptr);
  if (fn == nullptr) {
    ZVAL_UNDEF(retval);
    return FAILURE;
  }
  zend_call_known_instance_method(fn, target, retval, param_count, params);
  return SUCCESS;
}

zend_result _call_user_function_impl(zval* object, zval* function_name,
                                     zval* retval_ptr, uint32_t param_count,
                                     zval params[], HashTable* named_params) {
  zend_fcall_info fci = empty_fcall_info;
  fci.size = sizeof(fci);
  fci.object = object != nullptr && Z_TYPE_P(object) == IS_OBJECT
                   ? Z_OBJ_P(object)
                   : nullptr;
  ZVAL_COPY_VALUE(&fci.function_name, function_name);
  fci.retval = retval_ptr;
  fci.param_count = param_count;
  fci.params = params;
  fci.named_params = named_params;
  return zend_call_function(&fci, nullptr);
}

zval* zend_call_method(zend_object* object, zend_class_entry* obj_ce,
                       zend_function** fn_proxy, const char* function_name,
                       size_t function_name_len, zval* retval,
                       uint32_t param_count, zval* arg1, zval* arg2) {
  zend_function* fn = fn_proxy != nullptr ? *fn_proxy : nullptr;
  zend_class_entry* ce =
      obj_ce != nullptr ? obj_ce : (object != nullptr ? object->ce : nullptr);
  if (fn == nullptr) {
    const HashTable* table =
        ce != nullptr ? &ce->function_table : EG(function_table);
    fn = mock_zend::internal::FindFunction(table, function_name,
                                           function_name_len);
    if (fn == nullptr) {
      if (ce != nullptr) {
        zend_throw_error(nullptr, "Call to undefined method %s::%.*s()",
                         ZSTR_VAL(ce->name),
                         static_cast<int>(function_name_len), function_name);
      } else {
        zend_throw_error(nullptr, "Call to undefined function %.*s()",
                         static_cast<int>(function_name_len), function_name);
      }
      return nullptr;
    }
    if (fn_proxy != nullptr) *fn_proxy = fn;
  }
  zval params[2];
  if (param_count > 0) ZVAL_COPY_VALUE(&params[0], arg1);
  if (param_count > 1) ZVAL_COPY_VALUE(&params[1], arg2);
  zval discarded;
  zend_call_known_function(fn, object, ce,
                           retval != nullptr ? retval : &discarded, param_count,
                           params, nullptr);
  if (retval == nullptr) {
    zval_ptr_dtor(&discarded);
    return nullptr;
  }
  return retval;
}

}  // extern "C"
