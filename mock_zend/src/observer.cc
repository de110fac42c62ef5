// zend-async-ref: mock Zend engine. Fiber observers (zend_observer.h).
//
// Three process-wide lists of handlers, one per fiber event, appended to
// during startup and run in registration order by the notify functions;
// php_module_shutdown() empties them (ObserverShutdown), so a restarted
// engine starts with none, as PHP's zend_observer_shutdown() leaves it.
//
// Threading: registration happens during MINIT and notification on the
// engine's thread, as in PHP; the lists are not locked.

#include <vector>

#include "engine_internal.h"

extern "C" {
#include "zend_observer.h"
}

namespace {

std::vector<zend_observer_fiber_init_handler>& InitHandlers() {
  static auto* handlers = new std::vector<zend_observer_fiber_init_handler>;
  return *handlers;
}

std::vector<zend_observer_fiber_switch_handler>& SwitchHandlers() {
  static auto* handlers = new std::vector<zend_observer_fiber_switch_handler>;
  return *handlers;
}

std::vector<zend_observer_fiber_destroy_handler>& DestroyHandlers() {
  static auto* handlers = new std::vector<zend_observer_fiber_destroy_handler>;
  return *handlers;
}

}  // namespace

namespace mock_zend::internal {

void ObserverShutdown() {
  InitHandlers().clear();
  SwitchHandlers().clear();
  DestroyHandlers().clear();
}

}  // namespace mock_zend::internal

extern "C" {

void zend_observer_fiber_init_register(
    zend_observer_fiber_init_handler handler) {
  InitHandlers().push_back(handler);
}

void zend_observer_fiber_switch_register(
    zend_observer_fiber_switch_handler handler) {
  SwitchHandlers().push_back(handler);
}

void zend_observer_fiber_destroy_register(
    zend_observer_fiber_destroy_handler handler) {
  DestroyHandlers().push_back(handler);
}

// A new context has no observed frame yet (the mock never has one).
void zend_observer_fiber_init_notify(zend_fiber_context* initializing) {
  initializing->top_observed_frame = nullptr;
  for (zend_observer_fiber_init_handler handler : InitHandlers()) {
    handler(initializing);
  }
}

void zend_observer_fiber_switch_notify(zend_fiber_context* from,
                                       zend_fiber_context* to) {
  for (zend_observer_fiber_switch_handler handler : SwitchHandlers()) {
    handler(from, to);
  }
}

void zend_observer_fiber_destroy_notify(zend_fiber_context* destroying) {
  for (zend_observer_fiber_destroy_handler handler : DestroyHandlers()) {
    handler(destroying);
  }
}

}  // extern "C"
