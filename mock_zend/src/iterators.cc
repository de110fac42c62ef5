// zend-async-ref: mock Zend engine. Object iterators (zend_iterators.h),
// the Iterator / IteratorAggregate / InternalIterator classes and the
// user-iterator functions (zend_interfaces.h), and spl_iterator_apply
// (ext/spl/spl_iterators.h).
//
// An iterator is an object of the store whose class is the unregistered
// "__iterator_wrapper" and whose handlers (kWrapperHandlers) forward
// free_obj to funcs->dtor and get_gc to funcs->get_gc; the store then frees
// its memory at offset 0, as PHP's does.
//
// Iterator classes are called by method name in the object's class
// (zend_call_method), where PHP caches the methods in iterator_funcs_ptr.

#include "engine_internal.h"

extern "C" {
#include "ext/spl/spl_iterators.h"
}

namespace {

zend_class_entry iterator_wrapper_class;
zend_object_handlers wrapper_handlers;

zend_object_iterator* FromObject(zend_object* object) {
  return reinterpret_cast<zend_object_iterator*>(object);
}

void WrapperFree(zend_object* object) {
  zend_object_iterator* iter = FromObject(object);
  iter->funcs->dtor(iter);
}

void WrapperDtor(zend_object* object) { (void)object; }

HashTable* WrapperGetGc(zend_object* object, zval** table, int* n) {
  zend_object_iterator* iter = FromObject(object);
  if (iter->funcs->get_gc != nullptr) {
    return iter->funcs->get_gc(iter, table, n);
  }
  *table = nullptr;
  *n = 0;
  return nullptr;
}

// ---- Iterator classes: zend_user_it_* ----

zend_user_iterator* UserIterator(zend_object_iterator* iter) {
  return reinterpret_cast<zend_user_iterator*>(iter);
}

// Calls `method` of the iterated object into `retval` (UNDEF when the call
// failed; an exception is then pending).
void CallIteratorMethod(zend_user_iterator* iter, const char* method,
                        zval* retval) {
  ZVAL_UNDEF(retval);
  zend_call_method(Z_OBJ(iter->it.data), iter->ce, nullptr, method,
                   strlen(method), retval, 0, nullptr, nullptr);
}

// Drops the cached current value, then calls `method` for its effect.
void MoveWith(zend_object_iterator* iter, const char* method) {
  zend_user_it_invalidate_current(iter);
  zval retval;
  CallIteratorMethod(UserIterator(iter), method, &retval);
  zval_ptr_dtor(&retval);
}

void UserItDtor(zend_object_iterator* iter) {
  zend_user_it_invalidate_current(iter);
  zval_ptr_dtor(&iter->data);
}

const zend_object_iterator_funcs kUserIteratorFuncs = {
    UserItDtor,
    zend_user_it_valid,
    zend_user_it_get_current_data,
    zend_user_it_get_current_key,
    zend_user_it_move_forward,
    zend_user_it_rewind,
    zend_user_it_invalidate_current,
    zend_user_it_get_gc,
};

// The Iterator get_iterator: the object's own methods.
zend_object_iterator* UserItGetIterator(zend_class_entry* ce, zval* object,
                                        int by_ref) {
  (void)ce;
  if (by_ref) {
    zend_throw_error(nullptr,
                     "An iterator cannot be used with foreach by reference");
    return nullptr;
  }
  auto* iter =
      static_cast<zend_user_iterator*>(emalloc(sizeof(zend_user_iterator)));
  zend_iterator_init(&iter->it);
  ZVAL_OBJ_COPY(&iter->it.data, Z_OBJ_P(object));
  iter->it.funcs = &kUserIteratorFuncs;
  iter->ce = Z_OBJCE_P(object);
  ZVAL_UNDEF(&iter->value);
  return &iter->it;
}

bool Implements(const zend_class_entry* ce, const zend_class_entry* iface) {
  for (uint32_t i = 0; i < ce->num_interfaces; i++) {
    if (ce->interfaces[i] == iface) return true;
  }
  return false;
}

// ---- InternalIterator ----

struct InternalIterator {
  zend_object_iterator* iter;  // owned; NULL until initialized
  bool rewind_called;
  zend_object std;  // last: PHP's layout puts std first, the mock's
                    // objects keep declared slots after std
};

zend_object_handlers internal_iterator_handlers;

InternalIterator* Internal(zend_object* object) {
  return reinterpret_cast<InternalIterator*>(reinterpret_cast<char*>(object) -
                                             offsetof(InternalIterator, std));
}

zend_object* InternalIteratorCreate(zend_class_entry* ce) {
  auto* intern = static_cast<InternalIterator*>(
      zend_object_alloc(sizeof(InternalIterator), ce));
  intern->iter = nullptr;
  intern->rewind_called = false;
  zend_object_std_init(&intern->std, ce);
  intern->std.handlers = &internal_iterator_handlers;
  return &intern->std;
}

void InternalIteratorFree(zend_object* object) {
  InternalIterator* intern = Internal(object);
  if (intern->iter != nullptr) zend_iterator_dtor(intern->iter);
  intern->iter = nullptr;
  zend_object_std_dtor(object);
}

HashTable* InternalIteratorGetGc(zend_object* object, zval** table, int* n) {
  InternalIterator* intern = Internal(object);
  if (intern->iter == nullptr) {
    *table = nullptr;
    *n = 0;
    return nullptr;
  }
  zend_get_gc_buffer* buffer = zend_get_gc_buffer_create();
  zend_get_gc_buffer_add_obj(buffer, &intern->iter->std);
  zend_get_gc_buffer_use(buffer, table, n);
  return nullptr;
}

// The wrapped iterator, rewound once; NULL (an exception pending) when the
// object was never initialized or the rewind threw.
InternalIterator* Fetch(zend_execute_data* execute_data, bool rewind) {
  InternalIterator* intern = Internal(Z_OBJ_P(ZEND_THIS));
  if (intern->iter == nullptr) {
    zend_throw_error(
        nullptr,
        "The InternalIterator object has not been properly initialized");
    return nullptr;
  }
  if (rewind && !intern->rewind_called) {
    intern->rewind_called = true;
    if (intern->iter->funcs->rewind != nullptr) {
      intern->iter->funcs->rewind(intern->iter);
      if (EG(exception) != nullptr) return nullptr;
    }
  }
  return intern;
}

void InternalIteratorConstruct(INTERNAL_FUNCTION_PARAMETERS) {
  (void)execute_data;
  (void)return_value;
  zend_throw_error(nullptr, "Cannot manually construct InternalIterator");
}

void InternalIteratorCurrent(INTERNAL_FUNCTION_PARAMETERS) {
  InternalIterator* intern = Fetch(execute_data, true);
  if (intern == nullptr) return;
  zval* data = intern->iter->funcs->get_current_data(intern->iter);
  if (data != nullptr) ZVAL_COPY_DEREF(return_value, data);
}

void InternalIteratorKey(INTERNAL_FUNCTION_PARAMETERS) {
  InternalIterator* intern = Fetch(execute_data, true);
  if (intern == nullptr) return;
  if (intern->iter->funcs->get_current_key != nullptr) {
    intern->iter->funcs->get_current_key(intern->iter, return_value);
  } else {
    ZVAL_LONG(return_value, static_cast<zend_long>(intern->iter->index));
  }
}

void InternalIteratorNext(INTERNAL_FUNCTION_PARAMETERS) {
  (void)return_value;
  InternalIterator* intern = Fetch(execute_data, true);
  if (intern == nullptr) return;
  intern->iter->index++;  // first, as foreach does
  intern->iter->funcs->move_forward(intern->iter);
}

void InternalIteratorValid(INTERNAL_FUNCTION_PARAMETERS) {
  InternalIterator* intern = Fetch(execute_data, true);
  if (intern == nullptr) return;
  ZVAL_BOOL(return_value, intern->iter->funcs->valid(intern->iter) == SUCCESS);
}

void InternalIteratorRewind(INTERNAL_FUNCTION_PARAMETERS) {
  (void)return_value;
  InternalIterator* intern = Fetch(execute_data, false);
  if (intern == nullptr) return;
  intern->rewind_called = true;
  if (intern->iter->funcs->rewind == nullptr) {
    // Allowed before any step, even without rewind support.
    if (intern->iter->index != 0) {
      zend_throw_error(nullptr, "Iterator does not support rewinding");
      return;
    }
    intern->iter->index = 0;
    return;
  }
  intern->iter->funcs->rewind(intern->iter);
  intern->iter->index = 0;
}

ZEND_BEGIN_ARG_INFO_EX(arginfo_internal_iterator_none, 0, 0, 0)
ZEND_END_ARG_INFO()

// clang-format off
const zend_function_entry kInternalIteratorMethods[] = {
    ZEND_RAW_FENTRY("__construct", InternalIteratorConstruct,
                    arginfo_internal_iterator_none, ZEND_ACC_PRIVATE,
                    nullptr, nullptr)
    ZEND_RAW_FENTRY("current", InternalIteratorCurrent,
                    arginfo_internal_iterator_none, ZEND_ACC_PUBLIC, nullptr,
                    nullptr)
    ZEND_RAW_FENTRY("key", InternalIteratorKey,
                    arginfo_internal_iterator_none, ZEND_ACC_PUBLIC, nullptr,
                    nullptr)
    ZEND_RAW_FENTRY("next", InternalIteratorNext,
                    arginfo_internal_iterator_none, ZEND_ACC_PUBLIC, nullptr,
                    nullptr)
    ZEND_RAW_FENTRY("valid", InternalIteratorValid,
                    arginfo_internal_iterator_none, ZEND_ACC_PUBLIC, nullptr,
                    nullptr)
    ZEND_RAW_FENTRY("rewind", InternalIteratorRewind,
                    arginfo_internal_iterator_none, ZEND_ACC_PUBLIC, nullptr,
                    nullptr)
    ZEND_FE_END};
// clang-format on

}  // namespace

