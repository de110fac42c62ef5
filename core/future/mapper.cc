// map(), catch() and finally() (mapper.h).

#include "core/future/mapper.h"

#include "core/future/future.h"
#include "core/future/trace.h"
#include "core/internal/internal_coroutine.h"

extern "C" {
#include "Zend/zend_exceptions.h"
}

namespace zar::core {
namespace {

// A coroutine settling derived futures. Either a tree run (`queue`: source
// Future objects whose child_futures are settled in order, the first being
// the source that settled, later ones appended as their own futures settle)
// or a single run (`parent` and `child`: a derived future made on an
// already settled source). Owns one reference to every object and future
// it names.
struct ChainRun {
  HashTable* queue;       // IS_OBJECT Async\Future, or NULL for a single run
  zend_future_t* parent;  // single run: the settled source's future
  FutureObject* child;    // single run: the derived future to settle
};

// The subscription a pending source registers in its future's
// resolve_callbacks at its first derived future.
struct ChainSubscription {
  zend_async_event_callback_t base;  // first: the callbacks vector's view
  FutureObject* source;              // one object reference
  zend_async_scope_t* scope;         // one event reference, or NULL
};

zend_object* ObjectOf(FutureObject* future) { return &future->std; }

// Settles `child` from its source's outcome (mapper.h), as upstream's
// process_future_mapper. `run` is passed to the child's resolve so that its
// own subscription joins this run instead of spawning another. May leave
// an exception in EG: the child's unhandled rejection.
void SettleChild(zend_future_t* parent, FutureObject* child_object,
                 ChainRun* run) {
  zend_future_t* child = child_object->future();
  if (child == nullptr || ZEND_FUTURE_IS_COMPLETED(child)) return;

  zend_object* fallback = nullptr;  // the exception to pass on (owned)
  zval argument;
  ZVAL_NULL(&argument);
  bool call = true;

  if (parent->exception == nullptr) {
    if (!Z_ISUNDEF(parent->result)) ZVAL_COPY(&argument, &parent->result);
  } else {
    fallback = parent->exception;
    GC_ADDREF(fallback);
  }

  switch (child_object->mapper_type) {
    case MapperType::kMap:
      call = parent->exception == nullptr;
      break;
    case MapperType::kCatch:
      if (fallback != nullptr) {
        // The handler takes the exception; nothing passes on.
        ZVAL_OBJ(&argument, fallback);
        fallback = nullptr;
        ZEND_FUTURE_SET_EXCEPTION_CAUGHT(parent);
        ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(&parent->event);
      } else {
        call = false;
      }
      break;
    case MapperType::kFinally:
      if (fallback != nullptr) {
        // Seen by the handler and passed on as well.
        ZVAL_OBJ(&argument, fallback);
        GC_ADDREF(fallback);
      }
      break;
  }

  zval retval;
  ZVAL_UNDEF(&retval);
  if (call) {
    call_user_function(nullptr, nullptr, &child_object->mapper, &retval, 1,
                       &argument);
  }
  zval_ptr_dtor(&argument);

  if (child_object->mapper_type == MapperType::kFinally) {
    // finally's return value is ignored: the source's result passes on.
    zval_ptr_dtor(&retval);
    ZVAL_UNDEF(&retval);
    if (!Z_ISUNDEF(parent->result)) ZVAL_COPY(&retval, &parent->result);
  }

  if (UNEXPECTED(EG(exception) != nullptr)) {
    // The mapper threw: that is what passes on, after the source's error.
    if (fallback != nullptr) {
      zend_exception_set_previous(EG(exception), fallback);
    }
    fallback = EG(exception);
    GC_ADDREF(fallback);
    zend_clear_exception();
  }

  if (fallback != nullptr) {
    ZEND_FUTURE_REJECT_WITH_ITERATOR(child, fallback, run);
    if (UNEXPECTED(EG(exception) != nullptr)) {
      zend_exception_set_previous(EG(exception), fallback);
    } else if (!ZEND_ASYNC_EVENT_IS_EXCEPTION_HANDLED(&child->event)) {
      // Nobody took the rejection: the run ends with it.
      EG(exception) = fallback;
      fallback = nullptr;
    } else {
      OBJ_RELEASE(fallback);
      fallback = nullptr;
    }
  } else {
    if (Z_ISUNDEF(retval)) {
      // Not called: the source's result passes on.
      if (!Z_ISUNDEF(parent->result)) {
        ZVAL_COPY(&retval, &parent->result);
      } else {
        ZVAL_NULL(&retval);
      }
    }
    ZEND_FUTURE_COMPLETE_WITH_ITERATOR(child, &retval, run);
  }
  zval_ptr_dtor(&retval);

  if (ZEND_FUTURE_IS_EXCEPTION_CAUGHT(child)) {
    ZEND_FUTURE_SET_EXCEPTION_CAUGHT(parent);
  }
}

void FreeRun(ChainRun* run) {
  if (run->queue != nullptr) zend_array_destroy(run->queue);
  if (run->parent != nullptr) ZEND_ASYNC_EVENT_RELEASE(&run->parent->event);
  if (run->child != nullptr) OBJ_RELEASE(ObjectOf(run->child));
  efree(run);
}

// The body of the run's coroutine.
void RunChain(ChainRun* run) {
  if (run->queue == nullptr) {
    SettleChild(run->parent, run->child, nullptr);
    return;
  }
  // The queue grows while it is walked (SettleChild appends sources whose
  // futures it settled), so it is read by index.
  for (zend_ulong i = 0; EG(exception) == nullptr; i++) {
    zval* entry = zend_hash_index_find(run->queue, i);
    if (entry == nullptr) break;
    FutureObject* source = FutureObject::FromObject(Z_OBJ_P(entry));
    zend_future_t* parent = source->future();
    if (parent == nullptr || source->child_futures == nullptr) continue;
    zval* child;
    ZEND_HASH_FOREACH_VAL(source->child_futures, child) {
      SettleChild(parent, FutureObject::FromObject(Z_OBJ_P(child)), run);
      if (EG(exception) != nullptr) break;
    }
    ZEND_HASH_FOREACH_END();
  }
}

// Spawns the coroutine that carries out `run` for `source` (the future
// that settled, or the settled source of a single run) in `scope` (NULL:
// the current one). On failure the run is freed and the exception stays.
void StartRun(ChainRun* run, const zend_future_t* source,
              zend_async_scope_t* scope) {
  zend_coroutine_t* coroutine =
      internal::SpawnInternal<ChainRun, RunChain, FreeRun>(scope, run);
  if (coroutine != nullptr && ZEND_ASYNC_REF_TRACING()) {
    TraceFutureChain(source, coroutine);
  }
}

// The source's future settled. `iterator` is the run that settled it, or
// NULL at a tree's start.
void OnSourceSettled(zend_async_event_t* event,
                     zend_async_event_callback_t* callback, void* iterator,
                     zend_object* exception) {
  (void)exception;
  auto* subscription = reinterpret_cast<ChainSubscription*>(callback);
  FutureObject* source = subscription->source;
  if (source == nullptr || source->child_futures == nullptr ||
      zend_hash_num_elements(source->child_futures) == 0) {
    return;
  }

  zval entry;
  ZVAL_OBJ_COPY(&entry, ObjectOf(source));
  if (iterator != nullptr) {
    // Settled by a run: its derived futures join that run, and its
    // rejection is handled by them.
    zend_hash_next_index_insert(static_cast<ChainRun*>(iterator)->queue,
                                &entry);
    ZEND_ASYNC_EVENT_SET_EXCEPTION_HANDLED(event);
    return;
  }
  auto* run = static_cast<ChainRun*>(ecalloc(1, sizeof(ChainRun)));
  run->queue = zend_new_array(4);
  zend_hash_next_index_insert(run->queue, &entry);
  StartRun(run, reinterpret_cast<zend_future_t*>(event), subscription->scope);
}

void DisposeSubscription(zend_async_event_callback_t* callback,
                         zend_async_event_t* event) {
  (void)event;
  auto* subscription = reinterpret_cast<ChainSubscription*>(callback);
  if (subscription->source != nullptr) {
    FutureObject* source = subscription->source;
    subscription->source = nullptr;
    OBJ_RELEASE(ObjectOf(source));
  }
  if (subscription->scope != nullptr) {
    zend_async_scope_t* scope = subscription->scope;
    subscription->scope = nullptr;
    ZEND_ASYNC_EVENT_RELEASE(&scope->event);
  }
  efree(subscription);
}

// Registers `source`'s subscription to its own future (the first derived
// future). False with an exception when it could not be registered.
bool Subscribe(FutureObject* source, zend_future_t* future) {
  auto* subscription =
      static_cast<ChainSubscription*>(ecalloc(1, sizeof(ChainSubscription)));
  subscription->base.ref_count = 1;
  subscription->base.callback = OnSourceSettled;
  subscription->base.dispose = DisposeSubscription;
  subscription->source = source;
  GC_ADDREF(ObjectOf(source));
  subscription->scope = ZEND_ASYNC_CURRENT_SCOPE;
  if (subscription->scope != nullptr) {
    ZEND_ASYNC_EVENT_ADD_REF(&subscription->scope->event);
  }
  if (UNEXPECTED(!zend_async_callbacks_vector_push(&future->resolve_callbacks,
                                                   &subscription->base))) {
    DisposeSubscription(&subscription->base, &future->event);
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Failed to subscribe to source future");
    return false;
  }
  return true;
}

}  // namespace

void CreateMapper(zend_execute_data* execute_data, zval* return_value,
                  MapperType type) {
  zval* callable;
  ZEND_PARSE_PARAMETERS_START(1, 1)
  Z_PARAM_ZVAL(callable)
  ZEND_PARSE_PARAMETERS_END();

  if (UNEXPECTED(!zend_is_callable(callable, 0, nullptr))) {
    zend_argument_type_error(1, "must be of type callable, %s given",
                             zend_zval_type_name(callable));
    RETURN_THROWS();
  }
  FutureObject* source = FutureObject::FromObject(Z_OBJ_P(ZEND_THIS));
  zend_future_t* source_future = source->future();
  if (UNEXPECTED(source_future == nullptr)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT, "Future has no state");
    RETURN_THROWS();
  }

