#include "core/scheduler/async_classes.h"

#include "core/channel/classes.h"
#include "core/future/classes.h"
#include "core/internal/php_object.h"
#include "core/scheduler/coroutine.h"
#include "core/scheduler/scope.h"
#include "core/task_group/classes.h"
#include "core/thread_pool/remote_exception.h"
#include "core/thread_pool/worker_pool.h"

namespace zar::core {
namespace {

// Indexed by zend_async_class (0..40); NULL where nothing is registered.
constexpr int kClassCount = ZEND_ASYNC_EXCEPTION_REMOTE + 1;
zend_class_entry* classes[kClassCount];
zend_class_entry* pool_exception_ce = nullptr;

// An interface extending `parent_interface` (may be NULL).
zend_class_entry* RegisterInterface(const char* name,
                                    zend_class_entry* parent_interface) {
  zend_class_entry* registered = internal::RegisterInterface(name);
  if (registered != nullptr && parent_interface != nullptr) {
    zend_class_implements(registered, 1, parent_interface);
  }
  return registered;
}

// A class of `parent` implementing `interface_ce` (both may be NULL).
zend_class_entry* RegisterClass(const char* name, zend_class_entry* parent,
                                zend_class_entry* interface_ce,
                                uint32_t flags) {
  zend_class_entry* registered =
      internal::RegisterClass({.name = name, .flags = flags, .parent = parent});
  if (registered != nullptr && interface_ce != nullptr) {
    zend_class_implements(registered, 1, interface_ce);
  }
  return registered;
}

}  // namespace

bool RegisterClasses() {
  ForgetClasses();

  zend_class_entry* awaitable = RegisterInterface("Async\\Awaitable", nullptr);
  zend_class_entry* completable =
      RegisterInterface("Async\\Completable", awaitable);
  zend_class_entry* scope_provider =
      RegisterInterface("Async\\ScopeProvider", nullptr);
  zend_class_entry* spawn_strategy =
      RegisterInterface("Async\\SpawnStrategy", scope_provider);
  classes[ZEND_ASYNC_CLASS_AWAITABLE] = awaitable;
  classes[ZEND_ASYNC_CLASS_COMPLETABLE] = completable;
  classes[ZEND_ASYNC_CLASS_SCOPE_PROVIDER] = scope_provider;
  classes[ZEND_ASYNC_CLASS_SPAWN_STRATEGY] = spawn_strategy;

  zend_class_entry* coroutine =
      RegisterClass("Async\\Coroutine", nullptr, completable, ZEND_ACC_FINAL);
  if (coroutine != nullptr) {
    coroutine->default_object_handlers = CoroutineObjectHandlers();
  }
  classes[ZEND_ASYNC_CLASS_COROUTINE] = coroutine;

  zend_class_entry* scope =
      RegisterClass("Async\\Scope", nullptr, scope_provider, ZEND_ACC_FINAL);
  if (scope != nullptr) scope->default_object_handlers = ScopeObjectHandlers();
  classes[ZEND_ASYNC_CLASS_SCOPE] = scope;

  classes[ZEND_ASYNC_CLASS_CONTEXT] =
      RegisterClass("Async\\Context", nullptr, nullptr, ZEND_ACC_FINAL);
  classes[ZEND_ASYNC_CLASS_TIMEOUT] =
      RegisterClass("Async\\Timeout", nullptr, awaitable, ZEND_ACC_FINAL);
  classes[ZEND_ASYNC_CLASS_CHANNEL] = RegisterChannelClass(awaitable);
  classes[ZEND_ASYNC_CLASS_FUTURE] = RegisterFutureClasses(completable);
  classes[ZEND_ASYNC_CLASS_GROUP] = RegisterTaskGroupClasses(awaitable);

  zend_class_entry* async_exception =
      RegisterClass("Async\\AsyncException", zend_ce_exception, nullptr, 0);
  classes[ZEND_ASYNC_EXCEPTION_DEFAULT] = async_exception;
  classes[ZEND_ASYNC_EXCEPTION_CANCELLATION] = RegisterClass(
      "Async\\AsyncCancellation", zend_ce_cancellation, nullptr, 0);
  classes[ZEND_ASYNC_EXCEPTION_TIMEOUT] =
      RegisterClass("Async\\TimeoutException", zend_ce_exception, nullptr, 0);
  classes[ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT] = RegisterClass(
      "Async\\InputOutputException", zend_ce_exception, nullptr, 0);
  classes[ZEND_ASYNC_EXCEPTION_POLL] =
      RegisterClass("Async\\PollException", zend_ce_exception, nullptr, 0);
  classes[ZEND_ASYNC_EXCEPTION_DNS] =
      RegisterClass("Async\\DnsException", zend_ce_exception, nullptr, 0);
  classes[ZEND_ASYNC_EXCEPTION_DEADLOCK] =
      RegisterClass("Async\\DeadlockError", zend_ce_error, nullptr, 0);
  classes[ZEND_ASYNC_EXCEPTION_SERVICE_UNAVAILABLE] = RegisterClass(
      "Async\\ServiceUnavailableException", async_exception, nullptr, 0);
  classes[ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED] =
      RegisterClass("Async\\OperationCanceledException",
                    classes[ZEND_ASYNC_EXCEPTION_CANCELLATION], nullptr, 0);
  classes[ZEND_ASYNC_EXCEPTION_THREAD_TRANSFER] = RegisterClass(
      "Async\\ThreadTransferException", async_exception, nullptr, 0);
  classes[ZEND_ASYNC_EXCEPTION_REMOTE] =
      thread_pool::RegisterRemoteExceptionClass(async_exception);
  if (!thread_pool::RegisterThreadPoolExceptionClasses(async_exception)) {
    return false;
  }

  const zend_async_class registered[] = {
      ZEND_ASYNC_CLASS_AWAITABLE,
      ZEND_ASYNC_CLASS_COROUTINE,
      ZEND_ASYNC_CLASS_SCOPE,
      ZEND_ASYNC_CLASS_CONTEXT,
      ZEND_ASYNC_CLASS_SCOPE_PROVIDER,
      ZEND_ASYNC_CLASS_SPAWN_STRATEGY,
      ZEND_ASYNC_CLASS_TIMEOUT,
      ZEND_ASYNC_CLASS_COMPLETABLE,
      ZEND_ASYNC_CLASS_CHANNEL,
      ZEND_ASYNC_CLASS_FUTURE,
      ZEND_ASYNC_CLASS_GROUP,
      ZEND_ASYNC_EXCEPTION_DEFAULT,
      ZEND_ASYNC_EXCEPTION_CANCELLATION,
      ZEND_ASYNC_EXCEPTION_TIMEOUT,
      ZEND_ASYNC_EXCEPTION_INPUT_OUTPUT,
      ZEND_ASYNC_EXCEPTION_POLL,
      ZEND_ASYNC_EXCEPTION_DNS,
      ZEND_ASYNC_EXCEPTION_DEADLOCK,
      ZEND_ASYNC_EXCEPTION_SERVICE_UNAVAILABLE,
      ZEND_ASYNC_EXCEPTION_OPERATION_CANCELLED,
      ZEND_ASYNC_EXCEPTION_THREAD_TRANSFER,
      ZEND_ASYNC_EXCEPTION_REMOTE,
  };
  for (zend_async_class type : registered) {
    if (classes[type] == nullptr) return false;
  }
  return true;
}

bool RegisterPoolExceptionClass() {
  pool_exception_ce =
      RegisterClass("Async\\PoolException",
                    classes[ZEND_ASYNC_EXCEPTION_DEFAULT], nullptr, 0);
  return pool_exception_ce != nullptr;
}

void ForgetClasses() {
  for (zend_class_entry*& ce : classes) ce = nullptr;
  pool_exception_ce = nullptr;
}

zend_class_entry* GetClassCe(zend_async_class type) {
  const int index = static_cast<int>(type);
  if (index <= 0 || index >= kClassCount) return nullptr;
  return classes[index];
}

zend_class_entry* PoolExceptionClass() { return pool_exception_ce; }

}  // namespace zar::core