extern "C" {

zend_class_entry* zend_ce_aggregate = nullptr;
zend_class_entry* zend_ce_iterator = nullptr;
zend_class_entry* zend_ce_internal_iterator = nullptr;

zend_object_iterator* zend_iterator_unwrap(zval* array_ptr) {
  if (Z_TYPE_P(array_ptr) == IS_OBJECT &&
      Z_OBJ_HT_P(array_ptr) == &wrapper_handlers) {
    return FromObject(Z_OBJ_P(array_ptr));
  }
  return nullptr;
}

void zend_iterator_init(zend_object_iterator* iter) {
  zend_object_std_init(&iter->std, &iterator_wrapper_class);
  iter->std.handlers = &wrapper_handlers;
}

void zend_iterator_dtor(zend_object_iterator* iter) {
  if (GC_DELREF(&iter->std) > 0) return;
  zend_objects_store_del(&iter->std);
}

void zend_register_iterator_wrapper(void) {}

void zend_user_it_invalidate_current(zend_object_iterator* _iter) {
  zend_user_iterator* iter = UserIterator(_iter);
  if (Z_TYPE(iter->value) != IS_UNDEF) {
    zval_ptr_dtor(&iter->value);
    ZVAL_UNDEF(&iter->value);
  }
}

void zend_user_it_rewind(zend_object_iterator* _iter) {
  MoveWith(_iter, "rewind");
}

zend_result zend_user_it_valid(zend_object_iterator* _iter) {
  zend_user_iterator* iter = UserIterator(_iter);
  zval more;
  CallIteratorMethod(iter, "valid", &more);
  const bool valid = Z_TYPE(more) != IS_UNDEF && zend_is_true(&more);
  zval_ptr_dtor(&more);
  return valid ? SUCCESS : FAILURE;
}

zval* zend_user_it_get_current_data(zend_object_iterator* _iter) {
  zend_user_iterator* iter = UserIterator(_iter);
  if (Z_TYPE(iter->value) == IS_UNDEF) {
    CallIteratorMethod(iter, "current", &iter->value);
  }
  return &iter->value;
}

void zend_user_it_get_current_key(zend_object_iterator* _iter, zval* key) {
  zend_user_iterator* iter = UserIterator(_iter);
  CallIteratorMethod(iter, "key", key);
  if (Z_TYPE_P(key) == IS_UNDEF) {
    ZVAL_NULL(key);
  } else if (Z_ISREF_P(key)) {
    zval value;
    ZVAL_COPY(&value, Z_REFVAL_P(key));
    zval_ptr_dtor(key);
    ZVAL_COPY_VALUE(key, &value);
  }
}

void zend_user_it_move_forward(zend_object_iterator* _iter) {
  MoveWith(_iter, "next");
}

HashTable* zend_user_it_get_gc(zend_object_iterator* _iter, zval** table,
                               int* n) {
  zend_user_iterator* iter = UserIterator(_iter);
  if (Z_TYPE(iter->value) == IS_UNDEF) {
    *table = &iter->it.data;
    *n = 1;
  } else {
    zend_get_gc_buffer* buffer = zend_get_gc_buffer_create();
    zend_get_gc_buffer_add_zval(buffer, &iter->it.data);
    zend_get_gc_buffer_add_zval(buffer, &iter->value);
    zend_get_gc_buffer_use(buffer, table, n);
  }
  return nullptr;
}

void zend_user_it_new_iterator(zend_class_entry* ce, zval* object,
                               zval* iterator) {
  ZVAL_UNDEF(iterator);
  zend_call_method(Z_OBJ_P(object), ce, nullptr, "getIterator",
                   sizeof("getIterator") - 1, iterator, 0, nullptr, nullptr);
}

zend_object_iterator* zend_user_it_get_new_iterator(zend_class_entry* ce,
                                                    zval* object, int by_ref) {
  zval iterator;
  zend_user_it_new_iterator(ce, object, &iterator);
  zend_class_entry* iterator_ce =
      Z_TYPE(iterator) == IS_OBJECT ? Z_OBJCE(iterator) : nullptr;
  if (iterator_ce == nullptr || iterator_ce->get_iterator == nullptr ||
      (iterator_ce->get_iterator == zend_user_it_get_new_iterator &&
       Z_OBJ(iterator) == Z_OBJ_P(object))) {
    if (EG(exception) == nullptr) {
      zend_throw_exception_ex(
          nullptr, 0,
          "Objects returned by %s::getIterator() must be traversable or "
          "implement interface Iterator",
          ZSTR_VAL(ce != nullptr ? ce->name : Z_OBJCE_P(object)->name));
    }
    zval_ptr_dtor(&iterator);
    return nullptr;
  }
  zend_object_iterator* result =
      iterator_ce->get_iterator(iterator_ce, &iterator, by_ref);
  zval_ptr_dtor(&iterator);
  return result;
}

zend_result zend_create_internal_iterator_zval(zval* return_value, zval* obj) {
  const zend_execute_data* frame = EG(current_execute_data);
  zend_class_entry* scope = frame != nullptr && frame->func != nullptr &&
                                    frame->func->common.scope != nullptr
                                ? frame->func->common.scope
                                : Z_OBJCE_P(obj);
  if (scope->get_iterator == nullptr ||
      scope->get_iterator == zend_user_it_get_new_iterator) {
    // PHP asserts this never happens: the class's own iterator would call
    // this getIterator() again.
    zend_throw_error(nullptr,
                     "%s has no internal iterator to wrap in an "
                     "InternalIterator",
                     ZSTR_VAL(scope->name));
    return FAILURE;
  }
  zend_object_iterator* iter = scope->get_iterator(Z_OBJCE_P(obj), obj, 0);
  if (iter == nullptr) return FAILURE;
  zend_object* object = InternalIteratorCreate(zend_ce_internal_iterator);
  InternalIterator* intern = Internal(object);
  intern->iter = iter;
  intern->iter->index = 0;
  ZVAL_OBJ(return_value, object);
  return SUCCESS;
}

zend_result spl_iterator_apply(zval* obj, spl_iterator_apply_func_t apply_func,
                               void* puser) {
  zend_class_entry* ce = Z_OBJCE_P(obj);
  if (ce->get_iterator == nullptr) {
    zend_throw_error(nullptr, "%s is not traversable", ZSTR_VAL(ce->name));
    return FAILURE;
  }
  zend_object_iterator* iter = ce->get_iterator(ce, obj, 0);
  if (iter == nullptr || EG(exception) != nullptr) {
    if (iter != nullptr) zend_iterator_dtor(iter);
    return FAILURE;
  }
  iter->index = 0;
  if (iter->funcs->rewind != nullptr) iter->funcs->rewind(iter);
  while (EG(exception) == nullptr && iter->funcs->valid(iter) == SUCCESS) {
    if (EG(exception) != nullptr) break;
    if (apply_func(iter, puser) == ZEND_HASH_APPLY_STOP) break;
    if (EG(exception) != nullptr) break;
    iter->index++;
    iter->funcs->move_forward(iter);
  }
  zend_iterator_dtor(iter);
  return EG(exception) != nullptr ? FAILURE : SUCCESS;
}

}  // extern "C"

