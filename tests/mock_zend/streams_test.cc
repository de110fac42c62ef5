// Tests of streams over local files (main/php_streams.h) and the resources
// that carry them to PHP code (zend_list.h).

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "tests/mock_zend/support/engine_test.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "main/php_open_temporary_file.h"
#include "main/php_streams.h"
}

namespace {

using zar::mock_zend_testing::ExpectOnlyError;

class MockZendStreamsTest : public zar::testing::RequestFixture {
 protected:
  void SetUp() override {
    RequestFixture::SetUp();
    path_ = std::string(php_get_temporary_directory()) + "/zar-streams-" +
            std::to_string(getpid());
  }
  void TearDown() override {
    unlink(path_.c_str());
    RequestFixture::TearDown();
  }
  std::string path_;
};

TEST_F(MockZendStreamsTest, WriteThenReadBackAFile) {
  php_stream* out = php_stream_open_wrapper(path_.c_str(), "wb", 0, nullptr);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(php_stream_write(out, "hello ", 6), 6);
  EXPECT_EQ(php_stream_write_string(out, "world"), 5);
  EXPECT_EQ(php_stream_close(out), 0);

  zend_string* opened = nullptr;
  php_stream* in =
      php_stream_open_wrapper(("file://" + path_).c_str(), "rb", 0, &opened);
  ASSERT_NE(in, nullptr);
  ASSERT_NE(opened, nullptr);
  EXPECT_EQ(std::string(ZSTR_VAL(opened)), "file://" + path_);
  zend_string_release(opened);
  char buf[32] = {};
  EXPECT_EQ(php_stream_read(in, buf, sizeof(buf)), 11);
  EXPECT_STREQ(buf, "hello world");
  EXPECT_TRUE(php_stream_eof(in));
  php_stream_close(in);
}

TEST_F(MockZendStreamsTest, CastGivesTheDescriptorAndTheFile) {
  php_stream* stream = php_stream_open_wrapper(path_.c_str(), "w", 0, nullptr);
  ASSERT_NE(stream, nullptr);
  int fd = -1;
  ASSERT_EQ(php_stream_cast(stream, PHP_STREAM_AS_FD | PHP_STREAM_CAST_INTERNAL,
                            reinterpret_cast<void**>(&fd), 0),
            SUCCESS);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(write(fd, "x", 1), 1);
  FILE* fp = nullptr;
  ASSERT_EQ(php_stream_cast(stream, PHP_STREAM_AS_STDIO,
                            reinterpret_cast<void**>(&fp), 0),
            SUCCESS);
  EXPECT_EQ(fileno(fp), fd);
  EXPECT_EQ(php_stream_can_cast(stream, PHP_STREAM_AS_SOCKETD), SUCCESS);
  php_stream_close(stream);
}

TEST_F(MockZendStreamsTest, StdStreamsAreDuplicatesOfTheProcessStreams) {
  php_stream* err = php_stream_open_wrapper("php://stderr", "wb", 0, nullptr);
  ASSERT_NE(err, nullptr);
  int fd = -1;
  ASSERT_EQ(
      php_stream_cast(err, PHP_STREAM_AS_FD, reinterpret_cast<void**>(&fd), 0),
      SUCCESS);
  EXPECT_GT(fd, 2);  // a duplicate: closing it leaves stderr open
  php_stream_close(err);
  EXPECT_NE(fcntl(STDERR_FILENO, F_GETFD), -1);
}

TEST_F(MockZendStreamsTest, FailedOpenReturnsNullAndWarnsOnRequest) {
  const std::string missing = path_ + "/no/such/file";
  EXPECT_EQ(php_stream_open_wrapper(missing.c_str(), "rb", 0, nullptr),
            nullptr);
  EXPECT_EQ(zend_mock_error_count(), 0u);
  EXPECT_EQ(
      php_stream_open_wrapper(missing.c_str(), "rb", REPORT_ERRORS, nullptr),
      nullptr);
  ASSERT_NO_FATAL_FAILURE(ExpectOnlyError(
      E_WARNING, "Failed to open stream: No such file or directory"));
  EXPECT_EQ(php_stream_open_wrapper("ftp://example/x", "rb", 0, nullptr),
            nullptr);
}

TEST_F(MockZendStreamsTest, ExposedStreamClosesWhenItsLastZvalGoes) {
  php_stream* stream = php_stream_open_wrapper(path_.c_str(), "w", 0, nullptr);
  ASSERT_NE(stream, nullptr);
  zval zv;
  php_stream_to_zval(stream, &zv);
  ASSERT_EQ(Z_TYPE(zv), IS_RESOURCE);
  php_stream* fetched = nullptr;
  php_stream_from_zval_no_verify(fetched, &zv);
  EXPECT_EQ(fetched, stream);
  EXPECT_STREQ(zend_rsrc_list_get_rsrc_type(Z_RES(zv)), "stream");
  const size_t blocks = zend_mm_live_blocks();
  zval_ptr_dtor(&zv);  // closes and frees the stream and the resource
  EXPECT_EQ(zend_mm_live_blocks(), blocks - 3);  // stream, path, resource
}

TEST_F(MockZendStreamsTest, ClosedExposedStreamLeavesAClosedResource) {
  php_stream* stream = php_stream_open_wrapper(path_.c_str(), "w", 0, nullptr);
  ASSERT_NE(stream, nullptr);
  zval zv;
  php_stream_to_zval(stream, &zv);
  php_stream_close(stream);
  php_stream* fetched = nullptr;
  php_stream_from_zval_no_verify(fetched, &zv);
  EXPECT_EQ(fetched, nullptr);
  ASSERT_NE(EG(exception), nullptr);  // TypeError, as PHP
  EXPECT_STREQ(zend_mock_exception_message(EG(exception)),
               "supplied resource is not a valid stream resource");
  zend_clear_exception();
  zval_ptr_dtor(&zv);
}

TEST_F(MockZendStreamsTest, FromZvalOfANonResourceThrowsAndGivesNull) {
  zval not_a_stream;
  ZVAL_LONG(&not_a_stream, 3);
  php_stream* fetched = reinterpret_cast<php_stream*>(1);
  php_stream_from_zval_no_verify(fetched, &not_a_stream);
  EXPECT_EQ(fetched, nullptr);
  ASSERT_NE(EG(exception), nullptr);
  EXPECT_STREQ(zend_mock_exception_message(EG(exception)),
               "Supplied resource is not a valid stream resource");
  zend_clear_exception();
}

int dtor_calls = 0;
void CountingDtor(zend_resource* res) {
  dtor_calls++;
  EXPECT_NE(res->ptr, nullptr);
}

TEST_F(MockZendStreamsTest, ResourceDestructorRunsOnceOnClose) {
  dtor_calls = 0;
  const int type =
      zend_register_list_destructors_ex(CountingDtor, nullptr, "counter", 0);
  EXPECT_EQ(
      zend_register_list_destructors_ex(CountingDtor, nullptr, "counter", 0),
      type);
  int payload = 0;
  zend_resource* res = zend_register_resource(&payload, type);
  EXPECT_EQ(zend_fetch_resource(res, "counter", type), &payload);
  GC_ADDREF(res);
  zend_list_close(res);
  EXPECT_EQ(dtor_calls, 1);
  EXPECT_EQ(res->ptr, nullptr);
  EXPECT_EQ(res->type, -1);
  zend_list_delete(res);
  zend_list_delete(res);
  EXPECT_EQ(dtor_calls, 1);
}

TEST_F(MockZendStreamsTest, XportCreateFailsWithACoreErrorNamingIt) {
  ExpectFatalErrors(
      {"php_stream_xport_create(): socket transports are not supported by the "
       "mock engine"});
  zend_string* error = nullptr;
  int code = -1;
  EXPECT_EQ(php_stream_xport_create("tcp://127.0.0.1:9", 17, 0,
                                    STREAM_XPORT_CLIENT | STREAM_XPORT_CONNECT,
                                    nullptr, nullptr, nullptr, &error, &code),
            nullptr);
  ASSERT_NE(error, nullptr);
  EXPECT_STREQ(ZSTR_VAL(error),
               "socket transports are not supported by the mock engine");
  zend_string_release(error);
  EXPECT_EQ(code, 0);
  ExpectOnlyError(E_CORE_ERROR,
                  "php_stream_xport_create(): socket transports are not "
                  "supported by the mock engine");
}

}  // namespace
