// zend-async-ref: mock PHP. The process and request lifecycle
// (main/php_main.h) with the async hooks at upstream's call points, the
// module registry (built-in and additional extensions), php_printf and
// php_output_write (php_output.h).
//
// Threading: one engine per process, one request at a time, all on the
// thread that started the engine.

#include <strings.h>

#include <algorithm>
#include <string>
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
// True while php_module_startup() registers modules: the only time
// php_register_extensions() may add to Modules().
bool registering_modules = false;
// The loaded modules in registration order (module_number = index).
std::vector<zend_module_entry*>& Modules() {
  static auto* modules = new std::vector<zend_module_entry*>();
  return *modules;
}
// The program's built-in extensions (php_mock_add_builtin_extension).
std::vector<zend_module_entry*>& BuiltinExtensions() {
  static auto* modules = new std::vector<zend_module_entry*>();
  return *modules;
}
std::vector<ShutdownCallback>& ShutdownCallbacks() {
  static auto* callbacks = new std::vector<ShutdownCallback>();
  return *callbacks;
}
php_mock_request_report last_report = {0, 0, 0, false, 0};
bool request_bailed_out = false;
// The fatal errors of the current (or last) request, oldest first.
std::vector<std::string>& RequestFatalErrors() {
  static auto* errors = new std::vector<std::string>();
  return *errors;
}

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

// PHP's zend_register_module_ex for a persistent module: refuses NULL and
// a second module of the same (case-insensitive) name, numbers it, and runs
// its globals constructor.
bool RegisterModule(zend_module_entry* module) {
  if (module == nullptr || module->name == nullptr) {
    zend_error(E_CORE_WARNING, "Cannot register a module without a name");
    return false;
  }
  std::vector<zend_module_entry*>& modules = Modules();
  for (const zend_module_entry* loaded : modules) {
    if (strcasecmp(loaded->name, module->name) == 0) {
      zend_error(E_CORE_WARNING, "Module \"%s\" is already loaded",
                 module->name);
      return false;
    }
  }
  module->module_number = static_cast<int>(modules.size());
  module->module_started = 0;
  module->type = MODULE_PERSISTENT;
  modules.push_back(module);
  if (module->globals_size != 0 && module->globals_ptr != nullptr &&
      module->globals_ctor != nullptr) {
    module->globals_ctor(module->globals_ptr);
  }
  return true;
}

// Registers the built-ins, then `additional` (count entries, NULLs skipped
// only among built-ins, as php_register_extensions does), then MINITs all.
zend_result StartModules(sapi_module_struct* sf,
                         zend_module_entry* const* additional, uint32_t count) {
  if (module_started) return SUCCESS;  // PHP: module_initialized
  if (sf == nullptr) {
    zend_error(E_CORE_WARNING,
               "php_module_startup() needs a SAPI module struct");
    return FAILURE;
  }
  if (additional == nullptr && count != 0) {
    zend_error(E_CORE_WARNING, "php_mock_module_startup(): %u modules at NULL",
               count);
    return FAILURE;
  }
  module_started = true;
  sapi_module = *sf;

  internal::AllocStartup();
  ResetExecutorGlobals();
  EG(active) = false;
  internal::KnownStringsStartup();
  internal::ClassTablesStartup();
  internal::CompilerGlobalsStartup();
  internal::ConstantsStartup();
  internal::IniStartup();
  internal::ExitClassesStartup();
  internal::ObjectsStoreStartup();
  internal::RegisterBuiltinClasses();
  zend_async_globals_ctor();
  zend_async_init_internal_context_api();

  // Registration: built-ins, then the additional modules.
  Modules().clear();
  registering_modules = true;
  const int builtins = php_register_internal_extensions_func != nullptr
                           ? php_register_internal_extensions_func()
                           : SUCCESS;
  bool registered = builtins == SUCCESS;
  if (!registered) php_printf("Unable to start builtin modules\n");
  for (uint32_t i = 0; registered && i < count; i++) {
    registered = RegisterModule(additional[i]);
  }
  registering_modules = false;
  if (!registered) return FAILURE;

  // Startup, in registration order (zend_startup_modules).
  for (zend_module_entry* module : Modules()) {
    if (module->functions != nullptr) {
      zend_register_functions(nullptr, module->functions, nullptr,
                              MODULE_PERSISTENT);
    }
    if (module->module_startup_func != nullptr &&
        module->module_startup_func(MODULE_PERSISTENT, module->module_number) !=
            SUCCESS) {
      zend_error(E_CORE_WARNING, "Unable to start \"%s\" module", module->name);
      return FAILURE;
    }
    module->module_started = 1;
  }

  // The SAPI's own functions (PHP adds them to the "standard" module).
  if (sapi_module.additional_functions != nullptr) {
    zend_register_functions(nullptr, sapi_module.additional_functions, nullptr,
                            MODULE_PERSISTENT);
  }
  return SUCCESS;
}

}  // namespace