namespace mock_zend::internal {

void RegisterIteratorClasses() {
  memset(&iterator_wrapper_class, 0, sizeof(iterator_wrapper_class));
  iterator_wrapper_class.type = ZEND_INTERNAL_CLASS;
  iterator_wrapper_class.name = zend_string_init_interned(
      "__iterator_wrapper", sizeof("__iterator_wrapper") - 1, true);
  wrapper_handlers = std_object_handlers;
  wrapper_handlers.free_obj = WrapperFree;
  wrapper_handlers.dtor_obj = WrapperDtor;
  wrapper_handlers.clone_obj = nullptr;
  wrapper_handlers.get_gc = WrapperGetGc;

  zend_ce_aggregate =
      RegisterClass("IteratorAggregate", nullptr, nullptr, ZEND_ACC_INTERFACE);
  zend_class_implements(zend_ce_aggregate, 1, zend_ce_traversable);
  zend_ce_iterator =
      RegisterClass("Iterator", nullptr, nullptr, ZEND_ACC_INTERFACE);
  zend_class_implements(zend_ce_iterator, 1, zend_ce_traversable);

  internal_iterator_handlers = std_object_handlers;
  internal_iterator_handlers.offset = offsetof(InternalIterator, std);
  internal_iterator_handlers.free_obj = InternalIteratorFree;
  internal_iterator_handlers.clone_obj = nullptr;
  internal_iterator_handlers.get_gc = InternalIteratorGetGc;
  zend_ce_internal_iterator =
      RegisterClass("InternalIterator", nullptr, kInternalIteratorMethods,
                    ZEND_ACC_FINAL | ZEND_ACC_NO_DYNAMIC_PROPERTIES |
                        ZEND_ACC_NOT_SERIALIZABLE);
  zend_ce_internal_iterator->create_object = InternalIteratorCreate;
  zend_class_implements(zend_ce_internal_iterator, 1, zend_ce_iterator);
}

void InstallIteratorHandler(zend_class_entry* ce) {
  if (ce->get_iterator != nullptr || (ce->ce_flags & ZEND_ACC_INTERFACE)) {
    return;
  }
  if (zend_ce_aggregate != nullptr && Implements(ce, zend_ce_aggregate)) {
    ce->get_iterator = zend_user_it_get_new_iterator;
  } else if (zend_ce_iterator != nullptr && Implements(ce, zend_ce_iterator)) {
    ce->get_iterator = UserItGetIterator;
  }
}

}  // namespace mock_zend::internal
