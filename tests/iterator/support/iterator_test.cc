#include "tests/iterator/support/iterator_test.h"

#include <algorithm>
#include <cstring>
#include <new>

extern "C" {
#include "Zend/zend_exceptions.h"
}

namespace zar::iterator_testing {

bool RunProbe(Probe* probe, zval* current, zval* key) {
  const std::string entry = Render(key) + "=" + Render(current);
  probe->calls++;
  if (probe->yields == 0) {
    probe->log->push_back(entry);
  } else {
    probe->running++;
    probe->max_running = std::max(probe->max_running, probe->running);
    probe->log->push_back("start " + entry);
    bool resumed = true;
    for (int i = 0; i < probe->yields && resumed; i++) {
      resumed = zar::testing::Yield();
    }
    probe->log->push_back((resumed ? "end " : "cancelled ") + entry);
    probe->running--;
    if (!resumed) return true;  // the cancellation stays in flight
  }
  if (!probe->fail_at.empty() && Render(key) == probe->fail_at) {
    if (probe->fail_by_failure) return false;
    zend_throw_exception(zend_ce_exception,
                         ("failed at " + probe->fail_at).c_str(), 0);
  }
  return true;
}

zend_result ProbeHandler(zend_async_iterator_t* iterator, zval* current,
                         zval* key) {
  auto* probe = static_cast<Probe*>(iterator->extended_data);
  return RunProbe(probe, current, key) ? SUCCESS : FAILURE;
}

zend_fcall_t* NewFcall(Zval& closure) {
  auto* fcall = static_cast<zend_fcall_t*>(ecalloc(1, sizeof(zend_fcall_t)));
  if (zend_fcall_info_init(closure.get(), 0, &fcall->fci, &fcall->fci_cache,
                           nullptr, nullptr) != SUCCESS) {
    efree(fcall);
    return nullptr;
  }
  fcall->fci.param_count = 2;
  fcall->fci.params = static_cast<zval*>(safe_emalloc(2, sizeof(zval), 0));
  ZVAL_UNDEF(&fcall->fci.params[0]);
  ZVAL_UNDEF(&fcall->fci.params[1]);
  Z_TRY_ADDREF(fcall->fci.function_name);
  return fcall;
}

Zval ProbeClosure(Probe* probe, bool return_false_at_fail) {
  Zval closure;
  mock_zend::MakeCallable(
      closure.get(), [probe, return_false_at_fail](mock_zend::Call& call) {
        zval* value = call.argc() > 0 ? call.arg(0) : nullptr;
        zval* key = call.argc() > 1 ? call.arg(1) : nullptr;
        zval none;
        ZVAL_NULL(&none);
        const bool failed = (return_false_at_fail && !probe->fail_at.empty() &&
                             key != nullptr && Render(key) == probe->fail_at);
        if (failed) {
          probe->calls++;
          probe->log->push_back(Render(key) + "=" + Render(value) +
                                " returns false");
          ZVAL_FALSE(call.result());
          return;
        }
        RunProbe(probe, value != nullptr ? value : &none,
                 key != nullptr ? key : &none);
      });
  return closure;
}

Zval LongArray(std::vector<zend_long> values) {
  Zval array;
  array_init(array.get());
  for (zend_long value : values) add_next_index_long(array.get(), value);
  return array;
}

Zval AssocArray(std::vector<std::pair<std::string, zend_long>> entries) {
  Zval array;
  array_init(array.get());
  for (const auto& [key, value] : entries) {
    add_assoc_long_ex(array.get(), key.c_str(), key.size(), value);
  }
  return array;
}

namespace {

bool AddCallback(zend_async_event_t* event,
                 zend_async_event_callback_t* callback) {
  return zend_async_callbacks_push(event, callback);
}

bool DelCallback(zend_async_event_t* event,
                 zend_async_event_callback_t* callback) {
  return zend_async_callbacks_remove(event, callback);
}

bool StartStop(zend_async_event_t*) { return true; }

bool DisposeEvent(zend_async_event_t* event) {
  auto* completion = reinterpret_cast<CompletionEvent*>(event);
  if (completion->disposed != nullptr) *completion->disposed = true;
  zend_async_callbacks_free(event);
  efree(event);
  return true;
}

struct Counter {
  zend_async_event_callback_t base;
  int* count;
};

void Count(zend_async_event_t* event, zend_async_event_callback_t* callback,
           void*, zend_object* exception) {
  auto* completion = reinterpret_cast<CompletionEvent*>(event);
  (*reinterpret_cast<Counter*>(callback)->count)++;
  if (completion->exceptions != nullptr) {
    *completion->exceptions +=
        exception != nullptr ? zend_mock_exception_message(exception) : "-";
    *completion->exceptions += ";";
  }
}

void DisposeCounter(zend_async_event_callback_t* callback,
                    zend_async_event_t*) {
  efree(callback);
}

}  // namespace

zend_async_event_t* NewCompletionEvent(std::string* exceptions,
                                       bool* disposed) {
  auto* event =
      static_cast<CompletionEvent*>(ecalloc(1, sizeof(CompletionEvent)));
  event->base.ref_count = 1;
  event->base.add_callback = AddCallback;
  event->base.del_callback = DelCallback;
  event->base.start = StartStop;
  event->base.stop = StartStop;
  event->base.dispose = DisposeEvent;
  event->exceptions = exceptions;
  event->disposed = disposed;
  return &event->base;
}

void CountNotifications(zend_async_event_t* event, int* count) {
  auto* counter = static_cast<Counter*>(ecalloc(1, sizeof(Counter)));
  counter->base.ref_count = 1;
  counter->base.callback = Count;
  counter->base.dispose = DisposeCounter;
  counter->count = count;
  event->add_callback(event, &counter->base);
}

namespace {

VectorIterator* Self(zend_object_iterator* iter) {
  return reinterpret_cast<VectorIterator*>(iter);
}

// Logs the method; throws or yields when told to; false when it threw.
bool Enter(VectorIterator* it, const char* method) {
  if (it->log != nullptr) it->log->push_back(method);
  if (it->yield_in == method) zar::testing::Yield();
  if (it->throw_in == method) {
    zend_throw_exception(zend_ce_exception,
                         (std::string("iterator ") + method).c_str(), 0);
    return false;
  }
  return true;
}

void IteratorDtor(zend_object_iterator*) {}

zend_result Valid(zend_object_iterator* iter) {
  VectorIterator* it = Self(iter);
  if (!Enter(it, "valid")) return FAILURE;
  return it->index < it->items->size() ? SUCCESS : FAILURE;
}

zval* Current(zend_object_iterator* iter) {
  VectorIterator* it = Self(iter);
  if (!Enter(it, "current")) return nullptr;
  ZVAL_LONG(&it->current, (*it->items)[it->index].second);
  return &it->current;
}

void Key(zend_object_iterator* iter, zval* key) {
  VectorIterator* it = Self(iter);
  if (!Enter(it, "key")) {
    ZVAL_NULL(key);
    return;
  }
  ZVAL_LONG(key, (*it->items)[it->index].first);
}

void Next(zend_object_iterator* iter) {
  VectorIterator* it = Self(iter);
  if (!Enter(it, "next")) return;
  it->index++;
}

void Rewind(zend_object_iterator* iter) {
  VectorIterator* it = Self(iter);
  if (!Enter(it, "rewind")) return;
  it->index = 0;
}

const zend_object_iterator_funcs kVectorFuncs = {
    IteratorDtor, Valid, Current, Key, Next, Rewind, nullptr, nullptr};

}  // namespace

VectorIterator* NewVectorIterator(
    std::vector<std::pair<zend_long, zend_long>>* items, Log* log) {
  auto* it = static_cast<VectorIterator*>(ecalloc(1, sizeof(VectorIterator)));
  new (&it->throw_in) std::string();
  new (&it->yield_in) std::string();
  it->base.funcs = &kVectorFuncs;
  it->items = items;
  it->log = log;
  ZVAL_UNDEF(&it->current);
  return it;
}

bool RunInCoroutineAndWait(zend_async_iterator_t* iterator) {
  zend_async_event_t* completion = iterator->completion_event;
  ZEND_ASYNC_EVENT_ADD_REF(completion);
  iterator->run_in_coroutine(iterator, 0, false);
  const bool completed = zar::testing::WaitFor(completion);
  ZEND_ASYNC_EVENT_RELEASE(completion);
  return completed;
}

void FreeVectorIterator(VectorIterator* iterator) {
  iterator->throw_in.~basic_string();
  iterator->yield_in.~basic_string();
  efree(iterator);
}

}  // namespace zar::iterator_testing
