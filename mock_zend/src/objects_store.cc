// zend-async-ref: mock Zend engine. The object store (zend_objects_API.h).
//
// EG(objects_store).object_buckets[handle] is the object with that handle.
// Handles start at 1 (slot 0 is never used). A slot whose low bit is set
// holds no object: either an object being freed (the pointer with bit 0
// set) or a free handle, which stores the next free handle as
// (next << 1) | 1, so the free list lives in the slots themselves and the
// most recently freed handle is reused first. The bucket array is plain
// malloc memory: the store is engine bookkeeping, not request data, and
// does not show up in the request allocator's counts.
//
// Release: zend_objects_store_del() runs dtor_obj once (an object it
// resurrects stays alive), then free_obj once, then frees the memory at
// (char*)obj - handlers->offset and the handle.

#include "engine_internal.h"

namespace {

uint32_t live_objects = 0;

constexpr int kNoFreeHandle = -1;

bool IsValid(const zend_object* slot) {
  return slot != nullptr && IS_OBJ_VALID(slot);
}

zend_object* MarkInvalid(zend_object* object) {
  return reinterpret_cast<zend_object*>(reinterpret_cast<uintptr_t>(object) |
                                        OBJ_BUCKET_INVALID);
}

zend_object* FreeSlot(int next) {
  return reinterpret_cast<zend_object*>(
      (static_cast<uintptr_t>(static_cast<uint32_t>(next)) << 1) |
      OBJ_BUCKET_INVALID);
}

int NextFree(const zend_object* slot) {
  return static_cast<int>(
      static_cast<uint32_t>(reinterpret_cast<uintptr_t>(slot) >> 1));
}

zend_objects_store& Store() { return EG(objects_store); }

// Takes the object out of the store (its slot stays reserved).
void Invalidate(zend_object* object) {
  Store().object_buckets[object->handle] = MarkInvalid(object);
  live_objects--;
}

// Frees the object's memory and puts its handle on the free list.
void FreeMemoryAndHandle(zend_object* object) {
  const uint32_t handle = object->handle;
  efree(reinterpret_cast<char*>(object) - object->handlers->offset);
  Store().object_buckets[handle] = FreeSlot(Store().free_list_head);
  Store().free_list_head = static_cast<int>(handle);
}

void ReportAndClearException() {
  if (EG(exception) != nullptr) zend_exception_error(EG(exception), E_ERROR);
}

}  // namespace

extern "C" {

void zend_objects_store_put(zend_object* object) {
  zend_objects_store& store = Store();
  uint32_t handle;
  if (store.free_list_head != kNoFreeHandle) {
    handle = static_cast<uint32_t>(store.free_list_head);
    store.free_list_head = NextFree(store.object_buckets[handle]);
  } else {
    if (store.top == 0) store.top = 1;
    if (store.top >= store.size) {
      const uint32_t new_size = store.size == 0 ? 64 : store.size * 2;
      store.object_buckets = static_cast<zend_object**>(__zend_realloc(
          store.object_buckets, new_size * sizeof(zend_object*)));
      store.size = new_size;
    }
    handle = store.top++;
  }
  store.object_buckets[handle] = object;
  object->handle = handle;
  live_objects++;
}

void zend_objects_store_del(zend_object* object) {
  if (!(GC_FLAGS(object) & IS_OBJ_DESTRUCTOR_CALLED)) {
    GC_ADD_FLAGS(object, IS_OBJ_DESTRUCTOR_CALLED);
    GC_ADDREF(object);
    object->handlers->dtor_obj(object);
    GC_DELREF(object);
    if (GC_REFCOUNT(object) > 0) return;  // resurrected by its destructor
  }
  Invalidate(object);
  if (!(GC_FLAGS(object) & IS_OBJ_FREE_CALLED)) {
    GC_ADD_FLAGS(object, IS_OBJ_FREE_CALLED);
    GC_SET_REFCOUNT(object, 1);
    object->handlers->free_obj(object);
  }
  FreeMemoryAndHandle(object);
}

uint32_t zend_objects_store_live_count(void) { return live_objects; }

}  // extern "C"

namespace mock_zend::internal {

void ObjectsStoreStartup() {
  zend_objects_store& store = Store();
  if (store.object_buckets != nullptr) return;  // kept from a previous use
  store.top = 1;
  store.size = 0;
  store.free_list_head = kNoFreeHandle;
}

// PHP's order: every destructor first (an object may still use others in
// its destructor), then every free_obj (each object holding a reference
// while its neighbours are freed, so none reaches zero in the middle),
// then the memory of every object, then the store itself.
void ObjectsStoreShutdown() {
  zend_objects_store& store = Store();
  for (uint32_t i = 1; i < store.top; i++) {
    zend_object* object = store.object_buckets[i];
    if (!IsValid(object) || (GC_FLAGS(object) & IS_OBJ_DESTRUCTOR_CALLED)) {
      continue;
    }
    GC_ADD_FLAGS(object, IS_OBJ_DESTRUCTOR_CALLED);
    GC_ADDREF(object);
    object->handlers->dtor_obj(object);
    GC_DELREF(object);
    ReportAndClearException();
  }
  for (uint32_t i = 1; i < store.top; i++) {
    zend_object* object = store.object_buckets[i];
    if (!IsValid(object) || (GC_FLAGS(object) & IS_OBJ_FREE_CALLED)) continue;
    GC_ADD_FLAGS(object, IS_OBJ_FREE_CALLED);
    GC_ADDREF(object);
    object->handlers->free_obj(object);
  }
  ReportAndClearException();
  for (uint32_t i = 1; i < store.top; i++) {
    zend_object* object = store.object_buckets[i];
    if (!IsValid(object)) continue;
    Invalidate(object);
    FreeMemoryAndHandle(object);
  }
  pefree(store.object_buckets, 1);
  store.object_buckets = nullptr;
  store.top = 1;
  store.size = 0;
  store.free_list_head = kNoFreeHandle;
  live_objects = 0;
}

}  // namespace mock_zend::internal
