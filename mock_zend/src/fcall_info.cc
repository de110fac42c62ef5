// zend-async-ref: mock Zend engine. Callables (zend_API.h): resolving a
// callable zval to the function to run, checking callability, and naming
// callables.
//
// A callable is a Closure object; an object with __invoke; a string naming
// a registered global function or "Class::method"; or an array
// [object|"Class", "method"]. With an `object` given, a plain string names
// a method of that object first. Resolution failures produce PHP's reasons
// ("function \"x\" not found or invalid function name", ...).

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "engine_internal.h"

namespace {

using mock_zend::internal::FindFunction;

zend_class_entry* LookupClass(const char* name, size_t len) {
  zend_string* key = zend_string_init(name, len, false);
  zend_class_entry* ce = zend_lookup_class(key);
  zend_string_release(key);
  return ce;
}

void SetMethod(zend_fcall_info_cache* fcc, zend_function* fn,
               zend_class_entry* scope, zend_object* object) {
  fcc->function_handler = fn;
  fcc->calling_scope = scope;
  fcc->called_scope = scope;
  fcc->object = (fn->common.fn_flags & ZEND_ACC_STATIC) ? nullptr : object;
}

absl::Status ResolveStaticMethod(zend_class_entry* ce, const char* method,
                                 size_t method_len, zend_object* object,
                                 zend_fcall_info_cache* fcc) {
  zend_function* fn = FindFunction(&ce->function_table, method, method_len);
  if (fn == nullptr) {
    return absl::NotFoundError(absl::StrFormat(
        "class %s does not have a method \"%.*s\"", ZSTR_VAL(ce->name),
        static_cast<int>(method_len), method));
  }
  if (object != nullptr && !instanceof_function(object->ce, ce)) {
    object = nullptr;
  }
  if (object == nullptr && !(fn->common.fn_flags & ZEND_ACC_STATIC)) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "non-static method %s::%s() cannot be called statically",
        ZSTR_VAL(ce->name), ZSTR_VAL(fn->common.function_name)));
  }
  SetMethod(fcc, fn, ce, object);
  return absl::OkStatus();
}

absl::Status ResolveString(zend_string* name, zend_object* object,
                           zend_fcall_info_cache* fcc) {
  const char* val = ZSTR_VAL(name);
  const size_t len = ZSTR_LEN(name);
  const char* separator = static_cast<const char*>(memmem(val, len, "::", 2));
  if (separator != nullptr) {
    const size_t class_len = static_cast<size_t>(separator - val);
    zend_class_entry* ce = LookupClass(val, class_len);
    if (ce == nullptr) {
      return absl::NotFoundError(absl::StrFormat(
          "class \"%.*s\" not found", static_cast<int>(class_len), val));
    }
    return ResolveStaticMethod(ce, separator + 2, len - class_len - 2, object,
                               fcc);
  }
  if (object != nullptr) {
    zend_object* target = object;
    if (zend_function* fn =
            object->handlers->get_method(&target, name, nullptr)) {
      SetMethod(fcc, fn, target->ce, target);
      return absl::OkStatus();
    }
  }
  if (EG(function_table) != nullptr) {
    if (zend_function* fn = FindFunction(EG(function_table), val, len)) {
      fcc->function_handler = fn;
      return absl::OkStatus();
    }
  }
  return absl::NotFoundError(absl::StrFormat(
      "function \"%s\" not found or invalid function name", val));
}

