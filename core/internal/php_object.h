// zend-async-ref core: the PHP classes and objects of core, one way.
//
//   RegisterClass({.name, .flags, ...})  a class (zend_register_internal_
//                                       class_ex), its methods, create_object
//                                       and handlers, its parent
//   RegisterObjectClass(name, ...)      a final class of core's objects
//   RegisterInterface(name, methods)    an interface
//   MakeObjectHandlers<T>(hooks)        a class's handlers: PHP's standard
//                                       ones for objects of struct T, with
//                                       the hooks given, never cloned
//   AllocObject<T>(ce)                  a new object's storage in struct T
//   ObjectOf<T>(object)                 the struct T around a zend_object
//                                       (its member `std`)
//   EventWrapper                        the PHP face of a plain event
//                                       (Async\Pool, Async\Channel): an
//                                       event reference holding one
//                                       reference to its event
//
// An EventWrapper class: create_object is CreateEventWrapper (no event
// yet: its __construct makes one, or NewEventWrapper gives it one), its
// default_object_handlers its handlers; free_obj
// lets go of the event (FreeEventWrapper, or DetachEventWrapper, then
// ZEND_ASYNC_EVENT_RELEASE); get_gc and count_elements may be
// GetEventWrapperGc and CountEventWrapper; WrappedOwner<Owner>(object) is
// the owner struct of the event (in a method: WrappedThis, or
// RequireWrappedThis, which throws without one),
// ZEND_ASYNC_OBJECT_TO_EVENT(object) the event, both NULL before
// construction.
//
// Threading: the request's thread.

#ifndef ZAR_CORE_INTERNAL_PHP_OBJECT_H_
#define ZAR_CORE_INTERNAL_PHP_OBJECT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
}

namespace zar::core::internal {

// What a class declares; unset members are PHP's defaults.
struct ClassSpec {
  const char* name = nullptr;
  uint32_t flags = 0;  // ZEND_ACC_*
  const zend_function_entry* methods = nullptr;
  zend_object* (*create_object)(zend_class_entry*) = nullptr;
  const zend_object_handlers* handlers = nullptr;
  zend_class_entry* parent = nullptr;
};

// The flags upstream's generated registration gives its final classes:
// closed to dynamic properties and to serialization.
inline constexpr uint32_t kClosedFinalClass =
    ZEND_ACC_FINAL | ZEND_ACC_NO_DYNAMIC_PROPERTIES | ZEND_ACC_NOT_SERIALIZABLE;

// Registers the class `spec` declares (MINIT); NULL when the engine refused.
inline zend_class_entry* RegisterClass(const ClassSpec& spec) {
  zend_class_entry ce;
  memset(&ce, 0, sizeof(ce));
  ce.name = zend_string_init_interned(spec.name, strlen(spec.name), true);
  ce.ce_flags = spec.flags;
  ce.info_internal_builtin_functions = spec.methods;
  ce.create_object = spec.create_object;
  ce.default_object_handlers = spec.handlers;
  return zend_register_internal_class_ex(&ce, spec.parent);
}

// A class of core's objects: RegisterClass with `methods`, `create_object`
// and `handlers`, kClosedFinalClass unless `flags` says otherwise.
inline zend_class_entry* RegisterObjectClass(
    const char* name, const zend_function_entry* methods,
    zend_object* (*create_object)(zend_class_entry*),
    const zend_object_handlers* handlers, uint32_t flags = kClosedFinalClass) {
  return RegisterClass({.name = name,
                        .flags = flags,
                        .methods = methods,
                        .create_object = create_object,
                        .handlers = handlers});
}

// Registers an interface with `methods` (may be NULL).
inline zend_class_entry* RegisterInterface(
    const char* name, const zend_function_entry* methods = nullptr) {
  zend_class_entry ce;
  memset(&ce, 0, sizeof(ce));
  ce.name = zend_string_init_interned(name, strlen(name), true);
  ce.info_internal_builtin_functions = methods;
  return zend_register_internal_interface(&ce);
}

// What a class sets on PHP's standard handlers; nullptr keeps the
// standard one.
struct ObjectHooks {
  zend_object_free_obj_t free_obj = nullptr;
  zend_object_dtor_obj_t dtor_obj = nullptr;
  zend_object_get_gc_t get_gc = nullptr;
  zend_object_count_elements_t count_elements = nullptr;
};

// A class's handlers (kept in a function-local static by the class): PHP's
// standard ones for objects of struct T (its zend_object is its member
// `std`), with `hooks`, never cloned.
//   static const zend_object_handlers handlers =
//       MakeObjectHandlers<AsyncCoroutine>({.free_obj = CoroutineFree});
template <typename T>
zend_object_handlers MakeObjectHandlers(const ObjectHooks& hooks) {
  zend_object_handlers handlers = std_object_handlers;
  handlers.offset = static_cast<int>(offsetof(T, std));
  if (hooks.free_obj != nullptr) handlers.free_obj = hooks.free_obj;
  if (hooks.dtor_obj != nullptr) handlers.dtor_obj = hooks.dtor_obj;
  if (hooks.get_gc != nullptr) handlers.get_gc = hooks.get_gc;
  if (hooks.count_elements != nullptr) {
    handlers.count_elements = hooks.count_elements;
  }
  handlers.clone_obj = nullptr;
  return handlers;
}

// The storage of a new object of `ce` in struct T (its member `std` last,
// the class's properties after it), as zend_object_alloc gives it: the
// caller sets T's fields, then zend_object_std_init(&self->std, ce) and
// object_properties_init(&self->std, ce).
template <typename T>
T* AllocObject(zend_class_entry* ce) {
  return static_cast<T*>(zend_object_alloc(sizeof(T), ce));
}

// The struct T whose member `std` is `object`.
template <typename T>
T* ObjectOf(zend_object* object) {
  return reinterpret_cast<T*>(reinterpret_cast<char*>(object) -
                              offsetof(T, std));
}

struct EventWrapper {
  // An event reference (its first word is ZEND_ASYNC_EVENT_REFERENCE_PREFIX);
  // ref.event owns one reference to the event, NULL before construction.
  zend_async_event_ref_t ref;
  zend_object std;  // last, as zend_object_alloc requires

