// The fixture of the poll proxy tests (conformance and the reference's
// unit tests): a socket pair, a notification log, and shorthands to make
// polls and proxies on its left end.

#ifndef ZAR_TESTS_REACTOR_SUPPORT_POLL_PROXY_TEST_H_
#define ZAR_TESTS_REACTOR_SUPPORT_POLL_PROXY_TEST_H_

#include <initializer_list>

#include "tests/reactor/support/reactor_test.h"

namespace zar::reactor_testing {

class PollProxyTest : public ReactorTest {
 protected:
  // A socket event on sockets_.left() with an interest of its own.
  zend_async_poll_event_t* NewPoll(int events) {
    return ZEND_ASYNC_NEW_SOCKET_EVENT(sockets_.left(),
                                       static_cast<async_poll_event>(events));
  }
  // A proxy of `poll` with the interest `events`.
  static zend_async_poll_proxy_t* NewProxy(zend_async_poll_event_t* poll,
                                           int events) {
    return ZEND_ASYNC_NEW_POLL_PROXY_EVENT(
        poll, static_cast<async_poll_event>(events));
  }

  // Drops one reference of each event, in order.
  static void Release(std::initializer_list<zend_async_event_t*> events) {
    for (zend_async_event_t* event : events) ZEND_ASYNC_EVENT_RELEASE(event);
  }

  SocketPair sockets_;
  NotificationLog log_;
};

}  // namespace zar::reactor_testing

#endif  // ZAR_TESTS_REACTOR_SUPPORT_POLL_PROXY_TEST_H_
