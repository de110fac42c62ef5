// zend-async-trace: small built-in scenarios run with the reference
// implementation, traced (zend_async_ref/trace.h), to study the semantics
// of the pool and the scheduler without a debugger.
//
//   fifo-handoff          release hands the place to the oldest waiter;
//                         the releaser does not barge
//   timeout-hands-on      a reserved waiter times out and hands its place on
//   close-with-waiters    close wakes every waiter with "Pool is closed"
//   timer-wakeup          the shorter of two sleeps' timers fires first;
//                         its waker queues the coroutine, which runs again
//   channel-rendezvous    an unbuffered channel hands each value to the
//                         oldest receiver
//   pdo-transaction-pin   a transaction pins the only PDO slot; the other
//                         coroutine waits until commit
//
// RunScenario() starts the engine with the async extension (and PDO), runs
// the scenario as a request's main script with tracing to `out`, and ends
// the request. The output is deterministic: no addresses, no times (timers
// only order events), so it can be compared with a golden file.
//
// Threading: the calling thread; one scenario at a time, with no engine
// running already.

#ifndef ZAR_TOOLS_TRACE_SCENARIOS_H_
#define ZAR_TOOLS_TRACE_SCENARIOS_H_

#include <cstdio>
#include <string>
#include <vector>

namespace zar::trace {

struct Scenario {
  const char* name;
  const char* description;  // one line
  void (*run)(FILE* out);   // the request's main script
};

// Every scenario, in the order --list shows them.
const std::vector<Scenario>& Scenarios();
// The scenario called `name`, or nullptr.
const Scenario* FindScenario(const std::string& name);

// Runs `scenario` traced to `out`: a "# <name>: <description>" line, then
// the trace (with "#   ..." notes the scenario prints). Returns 0, or 1
// when the request leaked memory or objects, or bailed out (reported on
// `out` after the trace).
int RunScenario(const Scenario& scenario, FILE* out);

}  // namespace zar::trace

#endif  // ZAR_TOOLS_TRACE_SCENARIOS_H_
