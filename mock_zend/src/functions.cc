// zend-async-ref: mock Zend engine. Internal functions: building them from
// zend_function_entry lists, registering them in function tables, looking
// them up case-insensitively, and freeing them.
//
// Ownership: a function belongs to the table it was registered in with its
// own scope: EG(function_table) owns the global functions, a class's
// function_table owns the methods whose scope is that class (inherited
// methods are borrowed pointers to the parent's). Functions are persistent
// (malloc) and freed at module shutdown, after the reserved-data
// destructor convention of zend.h has run.

#include <string>

#include "engine_internal.h"

namespace mock_zend::internal {

zend_function* NewInternalFunction(zend_class_entry* scope, const char* name,
                                   size_t name_len, zif_handler handler,
                                   uint32_t flags) {
  auto* fn =
      static_cast<zend_function*>(__zend_calloc(1, sizeof(zend_function)));
  zend_internal_function& f = fn->internal_function;
  f.type = ZEND_INTERNAL_FUNCTION;
  if ((flags & (ZEND_ACC_PUBLIC | ZEND_ACC_PROTECTED | ZEND_ACC_PRIVATE)) ==
      0) {
    flags |= ZEND_ACC_PUBLIC;
  }
  f.fn_flags = flags;
  f.function_name = zend_string_init_interned(name, name_len, true);
  f.scope = scope;
  f.handler = handler;
  return fn;
}

zend_function* FunctionFromEntry(const zend_function_entry* entry,
                                 zend_class_entry* scope) {
  zend_function* fn = NewInternalFunction(
      scope, entry->fname, strlen(entry->fname), entry->handler, entry->flags);
  zend_internal_function& f = fn->internal_function;
  f.num_args = entry->num_args;
  if (entry->arg_info != nullptr) {
    const auto required = static_cast<uint32_t>(
        reinterpret_cast<uintptr_t>(entry->arg_info[0].name));
    f.required_num_args = required == UINT32_MAX ? entry->num_args : required;
    f.arg_info = entry->arg_info + 1;
  }
  if (entry->handler == nullptr) f.fn_flags |= ZEND_ACC_ABSTRACT;
  return fn;
}

void FreeFunction(zend_function* fn) {
  void** reserved = fn->internal_function.reserved;
  if (reserved[1] != nullptr) {
    reinterpret_cast<void (*)(void*)>(reserved[1])(reserved[0]);
  }
  if (fn->common.attributes != nullptr) {
    zend_array_destroy(fn->common.attributes);
  }
  pefree(fn, 1);
}

zend_function* FindFunction(const HashTable* table, const char* name,
                            size_t len) {
  // Most names fit the stack buffer: no allocation on the common path.
  char stack_buffer[64];
  std::string heap_buffer;
  char* lower = stack_buffer;
  if (len > sizeof(stack_buffer)) {
    heap_buffer.resize(len);
    lower = heap_buffer.data();
  }
  memcpy(lower, name, len);
  zend_str_tolower(lower, len);
  return static_cast<zend_function*>(zend_hash_str_find_ptr(table, lower, len));
}

void AddMethod(zend_class_entry* ce, zend_function* fn) {
  zend_string* function_name = fn->common.function_name;
  zend_string* key =
      InternLowercase(ZSTR_VAL(function_name), ZSTR_LEN(function_name));
  zend_hash_update_ptr(&ce->function_table, key, fn);
  if (zend_string_equals_literal(key, "__construct")) ce->constructor = fn;
  if (zend_string_equals_literal(key, "__destruct")) ce->destructor = fn;
}

}  // namespace mock_zend::internal

extern "C" {

zend_result zend_register_functions(zend_class_entry* scope,
                                    const zend_function_entry* functions,
                                    HashTable* function_table, int type) {
  (void)type;
  HashTable* table =
      function_table != nullptr ? function_table : EG(function_table);
  zend_result result = SUCCESS;
  for (const zend_function_entry* entry = functions;
       entry != nullptr && entry->fname != nullptr; entry++) {
    zend_function* fn = mock_zend::internal::FunctionFromEntry(entry, scope);
    zend_string* key = mock_zend::internal::InternLowercase(
        entry->fname, strlen(entry->fname));
    if (zend_hash_add_ptr(table, key, fn) == nullptr) {
      zend_error(E_CORE_WARNING,
                 "Function registration failed - duplicate name - %s",
                 entry->fname);
      mock_zend::internal::FreeFunction(fn);
      result = FAILURE;
    }
  }
  return result;
}

zend_function* zend_hash_find_function(zend_class_entry* ce, const char* name,
                                       size_t len) {
  const HashTable* table =
      ce != nullptr ? &ce->function_table : EG(function_table);
  if (table == nullptr) return nullptr;
  return mock_zend::internal::FindFunction(table, name, len);
}

}  // extern "C"
