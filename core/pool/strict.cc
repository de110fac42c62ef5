// The pool's strict-mode checks (strict.h).

#include "core/pool/strict.h"

#include <cinttypes>
#include <cstring>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_format.h"
#include "core/observability.h"
#include "core/pool/trace.h"

extern "C" {
#include "zend_async_ref/strict.h"
}

namespace zar::core {

namespace {

// A resource's identity: its type and its value bits (or pointer).
struct ResourceKey {
  uint8_t type;
  uint64_t bits;
  bool operator==(const ResourceKey&) const = default;
  template <typename H>
  friend H AbslHashValue(H h, const ResourceKey& key) {
    return H::combine(std::move(h), key.type, key.bits);
  }
};

ResourceKey KeyOf(const zval* resource) {
  ResourceKey key{Z_TYPE_P(resource), 0};
  switch (Z_TYPE_P(resource)) {
    case IS_LONG:
      key.bits = static_cast<uint64_t>(Z_LVAL_P(resource));
      break;
    case IS_DOUBLE:
      memcpy(&key.bits, &Z_DVAL_P(resource), sizeof(key.bits));
      break;
    case IS_PTR:
      key.bits = reinterpret_cast<uintptr_t>(Z_PTR_P(resource));
      break;
    default:
      if (Z_REFCOUNTED_P(resource) || Z_TYPE_P(resource) == IS_STRING ||
          Z_TYPE_P(resource) == IS_ARRAY) {
        key.bits = reinterpret_cast<uintptr_t>(Z_COUNTED_P(resource));
      }
      break;
  }
  return key;
}

}  // namespace

struct PoolLedger {
  AsyncPool* pool;
  // Resources lent and not yet given back, with their multiplicity.
  absl::flat_hash_map<ResourceKey, uint32_t> lent;
  // Resources given back (and not lent again since).
  absl::flat_hash_set<ResourceKey> returned;
  // Every pool with a ledger, newest first.
  PoolLedger* prev;
  PoolLedger* next;
};

namespace {

PoolLedger* ledgers = nullptr;

std::string Describe(const zval* resource) {
  char text[128];
  return zend_async_ref_describe_zval(resource, true, text, sizeof(text));
}

// The strict pool that has `key` lent, other than `self`, or nullptr.
AsyncPool* LenderOf(const ResourceKey& key, const PoolLedger* self) {
  for (PoolLedger* ledger = ledgers; ledger != nullptr; ledger = ledger->next) {
    if (ledger != self && ledger->lent.contains(key)) return ledger->pool;
  }
  return nullptr;
}

}  // namespace

std::string PoolName(AsyncPool* pool) {
  char token[ZEND_ASYNC_REF_NAME_SIZE];
  return NameWithInfo(PoolToken(pool, token), pool->event());
}

void CreatePoolLedger(AsyncPool* pool) {
  if (!ZEND_ASYNC_REF_STRICT()) return;
  auto* ledger = new PoolLedger{pool, {}, {}, nullptr, ledgers};
  if (ledgers != nullptr) ledgers->prev = ledger;
  ledgers = ledger;
  pool->ledger = ledger;
}

void DestroyPoolLedger(AsyncPool* pool) {
  PoolLedger* ledger = pool->ledger;
  if (ledger == nullptr) return;
  pool->ledger = nullptr;
  if (ledger->prev != nullptr) {
    ledger->prev->next = ledger->next;
  } else {
    ledgers = ledger->next;
  }
  if (ledger->next != nullptr) ledger->next->prev = ledger->prev;
  delete ledger;
}

void LedgerLend(AsyncPool* pool, const zval* resource) {
  PoolLedger* ledger = pool->ledger;
  const ResourceKey key = KeyOf(resource);
  ledger->lent[key]++;
  ledger->returned.erase(key);
}

bool LedgerAcceptRelease(AsyncPool* pool, const zval* resource,
                         const char* call) {
  PoolLedger* ledger = pool->ledger;
  const ResourceKey key = KeyOf(resource);
  auto lent = ledger->lent.find(key);
  if (lent != ledger->lent.end()) {
    if (--lent->second == 0) {
      ledger->lent.erase(lent);
      ledger->returned.insert(key);
    }
    return true;
  }
  if (!ZEND_ASYNC_REF_STRICT()) return true;

  const std::string name = PoolName(pool);
  const std::string value = Describe(resource);
  if (ledger->returned.contains(key)) {
    zend_async_ref_strict_report(call, "%s: resource %s is released twice",
                                 name.c_str(), value.c_str());
  } else if (AsyncPool* lender = LenderOf(key, ledger)) {
    zend_async_ref_strict_report(
        call, "%s: resource %s was lent by %s, not by this pool", name.c_str(),
        value.c_str(), PoolName(lender).c_str());
  } else {
    zend_async_ref_strict_report(call,
                                 "%s: resource %s was never lent by this pool",
                                 name.c_str(), value.c_str());
  }
  return false;
}

void ForgetPoolLedgers() {
  while (ledgers != nullptr) {
    PoolLedger* ledger = ledgers;
    ledgers = ledger->next;
    delete ledger;
  }
}

void ReportOutsideCoroutine(AsyncPool* pool, const char* call,
                            const char* problem, const char* reason) {
  zend_async_ref_strict_report(call, "%s: %s: %s", PoolName(pool).c_str(),
                               problem, reason);
}

void ReportLaunchFailure(AsyncPool* pool, const char* call,
                         const char* problem) {
  char error[256];
  zend_async_ref_describe_exception(EG(exception), error, sizeof(error));
  ReportOutsideCoroutine(
      pool, call, problem,
      absl::StrFormat("the scheduler cannot be launched (%s)", error).c_str());
}

bool RefuseUnusablePool(const zend_async_pool_t* pool, const char* call) {
  if (pool == nullptr) {
    if (ZEND_ASYNC_REF_STRICT()) {
      zend_async_ref_strict_report(call, "the pool is NULL");
    }
    return true;
  }
  // A quarantined event keeps its header, CLOSED set: only a closed pool
  // may be a disposed one.
  if (!ZEND_ASYNC_REF_STRICT() || !ZEND_ASYNC_EVENT_IS_CLOSED(&pool->event)) {
    return false;
  }
  const char* name = zend_async_ref_strict_disposed_name(&pool->event);
  if (name == nullptr) return false;
  zend_async_ref_strict_report(call, "%s: used after it was disposed", name);
  return true;
}

void ReportUndefinedFactoryResult(AsyncPool* pool) {
  if (!ZEND_ASYNC_REF_STRICT()) return;
  zend_async_ref_strict_report(
      "zend_async_pool_factory_fn",
      "%s: returned true but left the resource undefined; taken as a failed "
      "creation",
      PoolName(pool).c_str());
}

void ReportOwnerGoneDuringCall(AsyncPool* pool, const char* call,
                               const zval* resource) {
  if (!ZEND_ASYNC_REF_STRICT()) return;
  zend_async_ref_strict_report(
      call,
      "%s: its last owner let go of it while the call was in progress; "
      "resource %s is destroyed and the call fails",
      PoolName(pool).c_str(), Describe(resource).c_str());
}

void ReportOpenPoolsAtRequestEnd() {
  for (PoolLedger* ledger = ledgers; ledger != nullptr; ledger = ledger->next) {
    AsyncPool* pool = ledger->pool;
    const uint32_t callbacks = pool->event()->callbacks.length;
    if (pool->closed() || (pool->waiters.empty() && callbacks == 0)) continue;
    zend_async_ref_strict_report(
        "request shutdown",
        "%s: still open with %" PRIu32 " waiter(s) and %" PRIu32
        " callback(s) registered",
        PoolName(pool).c_str(), pool->waiters.size(), callbacks);
  }
}

}  // namespace zar::core
