#include "tests/scheduler/support/scheduler_test.h"

#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <utility>

#include "mock_zend/inspect.h"
#include "tests/support/implementation.h"

namespace zar::scheduler_testing {

namespace {

bool PlainAddCallback(zend_async_event_t* event,
                      zend_async_event_callback_t* callback) {
  return zend_async_callbacks_push(event, callback);
}

bool PlainDelCallback(zend_async_event_t* event,
                      zend_async_event_callback_t* callback) {
  return zend_async_callbacks_remove(event, callback);
}

bool PlainStartStop(zend_async_event_t*) { return true; }

bool PlainDispose(zend_async_event_t* event) {
  zend_async_callbacks_free(event);
  efree(event);
  return true;
}

}  // namespace

zend_async_event_t* NewPlainEvent() {
  auto* event =
      static_cast<zend_async_event_t*>(ecalloc(1, sizeof(zend_async_event_t)));
  event->ref_count = 1;
  event->add_callback = PlainAddCallback;
  event->del_callback = PlainDelCallback;
  event->start = PlainStartStop;
  event->stop = PlainStartStop;
  event->dispose = PlainDispose;
  return event;
}

void FirePlainEvent(zend_async_event_t* event) {
  ZEND_ASYNC_CALLBACKS_NOTIFY(event, nullptr, nullptr);
}

void ExpectWakerInitialised(const zend_async_waker_t* waker) {
  EXPECT_EQ(waker->status, ZEND_ASYNC_WAKER_NO_STATUS);
  EXPECT_EQ(zend_hash_num_elements(&waker->events), 0u);
  EXPECT_EQ(waker->triggered_events, nullptr);
  EXPECT_EQ(Z_TYPE(waker->result), IS_UNDEF);
  EXPECT_EQ(waker->error, nullptr);
  EXPECT_EQ(waker->filename, nullptr);
  EXPECT_EQ(waker->dtor, nullptr);
}

std::vector<std::string> ReportedErrors() {
  std::vector<std::string> log;
  for (std::string& line : ErrorLog()) {
    if (line != "E_CORE_WARNING: Graceful shutdown mode was started") {
      log.push_back(std::move(line));
    }
  }
  return log;
}

}  // namespace zar::scheduler_testing
