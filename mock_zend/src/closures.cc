// zend-async-ref: mock Zend engine. Closure objects with native bodies
// (zend_closures.h).
//
// A closure is one allocation: its internal function (named "{closure}",
// flagged ZEND_ACC_CLOSURE, whose handler is a trampoline), the native body
// and its data, the captured values (`uses`), and the zend_object last.
// The running closure is found from EX(func) by offsetof, the way PHP finds
// a closure from its op_array.
//
// Lifetime: free_obj releases the uses, then calls the data destructor,
// then releases the standard object state. The Closure class cannot be
// instantiated with object_init_ex ("Instantiation of class Closure is not
// allowed"); closures come from zend_mock_closure_new().

#include <strings.h>

#include <cstddef>
#include <type_traits>

#include "engine_internal.h"

extern "C" {
zend_class_entry* zend_ce_closure = nullptr;
}

namespace {

struct Closure {
  zend_function func;  // its handler is ClosureTrampoline
  zend_mock_closure_body body;
  void* data;
  zend_mock_closure_data_dtor data_dtor;
  zval* uses;  // uses[0, num_uses), each owning one reference
  uint32_t num_uses;
  uint32_t uses_capacity;
  zend_object std;  // must be last: declared property slots follow it
};

static_assert(std::is_standard_layout_v<Closure>);

zend_object_handlers closure_handlers;

Closure* FromObject(zend_object* object) {
  return reinterpret_cast<Closure*>(reinterpret_cast<char*>(object) -
                                    offsetof(Closure, std));
}

Closure* FromFunction(zend_function* fn) {
  return reinterpret_cast<Closure*>(reinterpret_cast<char*>(fn) -
                                    offsetof(Closure, func));
}

bool IsClosure(const zend_object* object) {
  return object->handlers == &closure_handlers;
}

void ClosureTrampoline(INTERNAL_FUNCTION_PARAMETERS) {
  Closure* closure = FromFunction(EX(func));
  closure->body(&closure->std, execute_data, return_value, closure->data);
}

void ReleaseUses(Closure* closure) {
  zval* uses = closure->uses;
  const uint32_t count = closure->num_uses;
  closure->uses = nullptr;
  closure->num_uses = 0;
  closure->uses_capacity = 0;
  for (uint32_t i = 0; i < count; i++) zval_ptr_dtor(&uses[i]);
  efree(uses);
}

void FreeClosure(zend_object* object) {
  Closure* closure = FromObject(object);
  ReleaseUses(closure);
  if (closure->data_dtor != nullptr) {
    zend_mock_closure_data_dtor dtor = closure->data_dtor;
    closure->data_dtor = nullptr;
    dtor(closure->data);
  }
  zend_object_std_dtor(object);
}

HashTable* ClosureGetGc(zend_object* object, zval** table, int* n) {
  Closure* closure = FromObject(object);
  *table = closure->uses;
  *n = static_cast<int>(closure->num_uses);
  return nullptr;
}

// "__invoke" (any case) is the closure's own function; anything else is
// looked up in the Closure class.
zend_function* ClosureGetMethod(zend_object** object, zend_string* method,
                                const zval* key) {
  if (ZSTR_LEN(method) == 8 &&
      strncasecmp(ZSTR_VAL(method), "__invoke", 8) == 0) {
    return &FromObject(*object)->func;
  }
  return zend_std_get_method(object, method, key);
}

zend_function* ClosureGetConstructor(zend_object* object) {
  (void)object;
  zend_throw_error(nullptr, "Instantiation of class Closure is not allowed");
  return nullptr;
}

zend_object* RefuseCreate(zend_class_entry* ce) {
  (void)ce;
  zend_throw_error(nullptr, "Instantiation of class Closure is not allowed");
  return nullptr;
}

}  // namespace