  zend_object* derived_object = NewFutureObject(NewFuture(false, 0));
  FutureObject* derived = FutureObject::FromObject(derived_object);
  ZVAL_COPY(&derived->mapper, callable);
  derived->mapper_type = type;
  ZEND_FUTURE_SET_USED(source_future);

  if (ZEND_FUTURE_IS_COMPLETED(source_future)) {
    auto* run = static_cast<ChainRun*>(ecalloc(1, sizeof(ChainRun)));
    run->parent = source_future;
    ZEND_ASYNC_EVENT_ADD_REF(&source_future->event);
    run->child = derived;
    GC_ADDREF(derived_object);
    StartRun(run, source_future, nullptr);
    if (UNEXPECTED(EG(exception) != nullptr)) {
      OBJ_RELEASE(derived_object);
      RETURN_THROWS();
    }
    RETURN_OBJ(derived_object);
  }

  if (source->child_futures == nullptr) {
    source->child_futures = zend_new_array(0);
    if (!Subscribe(source, source_future)) {
      OBJ_RELEASE(derived_object);
      RETURN_THROWS();
    }
  }
  zval child;
  ZVAL_OBJ_COPY(&child, derived_object);
  zend_hash_next_index_insert(source->child_futures, &child);
  RETURN_OBJ(derived_object);
}

}  // namespace zar::core
