// Registering the channel's PHP classes (classes.h).

#include "core/channel/classes.h"

#include "core/channel/object.h"
#include "core/internal/php_object.h"
#include "core/scheduler/async_classes.h"

namespace zar::core {
namespace {

zend_class_entry* channel_ce = nullptr;
zend_class_entry* exception_ce = nullptr;
zend_class_entry* reason_ce = nullptr;

struct ReasonCase {
  ChannelCloseReason reason;
  const char* name;
  const char* value;
};

constexpr ReasonCase kReasonCases[] = {
    {ChannelCloseReason::kExplicit, "EXPLICIT", "explicit"},
    {ChannelCloseReason::kDisposed, "DISPOSED", "disposed"},
    {ChannelCloseReason::kNoProducers, "NO_PRODUCERS", "no producers timeout"},
    {ChannelCloseReason::kNoConsumers, "NO_CONSUMERS", "no consumers timeout"},
    {ChannelCloseReason::kDeadlock, "DEADLOCK", "deadlock"},
    {ChannelCloseReason::kScopeDisposed, "SCOPE_DISPOSED", "scope disposed"},
};

}  // namespace

zend_class_entry* RegisterChannelClass(zend_class_entry* awaitable) {
  channel_ce = internal::RegisterObjectClass("Async\\Channel", ChannelMethods(),
                                             CreateChannelObject,
                                             ChannelObjectHandlers());
  if (channel_ce == nullptr) return nullptr;
  if (awaitable != nullptr) {
    zend_class_implements(channel_ce, 2, awaitable, zend_ce_countable);
  } else {
    zend_class_implements(channel_ce, 1, zend_ce_countable);
  }
  return channel_ce;
}

bool RegisterChannelExceptionClasses() {
  reason_ce = zend_register_internal_enum("Async\\ChannelCloseReason",
                                          IS_STRING, nullptr);
  if (reason_ce == nullptr) return false;
  for (const ReasonCase& entry : kReasonCases) {
    zval value;
    ZVAL_STR(&value,
             zend_string_init_interned(entry.value, strlen(entry.value), true));
    zend_enum_add_case_cstr(reason_ce, entry.name, &value);
  }

  exception_ce = internal::RegisterClass(
      {.name = "Async\\ChannelException",
       .parent = GetClassCe(ZEND_ASYNC_EXCEPTION_DEFAULT)});
  if (exception_ce == nullptr) return false;
  zval none;
  ZVAL_NULL(&none);
  zend_declare_property_ex(exception_ce,
                           zend_string_init_interned(ZEND_STRL("reason"), true),
                           &none, ZEND_ACC_PUBLIC);
  return true;
}

void ForgetChannelClasses() {
  channel_ce = nullptr;
  exception_ce = nullptr;
  reason_ce = nullptr;
}

zend_class_entry* ChannelClass() { return channel_ce; }
zend_class_entry* ChannelExceptionClass() { return exception_ce; }

zend_object* ChannelCloseReasonCase(ChannelCloseReason reason) {
  if (reason_ce == nullptr) return nullptr;
  for (const ReasonCase& entry : kReasonCases) {
    if (entry.reason == reason) {
      return zend_enum_get_case_cstr(reason_ce, entry.name);
    }
  }
  return nullptr;
}

}  // namespace zar::core