absl::Status ResolveArray(HashTable* array, zend_fcall_info_cache* fcc) {
  zval* target = zend_hash_index_find(array, 0);
  zval* method = zend_hash_index_find(array, 1);
  if (zend_hash_num_elements(array) != 2 || target == nullptr ||
      method == nullptr) {
    return absl::InvalidArgumentError(
        "array callback must have exactly two members");
  }
  ZVAL_DEREF(target);
  ZVAL_DEREF(method);
  if (Z_TYPE_P(method) != IS_STRING) {
    return absl::InvalidArgumentError(
        "second array member is not a valid method");
  }
  if (Z_TYPE_P(target) == IS_OBJECT) {
    zend_object* object = Z_OBJ_P(target);
    zend_function* fn =
        object->handlers->get_method(&object, Z_STR_P(method), nullptr);
    if (fn == nullptr) {
      return absl::NotFoundError(
          absl::StrFormat("class %s does not have a method \"%s\"",
                          ZSTR_VAL(object->ce->name), Z_STRVAL_P(method)));
    }
    SetMethod(fcc, fn, object->ce, object);
    return absl::OkStatus();
  }
  if (Z_TYPE_P(target) == IS_STRING) {
    zend_class_entry* ce = zend_lookup_class(Z_STR_P(target));
    if (ce == nullptr) {
      return absl::NotFoundError(
          absl::StrFormat("class \"%s\" not found", Z_STRVAL_P(target)));
    }
    return ResolveStaticMethod(ce, Z_STRVAL_P(method), Z_STRLEN_P(method),
                               nullptr, fcc);
  }
  return absl::InvalidArgumentError(
      "first array member is not a valid class name or object");
}

absl::Status ResolveObject(zend_object* object, zend_fcall_info_cache* fcc) {
  if (zend_function* fn = mock_zend::internal::ClosureFunction(object)) {
    fcc->function_handler = fn;
    fcc->closure = object;
    return absl::OkStatus();
  }
  zend_string* invoke = zend_string_init_interned(ZEND_STRL("__invoke"), true);
  zend_object* target = object;
  if (zend_function* fn =
          object->handlers->get_method(&target, invoke, nullptr)) {
    SetMethod(fcc, fn, target->ce, target);
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError("no array or string given");
}

// Resolves `callable` into *fcc, or says why it is not callable (the
// reason PHP gives, as the status's message).
absl::Status ResolveCallable(zval* callable, zend_object* object,
                             zend_fcall_info_cache* fcc) {
  *fcc = empty_fcall_info_cache;
  ZVAL_DEREF(callable);
  switch (Z_TYPE_P(callable)) {
    case IS_STRING:
      return ResolveString(Z_STR_P(callable), object, fcc);
    case IS_ARRAY:
      return ResolveArray(Z_ARRVAL_P(callable), fcc);
    case IS_OBJECT:
      return ResolveObject(Z_OBJ_P(callable), fcc);
    default:
      return absl::InvalidArgumentError("no array or string given");
  }
}

// IS_CALLABLE_CHECK_SYNTAX_ONLY: the shape of a callable, without lookups.
absl::Status HasCallableSyntax(zval* callable) {
  ZVAL_DEREF(callable);
  if (Z_TYPE_P(callable) == IS_STRING) return absl::OkStatus();
  if (Z_TYPE_P(callable) == IS_ARRAY) {
    zval* target = zend_hash_index_find(Z_ARRVAL_P(callable), 0);
    zval* method = zend_hash_index_find(Z_ARRVAL_P(callable), 1);
    if (zend_hash_num_elements(Z_ARRVAL_P(callable)) == 2 && target && method &&
        Z_TYPE_P(method) == IS_STRING &&
        (Z_TYPE_P(target) == IS_STRING || Z_TYPE_P(target) == IS_OBJECT)) {
      return absl::OkStatus();
    }
    return absl::InvalidArgumentError(
        "array callback must have exactly two members");
  }
  zend_fcall_info_cache fcc;
  return ResolveCallable(callable, nullptr, &fcc);
}

}  // namespace

namespace mock_zend::internal {

bool ResolveCallableForCall(zval* callable, zend_object* object,
                            zend_fcall_info_cache* fcc) {
  return ResolveCallable(callable, object, fcc).ok();
}

}  // namespace mock_zend::internal

