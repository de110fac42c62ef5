// zend-async-trace: coroutines for scenarios and tests, through the ABI.
//
//   zar::trace::Spawn([&] { ... });   a new coroutine (runs when the
//                                     spawner suspends or ends)
//   zar::trace::Yield();              every coroutine queued now runs once
//   zar::trace::Delay(10);            waits 10 ms on a reactor timer
//   zar::trace::Await(coroutine);     waits until it has finished
//
// Everything goes through the ZEND_ASYNC_* macros, so a trace of a scenario
// shows exactly what the ABI calls do. Yield, Delay and Await from the main
// flow launch the scheduler first.
//
// Threading: the request's thread.

#ifndef ZAR_TOOLS_TRACE_COROUTINES_H_
#define ZAR_TOOLS_TRACE_COROUTINES_H_

#include <cstdint>
#include <functional>

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace zar::trace {

// Spawns a coroutine running `body`; nullptr (the exception pending) when
// the spawn fails. The pointer is borrowed: hold a CoroutineRef to use it
// after the coroutine may have finished. An exception `body` leaves is the
// coroutine's outcome.
zend_coroutine_t* Spawn(std::function<void()> body);

// A reference to a coroutine, released on destruction.
class CoroutineRef {
 public:
  explicit CoroutineRef(zend_coroutine_t* coroutine);
  ~CoroutineRef();
  CoroutineRef(const CoroutineRef&) = delete;
  CoroutineRef& operator=(const CoroutineRef&) = delete;
  zend_coroutine_t* get() const { return coroutine_; }

 private:
  zend_coroutine_t* coroutine_;
};

void Yield();
void Delay(uint32_t ms);
// Waits until `coroutine` finished; its exception, if any, is dropped.
void Await(zend_coroutine_t* coroutine);

// Releases EG(exception); returns whether there was one.
bool DropException();

}  // namespace zar::trace

#endif  // ZAR_TOOLS_TRACE_COROUTINES_H_
