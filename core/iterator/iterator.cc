// Async iterators (iterator.h).

#include "core/iterator/iterator.h"

#include <algorithm>
#include <new>

#include "absl/container/flat_hash_map.h"
#include "core/iterator/trace.h"

extern "C" {
#include "Zend/zend_API.h"
#include "Zend/zend_exceptions.h"
#include "Zend/zend_iterators.h"
#include "Zend/zend_operators.h"
}

namespace zar::core {
namespace {

// upstream's async_iterator_state_t.
enum class IteratorState {
  kInit,      // an object iterator not rewound yet
  kMoving,    // an object iterator's method is running (it may suspend)
  kStarted,   // elements are being handed out
  kFinished,  // no element will be handed out any more
};

// The reference's own state of one iterator, beside the caller's block
// (which may hold the caller's fields right after the ABI struct).
struct Iterator {
  zend_async_iterator_t* base;  // the ABI block; owned by its references
  IteratorState state = IteratorState::kInit;
  // Worker slots in use: taken when a worker is spawned (not when it
  // starts), so a spawn in flight counts against `concurrency`; never more
  // than base->concurrency when that is > 0.
  unsigned int active_coroutines = 0;
  zend_async_iterator_handler_t handler = nullptr;
  zend_fcall_t* fcall = nullptr;  // owned; released by the last reference
  zval array;                     // UNDEF for an object iterator; one ref
  // Arrays: the next bucket of `array` to visit. Object iterators: the
  // elements handed out so far, which is the next one's key when the source
  // has no get_current_key (foreach's auto-incrementing keys).
  uint32_t position = 0;
  zend_object_iterator* zend_iterator = nullptr;  // borrowed
  uint64_t id = 0;     // "Iterator#<id>" in trace lines
  uint64_t calls = 0;  // handler or callable calls so far (trace)
  bool done = false;   // the iteration's end was reached (traced once)
};

uint64_t last_iterator_id = 0;

// Block address -> state. Entries live from NewIterator to the last
// reference. Threading: the request's thread only (iterators never cross
// threads), hence thread_local.
absl::flat_hash_map<const zend_async_microtask_t*, Iterator*>& Registry() {
  thread_local absl::flat_hash_map<const zend_async_microtask_t*, Iterator*>
      registry;
  return registry;
}

Iterator* Find(const zend_async_microtask_t* microtask) {
  auto& registry = Registry();
  auto it = registry.find(microtask);
  return it == registry.end() ? nullptr : it->second;
}

Iterator* Find(const zend_async_iterator_t* iterator) {
  return iterator == nullptr ? nullptr : Find(&iterator->microtask);
}

// Notifies the completion event once with the iterator's exception, closes
// it and drops the iterator's reference to it.
void CompleteEvent(zend_async_iterator_t* base) {
  if (base->completion_event == nullptr) return;
  zend_async_event_t* event = base->completion_event;
  base->completion_event = nullptr;
  ZEND_ASYNC_CALLBACKS_NOTIFY_AND_CLOSE(event, nullptr, base->exception);
  ZEND_ASYNC_EVENT_RELEASE(event);
}

// Drops one reference (microtask.dtor). Called with ref_count >= 1 it is
// upstream's iterator_dtor: the last reference frees the block too. Called
// by ZEND_ASYNC_MICROTASK_RELEASE (which set ref_count to 0 and efree()s the
// block itself) it frees everything but the block.
void Dtor(zend_async_microtask_t* microtask) {
  if (microtask->ref_count > 1) {
    microtask->ref_count--;
    return;
  }
  const bool free_block = microtask->ref_count == 1;
  microtask->ref_count = 0;
  auto* base = reinterpret_cast<zend_async_iterator_t*>(microtask);
  Iterator* it = Find(microtask);

  if (base->extended_dtor != nullptr) {
    const zend_async_iterator_method_t extended_dtor = base->extended_dtor;
    base->extended_dtor = nullptr;
    extended_dtor(base);
  }
  if (it != nullptr) {
    Registry().erase(microtask);
    zval_ptr_dtor(&it->array);
    if (it->fcall != nullptr) zend_fcall_release(it->fcall);
    it->~Iterator();
    efree(it);
  }
  CompleteEvent(base);
  if (base->exception != nullptr) {
    zend_object* exception = base->exception;
    base->exception = nullptr;
    OBJ_RELEASE(exception);
  }
  if (free_block) efree(microtask);
}

void DropReference(zend_async_iterator_t* base) {
  base->microtask.dtor(&base->microtask);
}

// Finishes the iteration for every worker: nothing more is handed out and
// the microtask spawns no more workers.
void Finish(Iterator* it) {
  it->state = IteratorState::kFinished;
  it->base->microtask.is_cancelled = true;
}

// The iteration's end: traced once, then the completion event.
void Complete(Iterator* it) {
  if (!it->done) {
    it->done = true;
    if (ZEND_ASYNC_REF_TRACING()) {
      TraceIteratorDone(it->id, it->calls, it->base->exception);
    }
  }
  CompleteEvent(it->base);
}

// A worker leaves (after its loop, or disposed before it started): gives
// back its slot; the last one finishes the iteration and completes the
// event.
void ReleaseSlot(Iterator* it) {
  if (it->active_coroutines > 1) {
    it->active_coroutines--;
    return;
  }
  it->active_coroutines = 0;
  it->state = IteratorState::kFinished;
  Complete(it);
}

// Runs `move` (an object iterator's method, which may suspend) with the
// iterator marked moving: no worker is spawned meanwhile. Queues the
// microtask again when the scheduler consumed it while it was cancelled
// (its ref_count changed).
template <typename Move>
void SafeMove(Iterator* it, Move move) {
  zend_async_microtask_t* microtask = &it->base->microtask;
  it->state = IteratorState::kMoving;
  microtask->is_cancelled = true;
  const uint32_t ref_count = microtask->ref_count;
  move();
  it->state = IteratorState::kStarted;
  microtask->is_cancelled = false;
  if (ref_count != microtask->ref_count) ZEND_ASYNC_ADD_MICROTASK(microtask);
}

// Skips deleted buckets; NULL past the end.
zval* CurrentArrayElement(Iterator* it) {
  HashTable* ht = Z_ARRVAL(it->array);
  while (it->position < ht->nNumUsed &&
         Z_TYPE(ht->arData[it->position].val) == IS_UNDEF) {
    it->position++;
  }
  if (it->position >= ht->nNumUsed) return nullptr;
  return &ht->arData[it->position].val;
}

void CurrentArrayKey(Iterator* it, zval* key) {
  const Bucket* bucket = &Z_ARRVAL(it->array)->arData[it->position];
  if (bucket->key != nullptr) {
    ZVAL_STR_COPY(key, bucket->key);
  } else {
    ZVAL_LONG(key, static_cast<zend_long>(bucket->h));
  }
}

// The loop every worker runs (upstream's iterate()). Each turn takes the
// current element and key, moves the shared position on, then calls the
// callable or the handler.
void Iterate(Iterator* it) {
  if (it->state == IteratorState::kMoving) return;
  const bool is_array = it->zend_iterator == nullptr;

  // A copy of the call, so that a handler starting another worker does not
  // overwrite this worker's arguments: (value, key, further params...).
  zend_fcall_info fci;
  zval retval;
  ZVAL_UNDEF(&retval);
  uint32_t param_count = 0;
  if (it->fcall != nullptr) {
    fci = it->fcall->fci;
    param_count = std::max<uint32_t>(fci.param_count, 2);
    fci.params = static_cast<zval*>(safe_emalloc(param_count, sizeof(zval), 0));
    for (uint32_t i = 0; i < param_count; i++) {
      if (i >= 2 && i < it->fcall->fci.param_count) {
        ZVAL_COPY(&fci.params[i], &it->fcall->fci.params[i]);
      } else {
        ZVAL_UNDEF(&fci.params[i]);
      }
    }
    fci.param_count = param_count;
    fci.retval = &retval;
  }
  auto free_params = [&] {
    if (it->fcall == nullptr) return;
    for (uint32_t i = 0; i < param_count; i++) zval_ptr_dtor(&fci.params[i]);
    efree(fci.params);
  };

  if (is_array) {
    if (it->state == IteratorState::kInit) it->state = IteratorState::kStarted;
  } else if (it->state == IteratorState::kInit) {
    it->state = IteratorState::kStarted;
    if (it->zend_iterator->funcs->rewind != nullptr) {
      SafeMove(it,
               [&] { it->zend_iterator->funcs->rewind(it->zend_iterator); });
    }
    if (EG(exception) != nullptr) {
      Finish(it);
      free_params();
      return;
    }
  }

  while (it->state != IteratorState::kFinished) {
    if (it->state == IteratorState::kMoving) break;

    zval* current = nullptr;
    zval current_item;
    ZVAL_UNDEF(&current_item);
    zval key;
    ZVAL_UNDEF(&key);

    if (is_array) {
      current = CurrentArrayElement(it);
    } else if (it->zend_iterator->funcs->valid(it->zend_iterator) == SUCCESS) {
      if (EG(exception) != nullptr) break;
      SafeMove(it, [&] {
        current = it->zend_iterator->funcs->get_current_data(it->zend_iterator);
      });
      if (EG(exception) != nullptr) break;
      if (current != nullptr) {
        ZVAL_COPY(&current_item, current);
        current = &current_item;
      }
    }
    if (EG(exception) != nullptr) break;
    if (current == nullptr) {
      Finish(it);
      break;
    }

    if (is_array) {
      CurrentArrayKey(it, &key);
      // Moves on before the call, as foreach does: a handler that
      // suspends lets the next worker take the next element.
      it->position++;
    } else {
      if (it->zend_iterator->funcs->get_current_key != nullptr) {
        SafeMove(it, [&] {
          it->zend_iterator->funcs->get_current_key(it->zend_iterator, &key);
        });
      } else {
        ZVAL_LONG(&key, static_cast<zend_long>(it->position));
      }
      it->position++;
      if (EG(exception) != nullptr) {
        zval_ptr_dtor(&current_item);
        zval_ptr_dtor(&key);
        break;
      }
      SafeMove(it, [&] {
        it->zend_iterator->funcs->move_forward(it->zend_iterator);
      });
      if (EG(exception) != nullptr) {
        zval_ptr_dtor(&current_item);
        zval_ptr_dtor(&key);
        break;
      }
    }

    zend_result result;
    it->calls++;
    if (it->fcall != nullptr) {
      ZVAL_COPY(&fci.params[0], current);
      ZVAL_COPY(&fci.params[1], &key);
      result = zend_call_function(&fci, &it->fcall->fci_cache);
    } else {
      result = it->handler(it->base, current, &key);
    }
    zval_ptr_dtor(&current_item);
    zval_ptr_dtor(&key);

    if (result == SUCCESS) {
      if (Z_TYPE(retval) == IS_FALSE) Finish(it);
      zval_ptr_dtor(&retval);
      ZVAL_UNDEF(&retval);
    }
    if (it->fcall != nullptr) {
      zval_ptr_dtor(&fci.params[0]);
      ZVAL_UNDEF(&fci.params[0]);
      zval_ptr_dtor(&fci.params[1]);
      ZVAL_UNDEF(&fci.params[1]);
    }
    if (result == FAILURE || EG(exception) != nullptr) {
      Finish(it);
      break;
    }
  }
  // Thrown by the object iterator's methods: finishes too.
  if (EG(exception) != nullptr) Finish(it);
  free_params();
}

// upstream's async_iterator_apply_exception: a thrown exception other than
// a cancellation moves into `exception` and cancels the scope.
void ApplyException(zend_async_iterator_t* base) {
  zend_object* thrown = EG(exception);
  if (thrown == nullptr ||
      instanceof_function(
          thrown->ce, ZEND_ASYNC_GET_CE(ZEND_ASYNC_EXCEPTION_CANCELLATION))) {
    return;
  }
  GC_ADDREF(thrown);
  zend_clear_exception();
  if (base->exception != nullptr) {
    zend_exception_set_previous(thrown, base->exception);
  }
  base->exception = thrown;

  zend_async_scope_t* scope = base->scope;
  if (scope == nullptr || ZEND_ASYNC_SCOPE_IS_CANCELLED(scope)) return;
  ZEND_ASYNC_SCOPE_CANCEL(
      scope,
      zend_async_new_exception(
          ZEND_ASYNC_EXCEPTION_CANCELLATION,
          "Cancellation of the iterator due to an exception"),
      true, ZEND_ASYNC_SCOPE_IS_DISPOSE_SAFELY(scope));
}

// iterator->run (upstream's async_iterator_run).
void Run(zend_async_iterator_t* base) {
  if (UNEXPECTED(ZEND_ASYNC_IS_SCHEDULER_CONTEXT)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "The iterator cannot be run in the scheduler context");
    return;
  }
  Iterator* it = Find(base);
  if (it == nullptr) return;
  if (base->scope == nullptr) base->scope = ZEND_ASYNC_CURRENT_SCOPE;

