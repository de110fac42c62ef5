// Registering the channel's PHP classes (classes.h).

#include "core/channel/classes.h"

#include <iterator>

#include "core/channel/object.h"
#include "core/internal/php_object.h"
#include "core/scheduler/async_classes.h"

namespace zar::core {
namespace {

zend_class_entry* channel_ce = nullptr;
zend_class_entry* exception_ce = nullptr;
zend_class_entry* reason_ce = nullptr;

// Indexed by ChannelCloseReason.
constexpr ChannelCloseReasonText kReasons[] = {
    {"EXPLICIT", "explicit", "Channel is closed"},
    {"DISPOSED", "disposed", "Channel disposed"},
    {"NO_PRODUCERS", "no producers timeout", "Channel deadlock: no producers"},
    {"NO_CONSUMERS", "no consumers timeout", "Channel deadlock: no consumers"},
    {"DEADLOCK", "deadlock", "Channel deadlock"},
    {"SCOPE_DISPOSED", "scope disposed",
     "Channel closed: owner scope disposed"},
};
static_assert(std::size(kReasons) ==
              static_cast<size_t>(ChannelCloseReason::kScopeDisposed) + 1);

}  // namespace

zend_class_entry* RegisterChannelClass(zend_class_entry* awaitable) {
  channel_ce = internal::RegisterObjectClass("Async\\Channel", ChannelMethods(),
                                             internal::CreateEventWrapper,
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
  for (const ChannelCloseReasonText& entry : kReasons) {
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
                           &none, ZEND_ACC_PUBLIC, nullptr);
  return true;
}

void ForgetChannelClasses() {
  channel_ce = nullptr;
  exception_ce = nullptr;
  reason_ce = nullptr;
}

zend_class_entry* ChannelClass() { return channel_ce; }
zend_class_entry* ChannelExceptionClass() { return exception_ce; }

const ChannelCloseReasonText& TextOf(ChannelCloseReason reason) {
  return kReasons[static_cast<size_t>(reason)];
}

zend_object* ChannelCloseReasonCase(ChannelCloseReason reason) {
  if (reason_ce == nullptr) return nullptr;
  return zend_enum_get_case_cstr(reason_ce, TextOf(reason).name);
}

}  // namespace zar::core
