#include "core/reactor/thread_registry.h"

#include <condition_variable>
#include <mutex>

#include "absl/container/flat_hash_set.h"

namespace zar::core::reactor {
namespace {

// std::mutex rather than absl::Mutex: ThreadSanitizer sees the pthread
// primitives std::mutex is made of, and not those of the distribution's
// (uninstrumented) Abseil.
struct Registry {
  std::mutex mutex;
  std::condition_variable emptied;  // signalled when the last key leaves
  absl::flat_hash_set<zend_async_thread_handle_t> keys;  // under `mutex`
};

// Never destroyed: a detached thread may leave it during process exit.
Registry& TheRegistry() {
  static auto* registry = new Registry;
  return *registry;
}

}  // namespace

void ThreadRegistryAdd(zend_async_thread_handle_t key) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.keys.insert(key);
}

void ThreadRegistryRemove(zend_async_thread_handle_t key) {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  registry.keys.erase(key);
  if (registry.keys.empty()) registry.emptied.notify_all();
}

bool ThreadRegistryEmpty() {
  Registry& registry = TheRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.keys.empty();
}

void ThreadRegistryQuiesce() {
  Registry& registry = TheRegistry();
  std::unique_lock<std::mutex> lock(registry.mutex);
  registry.emptied.wait(lock, [&registry] { return registry.keys.empty(); });
}

}  // namespace zar::core::reactor