void mock_zend::internal::NoteRequestFatalError(const std::string& message) {
  RequestFatalErrors().push_back(message);
}

extern "C" {

int (*php_register_internal_extensions_func)(void) =
    php_register_internal_extensions;

int php_register_internal_extensions(void) {
  const std::vector<zend_module_entry*>& builtins = BuiltinExtensions();
  return php_register_extensions(builtins.data(),
                                 static_cast<int>(builtins.size()));
}

zend_result php_register_extensions(zend_module_entry* const* ptr, int count) {
  if (!registering_modules) {
    zend_error(E_CORE_WARNING,
               "php_register_extensions() is only valid during "
               "php_module_startup()");
    return FAILURE;
  }
  if (ptr == nullptr) return count == 0 ? SUCCESS : FAILURE;
  for (int i = 0; i < count; i++) {
    if (ptr[i] != nullptr && !RegisterModule(ptr[i])) return FAILURE;
  }
  return SUCCESS;
}

zend_result php_module_startup(sapi_module_struct* sf,
                               zend_module_entry* additional_module) {
  return StartModules(sf, &additional_module,
                      additional_module != nullptr ? 1 : 0);
}

zend_result php_mock_module_startup(sapi_module_struct* sf,
                                    zend_module_entry* const* modules,
                                    uint32_t count) {
  return StartModules(sf, modules, count);
}

int php_module_shutdown_wrapper(sapi_module_struct* sapi_globals) {
  (void)sapi_globals;
  php_module_shutdown();
  return SUCCESS;
}

zend_result php_mock_add_builtin_extension(zend_module_entry* module) {
  if (module == nullptr || module_started) return FAILURE;
  std::vector<zend_module_entry*>& builtins = BuiltinExtensions();
  if (std::find(builtins.begin(), builtins.end(), module) == builtins.end()) {
    builtins.push_back(module);
  }
  return SUCCESS;
}

zend_result php_mock_clear_builtin_extensions(void) {
  if (module_started) return FAILURE;
  BuiltinExtensions().clear();
  return SUCCESS;
}

void php_module_shutdown(void) {
  if (!module_started) return;
  // As PHP's main.c: no child thread of the reactor may outlive the modules.
  ZEND_ASYNC_REACTOR_QUIESCE();
  if (EG(active)) php_request_shutdown(nullptr);

  std::vector<zend_module_entry*>& modules = Modules();
  for (auto it = modules.rbegin(); it != modules.rend(); ++it) {
    zend_module_entry* module = *it;
    if (module->module_started && module->module_shutdown_func != nullptr) {
      module->module_shutdown_func(MODULE_PERSISTENT, module->module_number);
    }
    module->module_started = 0;
    if (module->globals_size != 0 && module->globals_ptr != nullptr &&
        module->globals_dtor != nullptr) {
      module->globals_dtor(module->globals_ptr);
    }
  }
  modules.clear();

  zend_async_api_shutdown();

  internal::ObserverShutdown();
  internal::MapPtrShutdown();
  internal::ConstantsShutdown();
  internal::IniShutdown();
  internal::ClearLastError();
  internal::ClassTablesShutdown();
  internal::CompilerGlobalsShutdown();
  internal::ResetBuiltinClassPointers();
  internal::ResetLocationCache();
  internal::InternedStringsShutdown();
  internal::AllocShutdown();
  module_started = false;
}

bool php_module_started(void) { return module_started; }

zend_result php_request_startup(void) {
  if (!module_started || EG(active)) return FAILURE;
  ResetExecutorGlobals();
  internal::FibersStartup();
  zend_map_ptr_reset();
  internal::ObjectsStoreStartup();
  ShutdownCallbacks().clear();
  request_bailed_out = false;
  RequestFatalErrors().clear();
  EG(active) = true;
  sapi_activate();

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
  zend_mock_release_bailout_frames();

  // (6) The object store.
  last_report.objects_alive_at_shutdown = zend_objects_store_live_count();
  internal::ObjectsStoreShutdown();
  zend_clear_exception();

  // (6b) The async engine's teardown, where PHP's zend_deactivate calls it:
  // after shutdown_executor(), so every object is destroyed and the
  // extension may shut its reactor down and free its request state
  // (ZEND_ASYNC_ENGINE_SHUTDOWN; the default hook does nothing). A
  // scheduler registered with a NULL hook has nothing to shut down here
  // (PHP would call through the NULL pointer).
  zend_try {
    if (zend_async_engine_shutdown_fn != nullptr) ZEND_ASYNC_ENGINE_SHUTDOWN();
  }
  zend_catch { RecoverFromBailout(nullptr); }
  zend_end_try();

  // (7) Per-request engine state; the SAPI's end of the request.
  internal::GcBufferFree();
  internal::HashIteratorsShutdown();
  internal::FibersShutdown();
  internal::ConstantsRequestShutdown();
  internal::ClearLastError();
  EG(current_execute_data) = nullptr;
  EG(bailout) = nullptr;
  sapi_deactivate();

  // (8) The allocator's report.
  const zend_mm_leak_info leaks = zend_mm_check_leaks();
  EG(active) = false;
  last_report.leaked_blocks = leaks.leaked_blocks;
  last_report.leaked_bytes = leaks.leaked_bytes;
  last_report.bailed_out = request_bailed_out;
  last_report.fatal_errors = static_cast<uint32_t>(RequestFatalErrors().size());
}

php_mock_request_report php_mock_last_request_report(void) {
  return last_report;
}

const char* php_mock_request_fatal_error(uint32_t index) {
  const std::vector<std::string>& errors = RequestFatalErrors();
  return index < errors.size() ? errors[index].c_str() : nullptr;
}

void php_mock_register_shutdown_callback(void (*fn)(void* arg), void* arg) {
  ShutdownCallbacks().push_back({fn, arg});
}

// Output goes to the SAPI's ub_write when it has one, else to stdout.
size_t php_printf(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  if (sapi_module.ub_write != nullptr) {
    const std::string text = internal::VFormat(format, ap);
    va_end(ap);
    return sapi_module.ub_write(text.data(), text.size());
  }
  const int written = vprintf(format, ap);
  va_end(ap);
  return written > 0 ? static_cast<size_t>(written) : 0;
}

size_t php_output_write(const char* str, size_t len) {
  if (sapi_module.ub_write != nullptr) {
    return sapi_module.ub_write(str, len);
  }
  return fwrite(str, 1, len, stdout);
}

size_t php_output_write_with_coroutine(const char* str, size_t len,
                                       zend_coroutine_t* coro) {
  (void)coro;
  return php_output_write(str, len);
}

int php_output_get_level(void) { return 0; }

}  // extern "C"
