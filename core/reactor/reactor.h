// zend-async-ref core: the libuv reactor, seen from the rest of core/.
//
// Everything else reaches the reactor only through the ABI
// (ZEND_ASYNC_REACTOR_*, ZEND_ASYNC_NEW_*_EVENT); these three functions are
// the extension's lifecycle hooks into it.
//
// Threading: all functions run on the request's thread.

#ifndef ZAR_CORE_REACTOR_REACTOR_H_
#define ZAR_CORE_REACTOR_REACTOR_H_

namespace zar::core {

// The module name the reactor registers under (one pointer, as identity).
extern char kReactorModuleName[];

// Registers the reactor through zend_async_reactor_register(). Called from
// the extension's MINIT. Returns the register function's result.
bool RegisterReactor();

// Closes every handle of the request's loop and runs the loop until every
// close has completed, so that no event memory outlives the request. Safe to
// call when the loop was never started, and more than once. Called from the
// extension's RSHUTDOWN.
void ShutdownReactorForRequest();

}  // namespace zar::core

#endif  // ZAR_CORE_REACTOR_REACTOR_H_