  static EventWrapper* FromObject(zend_object* object) {
    return ObjectOf<EventWrapper>(object);
  }
  // Whether this object holds its event's only reference (no C owner, no
  // other wrapper, no parked caller).
  bool SoleOwner() const {
    return ref.event != nullptr && ref.event->ref_count == 1;
  }
};

static_assert(std::is_standard_layout_v<EventWrapper>);

// create_object of an EventWrapper class: an object with no event yet (its
// handlers are the class's default_object_handlers).
inline zend_object* CreateEventWrapper(zend_class_entry* ce) {
  auto* self = AllocObject<EventWrapper>(ce);
  ZEND_ASYNC_EVENT_REF_SET(&self->ref, offsetof(EventWrapper, std), nullptr);
  zend_object_std_init(&self->std, ce);
  object_properties_init(&self->std, ce);
  return &self->std;
}

// A new object of `ce` (an EventWrapper class named `class_name`) for
// `event`, taking one more reference to it. The caller owns the returned
// reference. NULL, Async\AsyncException "<class_name> is not registered"
// thrown, when `ce` is NULL.
inline zend_object* NewEventWrapper(zend_class_entry* ce,
                                    const char* class_name,
                                    zend_async_event_t* event) {
  if (ce == nullptr) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "%s is not registered",
                     class_name);
    return nullptr;
  }
  zval object;
  if (object_init_ex(&object, ce) != SUCCESS) return nullptr;
  ZEND_ASYNC_EVENT_ADD_REF(event);
  EventWrapper::FromObject(Z_OBJ(object))->ref.event = event;
  return Z_OBJ(object);
}

// free_obj's work before the event goes: the engine's part of the object,
// then the event taken out of it. Returns the event, whose reference the
// caller now holds (nullptr when the object never had one).
inline zend_async_event_t* DetachEventWrapper(zend_object* object) {
  EventWrapper* self = EventWrapper::FromObject(object);
  zend_object_std_dtor(object);
  zend_async_event_t* event = self->ref.event;
  self->ref.event = nullptr;
  return event;
}

// free_obj of an EventWrapper class: DetachEventWrapper, then the object's
// reference to the event let go (which may dispose it).
inline void FreeEventWrapper(zend_object* object) {
  zend_async_event_t* event = DetachEventWrapper(object);
  if (event != nullptr) ZEND_ASYNC_EVENT_RELEASE(event);
}

// The struct Owner (Owner::FromEvent, as internal::OwnerEventOf gives it)
// whose event the EventWrapper object `object` wraps; NULL before
// construction.
template <typename Owner>
Owner* WrappedOwner(zend_object* object) {
  return Owner::FromEvent(EventWrapper::FromObject(object)->ref.event);
}

// The owner of $this in a method of an EventWrapper class; NULL before
// construction.
template <typename Owner>
Owner* WrappedThis(zend_execute_data* execute_data) {
  return WrappedOwner<Owner>(Z_OBJ_P(ZEND_THIS));
}

// The owner of $this for a method that needs one, or nullptr with what
// `refuse` throws (the class's "... is not initialized") before
// construction.
template <typename Owner, void (*kRefuse)()>
Owner* RequireWrappedThis(zend_execute_data* execute_data) {
  Owner* owner = WrappedThis<Owner>(execute_data);
  if (UNEXPECTED(owner == nullptr)) kRefuse();
  return owner;
}

// get_gc of an EventWrapper class: the zvals and objects `report` adds of
// the owner, only while the object is its sole owner (what a C owner, another
// wrapper or a parked caller still uses is never reported); no properties
// table of its own.
template <typename Owner, void (*kReport)(Owner*, zend_get_gc_buffer*)>
HashTable* GetEventWrapperGc(zend_object* object, zval** table, int* n) {
  zend_get_gc_buffer* buffer = zend_get_gc_buffer_create();
  if (EventWrapper::FromObject(object)->SoleOwner()) {
    kReport(WrappedOwner<Owner>(object), buffer);
  }
  zend_get_gc_buffer_use(buffer, table, n);
  return nullptr;
}

// count_elements of an EventWrapper class: the owner's `kCount`, 0 before
// construction.
template <typename Owner, uint32_t (Owner::*kCount)() const>
zend_result CountEventWrapper(zend_object* object, zend_long* count) {
  const Owner* owner = WrappedOwner<Owner>(object);
  *count = owner != nullptr ? (owner->*kCount)() : 0;
  return SUCCESS;
}

}  // namespace zar::core::internal

#endif  // ZAR_CORE_INTERNAL_PHP_OBJECT_H_
