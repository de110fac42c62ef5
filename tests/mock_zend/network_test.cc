// Tests of the socket helpers (main/php_network.h).

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>

#include <cstring>
#include <string>

#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "main/php_network.h"
}

namespace {

class MockZendNetworkTest : public zar::testing::RequestFixture {};

TEST_F(MockZendNetworkTest, SetSockBlockingTogglesONonblock) {
  int fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  php_socket_t sock = fds[0];
  EXPECT_EQ(php_set_sock_blocking(sock, false), SUCCESS);
  EXPECT_NE(fcntl(sock, F_GETFL) & O_NONBLOCK, 0);
  EXPECT_EQ(php_set_sock_blocking(sock, true), SUCCESS);
  EXPECT_EQ(fcntl(sock, F_GETFL) & O_NONBLOCK, 0);
  closesocket(fds[0]);
  closesocket(fds[1]);
}

TEST_F(MockZendNetworkTest, SetSockBlockingOfABadDescriptorFails) {
  errno = 0;
  EXPECT_EQ(php_set_sock_blocking(-1, false), FAILURE);
  EXPECT_EQ(php_socket_errno(), EBADF);
  EXPECT_EQ(SOCK_ERR, -1);
}

TEST_F(MockZendNetworkTest, SocketStrerrorFillsTheBufferOrAllocates) {
  char buf[128];
  EXPECT_EQ(php_socket_strerror(ECONNREFUSED, buf, sizeof(buf)), buf);
  EXPECT_STREQ(buf, strerror(ECONNREFUSED));
  char* owned = php_socket_strerror(ECONNREFUSED, nullptr, 0);
  EXPECT_STREQ(owned, strerror(ECONNREFUSED));
  efree(owned);
  char tiny[4];
  php_socket_strerror(ECONNREFUSED, tiny, sizeof(tiny));
  EXPECT_EQ(std::string(tiny), std::string(strerror(ECONNREFUSED), 3));
  zend_string* str = php_socket_error_str(ECONNREFUSED);
  EXPECT_STREQ(ZSTR_VAL(str), strerror(ECONNREFUSED));
  zend_string_release(str);
}

}  // namespace