  ZEND_ASYNC_ADD_MICROTASK(&base->microtask);
  Iterate(it);
  ApplyException(base);

  if (it->state == IteratorState::kFinished && it->active_coroutines == 0) {
    Complete(it);
  }
}

// A worker's body: runs the loop, gives back its slot and its reference.
void WorkerEntry() {
  zend_coroutine_t* coroutine = ZEND_ASYNC_CURRENT_COROUTINE;
  if (UNEXPECTED(coroutine == nullptr || coroutine->extended_data == nullptr)) {
    zend_async_throw(ZEND_ASYNC_EXCEPTION_DEFAULT,
                     "Invalid coroutine context for concurrent iterator");
    return;
  }
  auto* base = static_cast<zend_async_iterator_t*>(coroutine->extended_data);
  coroutine->extended_data = nullptr;

  Run(base);
  if (Iterator* it = Find(base)) ReleaseSlot(it);
  DropReference(base);
}

// extended_dispose of a worker: extended_data is still set only when the
// worker never started (cancelled first); it gives back the slot and the
// reference.
void WorkerDispose(zend_coroutine_t* coroutine) {
  if (coroutine->extended_data == nullptr) return;
  auto* base = static_cast<zend_async_iterator_t*>(coroutine->extended_data);
  coroutine->extended_data = nullptr;
  if (Iterator* it = Find(base)) ReleaseSlot(it);
  DropReference(base);
}

// Same, rethrowing the iterator's exception first (run_in_coroutine with
// throw_exception).
void WorkerDisposeWithException(zend_coroutine_t* coroutine) {
  if (coroutine->extended_data == nullptr) return;
  auto* base = static_cast<zend_async_iterator_t*>(coroutine->extended_data);
  if (base->exception != nullptr) {
    zend_object* exception = base->exception;
    base->exception = nullptr;
    // One in flight becomes its previous (PHP's own chaining).
    zend_throw_exception_internal(exception);
  }
  WorkerDispose(coroutine);
}

// The microtask's handler: spawns one more worker unless the iteration is
// over or every slot is taken.
void SpawnWorker(zend_async_microtask_t* microtask) {
  Iterator* it = Find(microtask);
  if (it == nullptr || it->state == IteratorState::kFinished) return;
  zend_async_iterator_t* base = it->base;
  if (base->concurrency > 0 && it->active_coroutines >= base->concurrency) {
    return;
  }
  zend_coroutine_t* coroutine =
      ZEND_ASYNC_SPAWN_WITH_SCOPE_EX(base->scope, base->priority);
  if (coroutine == nullptr) return;
  ZEND_ASYNC_MICROTASK_ADD_REF(microtask);
  it->active_coroutines++;
  coroutine->internal_entry = WorkerEntry;
  coroutine->extended_data = base;
  coroutine->extended_dispose = WorkerDispose;
  if (ZEND_ASYNC_REF_TRACING()) {
    TraceIteratorWorker(it->id, coroutine, it->active_coroutines,
                        base->concurrency);
  }
}

// iterator->run_in_coroutine (upstream's async_iterator_run_in_coroutine):
// the coroutine takes a slot and the caller's reference.
void RunInCoroutine(zend_async_iterator_t* base, int32_t priority,
                    bool throw_exception) {
  Iterator* it = Find(base);
  if (it == nullptr) return;
  if (base->scope == nullptr) base->scope = ZEND_ASYNC_CURRENT_SCOPE;
  zend_coroutine_t* coroutine =
      ZEND_ASYNC_SPAWN_WITH_SCOPE_EX(base->scope, priority);
  if (UNEXPECTED(coroutine == nullptr || EG(exception) != nullptr)) return;
  it->active_coroutines++;
  coroutine->extended_data = base;
  coroutine->internal_entry = WorkerEntry;
  coroutine->extended_dispose =
      throw_exception ? WorkerDisposeWithException : WorkerDispose;
  if (ZEND_ASYNC_REF_TRACING()) {
    TraceIteratorWorker(it->id, coroutine, it->active_coroutines,
                        base->concurrency);
  }
}

}  // namespace

