// zend-async-ref channel tests: the fixture and helpers.
//
// Everything here reaches the channel and the scheduler through the ABI
// (ZEND_ASYNC_NEW_CHANNEL, the channel's send/receive/close, the event
// vtable) and the mock engine's API (calling Async\Channel's methods as the
// engine calls internal methods).
//
//   ChannelTest        RequestFixture with the async extension under test
//                      (zar::testing::AsyncModule()) loaded, keeping a log
//                      and a channel; its TearDown fails on leaked blocks
//                      or live objects.
//   Spawn / Yield / YieldTimes / Delay / Cancel, CallMethod, New
//                      from ZendAsyncRef::testing and mock_zend: a spawned
//                      body runs when the spawner suspends or ends (FIFO).
//   NewPhpChannel      new Async\Channel(...).
//   Send, Recv, ...    Async\Channel method calls.
//
// Threading: the test's thread.

#ifndef ZAR_TESTS_CHANNEL_SUPPORT_CHANNEL_TEST_H_
#define ZAR_TESTS_CHANNEL_SUPPORT_CHANNEL_TEST_H_

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "mock_zend/methods.h"
#include "mock_zend/zval.h"
#include "tests/support/implementation.h"
#include "tests/support/log.h"
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
}

namespace zar::channel_testing {

using mock_zend::CallMethod;
using mock_zend::Render;
using mock_zend::Zval;
using zar::testing::Cancel;
using zar::testing::Delay;
using zar::testing::Joined;
using zar::testing::Log;
using zar::testing::Spawn;
using zar::testing::TakeExceptionClass;
using zar::testing::TakeExceptionText;
using zar::testing::Yield;
using zar::testing::YieldTimes;

class ChannelTest : public zar::testing::AsyncTest {
 protected:
  void TearDown() override;

  // What most scenarios keep: the log of what happened, and the channel
  // they work with, which outlives the script (a coroutine may still hold
  // it after main returned) and is let go before the request ends.
  Log log;
  Zval channel;

  // Runs `main` as the request's main script (expecting it to return), with
  // `channel` a new Async\Channel($capacity) first.
  void RunWithChannel(zend_long capacity, const std::function<void()>& main);

  // Logs "count=N", N being channel's count().
  void LogCount();
};

// new Async\Channel(...args); UNDEF with the exception pending.
Zval NewPhpChannel(std::initializer_list<zend_long> args = {});
// new Async\Channel($capacity, $noProducerTimeout, $noConsumerTimeout,
// $hardTimeouts).
Zval NewPhpChannel(zend_long capacity, zend_long no_producer_timeout,
                   zend_long no_consumer_timeout, bool hard_timeouts);

// $channel->send($value) / sendAsync / recv / close / the queries. Send and
// Recv leave an exception pending (Recv then returns UNDEF).
void Send(Zval& channel, Zval value);
bool SendAsync(Zval& channel, Zval value);
Zval Recv(Zval& channel);
void Close(Zval& channel);
bool IsClosed(Zval& channel);
zend_long Capacity(Zval& channel);
zend_long Count(Zval& channel);
bool IsEmpty(Zval& channel);
bool IsFull(Zval& channel);
// "count=N empty=Y|N full=Y|N".
std::string State(Zval& channel);

// The pending exception as "Class: message" (taken), checking first that
// its `reason` property is the ChannelCloseReason case `reason` when the
// class is Async\ChannelException.
std::string TakeChannelException(const char* reason = "EXPLICIT");

}  // namespace zar::channel_testing

#endif  // ZAR_TESTS_CHANNEL_SUPPORT_CHANNEL_TEST_H_
