// zend-async-ref: mock PHP. The process and request lifecycle
// (main/php_main.h) with the async hooks at upstream's call points, and
// php_printf.
//
// Threading: one engine per process, one request at a time, all on the
// thread that started the engine.

#include <vector>

#include "engine_internal.h"

extern "C" {
#include "Zend/zend_async_API.h"
}

namespace {

namespace internal = mock_zend::internal;

struct ShutdownCallback {
  void (*fn)(void* arg);
  void* arg;
};

bool module_started = false;
std::vector<zend_module_entry*>& Modules() {
  static auto* modules = new std::vector<zend_module_entry*>();
  return *modules;
}
std::vector<ShutdownCallback>& ShutdownCallbacks() {
  static auto* callbacks = new std::vector<ShutdownCallback>();
  return *callbacks;
}
php_mock_request_report last_report = {0, 0, 0, false};
bool request_bailed_out = false;

void ResetExecutorGlobals() {
  EG(exception) = nullptr;
  EG(prev_exception) = nullptr;
  EG(bailout) = nullptr;
  EG(exit_status) = 0;
  EG(current_execute_data) = nullptr;
  EG(flags) = 0;
  EG(fake_scope) = nullptr;
}

// Reports an exception left in flight as uncaught (without bailing out).
void ReportUncaught() {
  if (EG(exception) != nullptr) zend_exception_error(EG(exception), E_ERROR);
}

// The bottom of a stack caught a bailout: forget the abandoned frames.
void RecoverFromBailout(zend_execute_data* saved_frame) {
  zend_mock_release_bailout_frames();
  EG(current_execute_data) = saved_frame;
}

void RunSchedulerAfterMain(bool is_bailout) {
  zend_execute_data* saved_frame = EG(current_execute_data);
  zend_try { ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN(is_bailout); }
  zend_catch {
    request_bailed_out = true;
    RecoverFromBailout(saved_frame);
  }
  zend_end_try();
}

}  // namespace

