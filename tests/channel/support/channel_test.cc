#include "tests/channel/support/channel_test.h"

#include <gtest/gtest.h>

namespace zar::channel_testing {

namespace {

// new Async\Channel(...params).
Zval Construct(const std::vector<Zval>& params) {
  std::vector<zval*> args;
  for (const Zval& param : params)
    args.push_back(const_cast<zval*>(param.get()));
  return mock_zend::New("Async\\Channel", args);
}

}  // namespace

void ChannelTest::RunWithChannel(zend_long capacity,
                                 const std::function<void()>& main) {
  EXPECT_TRUE(RunMain([&] {
    channel = NewPhpChannel({capacity});
    main();
  }));
}

void ChannelTest::LogCount() {
  log.push_back("count=" + std::to_string(Count(channel)));
}

void ChannelTest::TearDown() {
  channel.Reset();
  AsyncTest::TearDown();
}

Zval NewPhpChannel(std::initializer_list<zend_long> args) {
  std::vector<Zval> params;
  for (zend_long arg : args) params.push_back(Zval::Long(arg));
  return Construct(params);
}

Zval NewPhpChannel(zend_long capacity, zend_long no_producer_timeout,
                   zend_long no_consumer_timeout, bool hard_timeouts) {
  std::vector<Zval> params;
  params.push_back(Zval::Long(capacity));
  params.push_back(Zval::Long(no_producer_timeout));
  params.push_back(Zval::Long(no_consumer_timeout));
  zval hard;
  ZVAL_BOOL(&hard, hard_timeouts);
  params.push_back(Zval::Adopt(&hard));
  return Construct(params);
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