extern "C" {

const zend_fcall_info empty_fcall_info = {};
const zend_fcall_info_cache empty_fcall_info_cache = {};

bool zend_is_callable_ex(zval* callable, zend_object* object,
                         uint32_t check_flags, zend_string** callable_name,
                         zend_fcall_info_cache* fcc, char** error) {
  if (callable_name != nullptr) {
    *callable_name = zend_get_callable_name_ex(callable, object);
  }
  if (error != nullptr) *error = nullptr;
  zend_fcall_info_cache local;
  const absl::Status status =
      (check_flags & IS_CALLABLE_CHECK_SYNTAX_ONLY)
          ? HasCallableSyntax(callable)
          : ResolveCallable(callable, object, fcc != nullptr ? fcc : &local);
  if (!status.ok() && error != nullptr) {
    *error = estrndup(status.message().data(), status.message().size());
  }
  return status.ok();
}

bool zend_is_callable(zval* callable, uint32_t check_flags,
                      zend_string** callable_name) {
  return zend_is_callable_ex(callable, nullptr, check_flags, callable_name,
                             nullptr, nullptr);
}

zend_result zend_fcall_info_init(zval* callable, uint32_t check_flags,
                                 zend_fcall_info* fci,
                                 zend_fcall_info_cache* fcc,
                                 zend_string** callable_name, char** error) {
  zend_fcall_info_cache local = empty_fcall_info_cache;
  if (fcc == nullptr) fcc = &local;
  *fcc = empty_fcall_info_cache;
  if (!zend_is_callable_ex(callable, nullptr, check_flags, callable_name, fcc,
                           error)) {
    return FAILURE;
  }
  fci->size = sizeof(*fci);
  fci->object = fcc->object;
  ZVAL_COPY_VALUE(&fci->function_name, callable);
  fci->retval = nullptr;
  fci->params = nullptr;
  fci->param_count = 0;
  fci->named_params = nullptr;
  return SUCCESS;
}

void zend_release_fcall_info_cache(zend_fcall_info_cache* fcc) {
  (void)fcc;  // the mock has no trampolines to release
}

zend_string* zend_get_callable_name_ex(zval* callable, zend_object* object) {
  ZVAL_DEREF(callable);
  switch (Z_TYPE_P(callable)) {
    case IS_STRING:
      if (object != nullptr &&
          memmem(Z_STRVAL_P(callable), Z_STRLEN_P(callable), "::", 2) ==
              nullptr) {
        return zend_strpprintf(0, "%s::%s", ZSTR_VAL(object->ce->name),
                               Z_STRVAL_P(callable));
      }
      return zend_string_copy(Z_STR_P(callable));
    case IS_ARRAY: {
      zval* target = zend_hash_index_find(Z_ARRVAL_P(callable), 0);
      zval* method = zend_hash_index_find(Z_ARRVAL_P(callable), 1);
      if (target == nullptr || method == nullptr) break;
      ZVAL_DEREF(target);
      ZVAL_DEREF(method);
      if (Z_TYPE_P(method) != IS_STRING) break;
      if (Z_TYPE_P(target) == IS_OBJECT) {
        return zend_strpprintf(0, "%s::%s", ZSTR_VAL(Z_OBJCE_P(target)->name),
                               Z_STRVAL_P(method));
      }
      if (Z_TYPE_P(target) == IS_STRING) {
        return zend_strpprintf(0, "%s::%s", Z_STRVAL_P(target),
                               Z_STRVAL_P(method));
      }
      break;
    }
    case IS_OBJECT:
      if (mock_zend::internal::ClosureFunction(Z_OBJ_P(callable)) != nullptr) {
        return zend_string_copy(ZSTR_KNOWN(ZEND_STR_CLOSURE));
      }
      return zend_strpprintf(0, "%s::__invoke",
                             ZSTR_VAL(Z_OBJCE_P(callable)->name));
    default:
      return zval_get_string(callable);
  }
  return zend_string_init_interned(ZEND_STRL("Array"), true);
}

zend_string* zend_get_callable_name(zval* callable) {
  return zend_get_callable_name_ex(callable, nullptr);
}

}  // extern "C"