extern "C" {

zend_result php_module_startup(zend_module_entry* const* modules,
                               uint32_t count) {
  if (module_started) return FAILURE;
  module_started = true;

  ResetExecutorGlobals();
  EG(active) = false;
  internal::KnownStringsStartup();
  internal::ClassTablesStartup();
  internal::ObjectsStoreStartup();
  internal::RegisterBuiltinClasses();
  zend_async_globals_ctor();
  zend_async_init_internal_context_api();

  Modules().assign(modules, modules + count);
  for (uint32_t i = 0; i < count; i++) {
    zend_module_entry* module = modules[i];
    module->module_number = static_cast<int>(i);
    module->module_started = 0;
    if (module->functions != nullptr) {
      zend_register_functions(nullptr, module->functions, nullptr,
                              MODULE_PERSISTENT);
    }
    if (module->module_startup_func != nullptr &&
        module->module_startup_func(MODULE_PERSISTENT, static_cast<int>(i)) !=
            SUCCESS) {
      return FAILURE;
    }
    module->module_started = 1;
  }
  return SUCCESS;
}

void php_module_shutdown(void) {
  if (!module_started) return;
  if (EG(active)) php_request_shutdown(nullptr);

  std::vector<zend_module_entry*>& modules = Modules();
  for (auto it = modules.rbegin(); it != modules.rend(); ++it) {
    zend_module_entry* module = *it;
    if (module->module_started && module->module_shutdown_func != nullptr) {
      module->module_shutdown_func(MODULE_PERSISTENT, module->module_number);
    }
    module->module_started = 0;
  }
  modules.clear();

  zend_async_api_shutdown();

  internal::ClassTablesShutdown();
  internal::ResetBuiltinClassPointers();
  internal::ResetLocationCache();
  internal::InternedStringsShutdown();
  module_started = false;
}

bool php_module_started(void) { return module_started; }

zend_result php_request_startup(void) {
  if (!module_started || EG(active)) return FAILURE;
  ResetExecutorGlobals();
  internal::ObjectsStoreStartup();
  ShutdownCallbacks().clear();
  request_bailed_out = false;
  EG(active) = true;

  volatile zend_result result = SUCCESS;  // read after a longjmp
  for (zend_module_entry* module : Modules()) {
    if (module->request_startup_func == nullptr) continue;
    zend_try {
      if (module->request_startup_func(MODULE_PERSISTENT,
                                       module->module_number) != SUCCESS) {
        result = FAILURE;
      }
    }
    zend_catch {
      result = FAILURE;
      RecoverFromBailout(nullptr);
    }
    zend_end_try();
  }
  return result;
}

bool php_execute_main(void (*main_fn)(void* arg), void* arg) {
  zend_execute_data* saved_frame = EG(current_execute_data);
  volatile bool bailed_out = false;  // written after a longjmp
  internal::SetMainScriptRunning(true);
  zend_try {
    main_fn(arg);
    if (EG(exception) != nullptr) {
      zend_exception_error(EG(exception), E_ERROR);
      zend_bailout();
    }
    ZEND_ASYNC_RUN_SCHEDULER_AFTER_MAIN(false);
    if (EG(exception) != nullptr) {
      zend_exception_error(EG(exception), E_ERROR);
      zend_bailout();
    }
    ZEND_ASYNC_INITIALIZE;
  }
  zend_catch {
    bailed_out = true;
    RecoverFromBailout(saved_frame);
    RunSchedulerAfterMain(true);
    ReportUncaught();
  }
  zend_end_try();
  internal::SetMainScriptRunning(false);
  if (bailed_out) request_bailed_out = true;
  return !bailed_out;
}

void php_request_shutdown(void* dummy) {
  (void)dummy;
  if (!EG(active)) return;

  // (1) Shutdown callbacks, in registration order (they may add more).
  std::vector<ShutdownCallback>& callbacks = ShutdownCallbacks();
  for (size_t i = 0; i < callbacks.size(); i++) {
    const ShutdownCallback callback = callbacks[i];
    zend_try { callback.fn(callback.arg); }
    zend_catch { RecoverFromBailout(nullptr); }
    zend_end_try();
    ReportUncaught();
  }
  callbacks.clear();

  // (2) The scheduler's last run; (3) async off.
  RunSchedulerAfterMain(false);
  ZEND_ASYNC_DEACTIVATE;

  // (4) RSHUTDOWN in reverse module order.
  std::vector<zend_module_entry*>& modules = Modules();
  for (auto it = modules.rbegin(); it != modules.rend(); ++it) {
    zend_module_entry* module = *it;
    if (module->request_shutdown_func == nullptr) continue;
    zend_try {
      module->request_shutdown_func(MODULE_PERSISTENT, module->module_number);
    }
    zend_catch { RecoverFromBailout(nullptr); }
    zend_end_try();
  }

  // (5) What the engine itself still holds.
  ReportUncaught();
  zend_clear_exception();
  internal::ReleaseRequestEnumCases();
  internal::DiscardBailoutFrames();

  // (6) The object store.
  last_report.objects_alive_at_shutdown = zend_objects_store_live_count();
  internal::ObjectsStoreShutdown();
  zend_clear_exception();

  // (7) Per-request engine state.
  internal::GcBufferFree();
  EG(current_execute_data) = nullptr;
  EG(bailout) = nullptr;

  // (8) The allocator's report.
  const zend_mm_leak_info leaks = zend_mm_check_leaks();
  EG(active) = false;
  last_report.leaked_blocks = leaks.leaked_blocks;
  last_report.leaked_bytes = leaks.leaked_bytes;
  last_report.bailed_out = request_bailed_out;
}

php_mock_request_report php_mock_last_request_report(void) {
  return last_report;
}

void php_mock_register_shutdown_callback(void (*fn)(void* arg), void* arg) {
  ShutdownCallbacks().push_back({fn, arg});
}

size_t php_printf(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const int written = vprintf(format, ap);
  va_end(ap);
  return written > 0 ? static_cast<size_t>(written) : 0;
}

}  // extern "C"
