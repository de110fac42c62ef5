#include "tests/task_group/support/task_group_test.h"

#include <cstring>

extern "C" {
#include "Zend/zend_exceptions.h"
#include "Zend/zend_interfaces.h"
}

namespace zar::task_group_testing {

zend_class_entry* TaskGroupClass() {
  return mock_zend::LookupClass("Async\\TaskGroup");
}

Zval NewGroup(const std::vector<zval*>& args) {
  return mock_zend::New(TaskGroupClass(), args);
}

Zval Task(Log* log, const std::string& name, int yields, bool fail) {
  return Closure([log, name, yields, fail](mock_zend::Call& call) {
    if (log != nullptr) log->push_back(name + " start");
    for (int i = 0; i < yields; i++) zar::testing::Yield();
    if (fail) {
      zend_throw_exception(zend_ce_exception, name.c_str(), 0);
      return;
    }
    ZVAL_STRINGL(call.result(), name.data(), name.size());
  });
}

void SpawnIn(Zval& group, Zval task) {
  CallMethod(group, "spawn", {task.get()});
}

std::string Keyed(const zval* value) {
  if (Z_TYPE_P(value) != IS_ARRAY) return Render(value);
  std::string text = "[";
  zend_ulong num_key;
  zend_string* str_key;
  zval* entry;
  ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(value), num_key, str_key, entry) {
    if (text.size() > 1) text += ", ";
    text += str_key != nullptr ? std::string(ZSTR_VAL(str_key))
                               : std::to_string(num_key);
    text += ": " + Render(entry);
  }
  ZEND_HASH_FOREACH_END();
  return text + "]";
}

std::string AwaitText(Zval& future) {
  Zval result = CallMethod(future, "await");
  if (EG(exception) != nullptr) return zar::testing::TakeExceptionText();
  return Keyed(result);
}

std::string AwaitCall(Zval& group, const char* method) {
  Zval future = CallMethod(group, method);
  return AwaitText(future);
}

void AwaitCallTwice(Zval& group, const char* method, std::string* first,
                    std::string* second) {
  Zval one = CallMethod(group, method);
  Zval two = CallMethod(group, method);
  *first = AwaitText(one);
  *second = AwaitText(two);
}

std::string AwaitCall(Zval& group, const char* method, std::string* completed) {
  Zval future = CallMethod(group, method);
  *completed = Render(CallMethod(future, "isCompleted"));
  return AwaitText(future);
}

void CloseAndAwaitCompletion(Zval& group) {
  CallMethod(group, "close");
  CallMethod(group, "awaitCompletion");
}

std::string MessageOf(zend_object* exception) {
  zval rv;
  zval* message = zend_read_property(exception->ce, exception, "message",
                                     strlen("message"), true, &rv);
  return message != nullptr && Z_TYPE_P(message) == IS_STRING
             ? std::string(Z_STRVAL_P(message))
             : std::string();
}

std::vector<std::string> CompositeMessages(zend_object* composite) {
  std::vector<std::string> messages;
  zval object;
  ZVAL_OBJ(&object, composite);
  Zval exceptions = CallMethod(&object, "getExceptions");
  if (exceptions.type() != IS_ARRAY) return messages;
  zval* entry;
  ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(exceptions.get()), entry) {
    messages.push_back(std::string(ZSTR_VAL(Z_OBJCE_P(entry)->name)) + ": " +
                       MessageOf(Z_OBJ_P(entry)));
  }
  ZEND_HASH_FOREACH_END();
  return messages;
}

}  // namespace zar::task_group_testing