zend_async_iterator_t* NewIterator(
    zval* array, zend_object_iterator* zend_iterator, zend_fcall_t* fcall,
    zend_async_iterator_handler_t handler, zend_async_scope_t* scope,
    unsigned int concurrency, int32_t priority, size_t iterator_size) {
  if (zend_iterator == nullptr &&
      (array == nullptr || Z_TYPE_P(array) != IS_ARRAY)) {
    zend_error(E_ERROR, "Invalid iterator: futures and iterator are NULL");
    return nullptr;
  }
  if (fcall == nullptr && handler == nullptr) {
    zend_error(E_ERROR,
               "Invalid iterator function: fcall and internal are NULL");
    return nullptr;
  }

  const size_t size = std::max(iterator_size, sizeof(zend_async_iterator_t));
  auto* base = static_cast<zend_async_iterator_t*>(ecalloc(1, size));
  base->microtask.handler = SpawnWorker;
  base->microtask.dtor = Dtor;
  base->microtask.ref_count = 1;
  base->run = Run;
  base->run_in_coroutine = RunInCoroutine;
  base->concurrency = concurrency;
  base->priority = priority;
  base->scope = scope != nullptr ? scope : ZEND_ASYNC_CURRENT_SCOPE;

  auto* it = new (emalloc(sizeof(Iterator))) Iterator();
  it->base = base;
  it->id = ++last_iterator_id;
  ZVAL_UNDEF(&it->array);
  if (zend_iterator == nullptr) {
    ZVAL_COPY(&it->array, array);
  } else {
    it->zend_iterator = zend_iterator;
  }
  if (fcall != nullptr) {
    it->fcall = fcall;
  } else {
    it->handler = handler;
  }
  Registry()[&base->microtask] = it;
  return base;
}

void ResetIteratorIds() { last_iterator_id = 0; }

}  // namespace zar::core
