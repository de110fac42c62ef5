#include "tests/channel/support/channel_test.h"

#include <gtest/gtest.h>

namespace zar::channel_testing {
namespace {

void FailOnUncaught(const char* where) {
  if (EG(exception) != nullptr) {
    ADD_FAILURE() << where << " left an exception: " << TakeExceptionText();
  }
}

}  // namespace

std::string Joined(const Log& log) {
  std::string out;
  for (const std::string& entry : log) {
    if (!out.empty()) out += ' ';
    out += entry;
  }
  return out;
}

zend_coroutine_t* Spawn(std::function<void()> body) {
  zend_coroutine_t* coroutine = zar::testing::Spawn([body = std::move(body)] {
    body();
    FailOnUncaught("a coroutine");
  });
  if (coroutine == nullptr) {
    ADD_FAILURE() << "spawn failed: " << TakeExceptionText();
  }
  return coroutine;
}

Zval Str(const std::string& text) {
  zval value;
  ZVAL_STRINGL(&value, text.data(), text.size());
  return Zval::Adopt(&value);
}

namespace {

// new Async\Channel(...params) (the zvals are the callee's).
Zval Construct(std::vector<zval>& params) {
  zend_string* name = zend_string_init(ZEND_STRL("Async\\Channel"), false);
  zend_class_entry* ce = zend_lookup_class(name);
  zend_string_release(name);
  if (ce == nullptr) {
    ADD_FAILURE() << "Async\\Channel is not registered";
    return Zval();
  }
  Zval object;
  object_init_ex(object.get(), ce);
  zval retval;
  ZVAL_UNDEF(&retval);
  zend_call_known_instance_method(ce->constructor, object.obj(), &retval,
                                  static_cast<uint32_t>(params.size()),
                                  params.data());
  zval_ptr_dtor(&retval);
  if (EG(exception) != nullptr) {
    zend_object* pending = EG(exception);
    EG(exception) = nullptr;
    object.Reset();
    EG(exception) = pending;
    return Zval();
  }
  return object;
}

}  // namespace

Zval NewPhpChannel(std::initializer_list<zend_long> args) {
  std::vector<zval> params(args.size());
  size_t i = 0;
  for (zend_long arg : args) ZVAL_LONG(&params[i++], arg);
  return Construct(params);
}

Zval NewPhpChannel(zend_long capacity, zend_long no_producer_timeout,
                   zend_long no_consumer_timeout, bool hard_timeouts) {
  std::vector<zval> params(4);
  ZVAL_LONG(&params[0], capacity);
  ZVAL_LONG(&params[1], no_producer_timeout);
  ZVAL_LONG(&params[2], no_consumer_timeout);
  ZVAL_BOOL(&params[3], hard_timeouts);
  return Construct(params);
}

Zval NewPhpObject(const char* class_name, std::initializer_list<zval*> args) {
  zend_string* name = zend_string_init(class_name, strlen(class_name), false);
  zend_class_entry* ce = zend_lookup_class(name);
  zend_string_release(name);
  if (ce == nullptr) {
    zend_throw_error(nullptr, "Class \"%s\" not found", class_name);
    return Zval();
  }
  Zval object;
  if (object_init_ex(object.get(), ce) != SUCCESS) return Zval();
  if (ce->constructor != nullptr) {
    zval* first = args.size() > 0 ? args.begin()[0] : nullptr;
    zend_call_method(Z_OBJ_P(object.get()), ce, &ce->constructor, "__construct",
                     strlen("__construct"), nullptr,
                     static_cast<uint32_t>(args.size()), first, nullptr);
  }
  if (EG(exception) != nullptr) return Zval();
  return object;
}

Zval CallMethod(zval* object, const char* method,
                std::initializer_list<zval*> args) {
  zval retval;
  ZVAL_UNDEF(&retval);
  zval* first = args.size() > 0 ? args.begin()[0] : nullptr;
  zval* second = args.size() > 1 ? args.begin()[1] : nullptr;
  zend_call_method(Z_OBJ_P(object), nullptr, nullptr, method, strlen(method),
                   &retval, static_cast<uint32_t>(args.size()), first, second);
  if (EG(exception) != nullptr) {
    zval_ptr_dtor(&retval);
    return Zval();
  }
  return Zval::Adopt(&retval);
}

void Send(Zval& channel, Zval value) {
  CallMethod(channel.get(), "send", {value.get()});
}

bool SendAsync(Zval& channel, Zval value) {
  Zval sent = CallMethod(channel.get(), "sendAsync", {value.get()});
  return Z_TYPE_P(sent.get()) == IS_TRUE;
}

Zval Recv(Zval& channel) { return CallMethod(channel.get(), "recv"); }

void Close(Zval& channel) { CallMethod(channel.get(), "close"); }

bool IsClosed(Zval& channel) {
  return Z_TYPE_P(CallMethod(channel.get(), "isClosed").get()) == IS_TRUE;
}

zend_long Capacity(Zval& channel) {
  Zval value = CallMethod(channel.get(), "capacity");
  return Z_TYPE_P(value.get()) == IS_LONG ? Z_LVAL_P(value.get()) : -1;
}

zend_long Count(Zval& channel) {
  Zval value = CallMethod(channel.get(), "count");
  return Z_TYPE_P(value.get()) == IS_LONG ? Z_LVAL_P(value.get()) : -1;
}

bool IsEmpty(Zval& channel) {
  return Z_TYPE_P(CallMethod(channel.get(), "isEmpty").get()) == IS_TRUE;
}

bool IsFull(Zval& channel) {
  return Z_TYPE_P(CallMethod(channel.get(), "isFull").get()) == IS_TRUE;
}

std::string State(Zval& channel) {
  return "count=" + std::to_string(Count(channel)) +
         " empty=" + (IsEmpty(channel) ? "Y" : "N") +
         " full=" + (IsFull(channel) ? "Y" : "N");
}

std::string TakeChannelException(const char* reason) {
  zend_object* exception = EG(exception);
  if (exception != nullptr &&
      std::string(ZSTR_VAL(exception->ce->name)) == "Async\\ChannelException") {
    zval rv;
    zval* value = zend_read_property(exception->ce, exception,
                                     ZEND_STRL("reason"), true, &rv);
    std::string name;
    if (value != nullptr && Z_TYPE_P(value) == IS_OBJECT) {
      zval name_rv;
      zval* case_name = zend_read_property(Z_OBJCE_P(value), Z_OBJ_P(value),
                                           ZEND_STRL("name"), true, &name_rv);
      if (case_name != nullptr && Z_TYPE_P(case_name) == IS_STRING) {
        name = Z_STRVAL_P(case_name);
      }
    }
    EXPECT_EQ(name, reason) << "ChannelException::$reason";
  }
  return TakeExceptionText();
}

}  // namespace zar::channel_testing