extern "C" {

zend_object* zend_mock_closure_new(zend_mock_closure_body body, void* data,
                                   zend_mock_closure_data_dtor dtor) {
  auto* closure = static_cast<Closure*>(
      zend_object_alloc(sizeof(Closure), zend_ce_closure));
  zend_internal_function& f = closure->func.internal_function;
  f.type = ZEND_INTERNAL_FUNCTION;
  f.fn_flags = ZEND_ACC_PUBLIC | ZEND_ACC_CLOSURE;
  f.function_name = ZSTR_KNOWN(ZEND_STR_CLOSURE);
  f.handler = ClosureTrampoline;
  closure->body = body;
  closure->data = data;
  closure->data_dtor = dtor;
  zend_object_std_init(&closure->std, zend_ce_closure);
  object_properties_init(&closure->std, zend_ce_closure);
  closure->std.handlers = &closure_handlers;
  return &closure->std;
}

void zend_mock_closure_add_use(zend_object* closure, zval* value) {
  Closure* c = FromObject(closure);
  if (c->num_uses == c->uses_capacity) {
    c->uses_capacity = c->uses_capacity == 0 ? 4 : c->uses_capacity * 2;
    c->uses = static_cast<zval*>(
        safe_erealloc(c->uses, c->uses_capacity, sizeof(zval), 0));
  }
  ZVAL_COPY(&c->uses[c->num_uses], value);
  c->num_uses++;
}

uint32_t zend_mock_closure_num_uses(zend_object* closure) {
  return FromObject(closure)->num_uses;
}

zval* zend_mock_closure_use(zend_object* closure, uint32_t index) {
  Closure* c = FromObject(closure);
  return index < c->num_uses ? &c->uses[index] : nullptr;
}

void zend_mock_closure_clear_uses(zend_object* closure) {
  ReleaseUses(FromObject(closure));
}

// A closure made by zend_create_closure from an internal function: its
// body runs the function's handler in the closure's frame.
void CallWrappedFunction(zend_object* closure, zend_execute_data* execute_data,
                         zval* return_value, void* data) {
  (void)closure;
  static_cast<zend_function*>(data)->internal_function.handler(execute_data,
                                                               return_value);
}

void zend_create_closure(zval* res, zend_function* func,
                         zend_class_entry* scope,
                         zend_class_entry* called_scope, zval* this_ptr) {
  (void)called_scope;
  if (func->type != ZEND_INTERNAL_FUNCTION) {
    ZVAL_NULL(res);
    mock_zend::internal::Unsupported(
        "zend_create_closure",
        "a closure of a user function needs its compiled code run, and it "
        "runs no PHP code");
    return;
  }
  if (this_ptr != nullptr && Z_TYPE_P(this_ptr) == IS_OBJECT) {
    ZVAL_NULL(res);
    mock_zend::internal::Unsupported("zend_create_closure",
                                     "its closures carry no bound $this");
    return;
  }
  zend_object* object =
      zend_mock_closure_new(CallWrappedFunction, func, nullptr);
  // The wrapped function is registered for the whole module lifetime, so
  // the closure borrows its name and arg info.
  zend_internal_function& f = FromObject(object)->func.internal_function;
  const zend_internal_function& from = func->internal_function;
  f.function_name = from.function_name;
  f.scope = scope;
  f.num_args = from.num_args;
  f.required_num_args = from.required_num_args;
  f.arg_info = from.arg_info;
  f.fn_flags |= from.fn_flags & (ZEND_ACC_VARIADIC | ZEND_ACC_STATIC);
  ZVAL_OBJ(res, object);
}

const zend_function* zend_get_closure_method_def(zend_object* obj) {
  return mock_zend::internal::ClosureFunction(obj);
}

zval* zend_get_closure_this_ptr(zval* obj) {
  (void)obj;
  // Mock closures are never bound to an object.
  static zval unbound;
  ZVAL_UNDEF(&unbound);
  return &unbound;
}

}  // extern "C"

namespace mock_zend::internal {

void RegisterClosureClass() {
  closure_handlers = std_object_handlers;
  closure_handlers.offset = static_cast<int>(offsetof(Closure, std));
  closure_handlers.free_obj = FreeClosure;
  closure_handlers.clone_obj = nullptr;
  closure_handlers.get_method = ClosureGetMethod;
  closure_handlers.get_constructor = ClosureGetConstructor;
  closure_handlers.get_gc = ClosureGetGc;
  zend_ce_closure = RegisterClass("Closure", nullptr, nullptr, ZEND_ACC_FINAL);
  zend_ce_closure->create_object = RefuseCreate;
  zend_ce_closure->default_object_handlers = &closure_handlers;
}

zend_object* ClosureFromFunction(zend_function* fn) {
  if (fn == nullptr || !(fn->common.fn_flags & ZEND_ACC_CLOSURE) ||
      fn->internal_function.handler != ClosureTrampoline) {
    return nullptr;
  }
  return &FromFunction(fn)->std;
}

zend_function* ClosureFunction(zend_object* closure) {
  return IsClosure(closure) ? &FromObject(closure)->func : nullptr;
}

}  // namespace mock_zend::internal
