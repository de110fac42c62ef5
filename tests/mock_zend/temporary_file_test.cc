// Tests of temporary files (main/php_open_temporary_file.h).

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "main/php_open_temporary_file.h"
}

namespace {

class MockZendTemporaryFileTest : public zar::testing::RequestFixture {};

TEST_F(MockZendTemporaryFileTest, CreatesAPrivateUniqueFileInTheDirectory) {
  const char* dir = php_get_temporary_directory();
  ASSERT_NE(dir, nullptr);
  zend_string* path = nullptr;
  const int fd =
      php_open_temporary_fd_ex(dir, "zar-upload-", &path, PHP_TMP_FILE_DEFAULT);
  ASSERT_GE(fd, 0);
  ASSERT_NE(path, nullptr);
  const std::string name(ZSTR_VAL(path), ZSTR_LEN(path));
  EXPECT_EQ(name.rfind(std::string(dir) + "/zar-upload-", 0), 0u) << name;
  struct stat st {};
  ASSERT_EQ(fstat(fd, &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  zend_string* second = nullptr;
  const int fd2 = php_open_temporary_fd(dir, "zar-upload-", &second);
  ASSERT_GE(fd2, 0);
  EXPECT_FALSE(zend_string_equals(path, second));
  close(fd);
  close(fd2);
  unlink(ZSTR_VAL(path));
  unlink(ZSTR_VAL(second));
  zend_string_release(path);
  zend_string_release(second);
}

TEST_F(MockZendTemporaryFileTest, UnusableDirectoryFallsBackToTheTempDir) {
  zend_string* path = nullptr;
  const int fd = php_open_temporary_fd("/nonexistent/dir", "zar-", &path);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(std::string(ZSTR_VAL(path))
                .rfind(std::string(php_get_temporary_directory()) + "/zar-", 0),
            0u);
  close(fd);
  unlink(ZSTR_VAL(path));
  zend_string_release(path);
}

TEST_F(MockZendTemporaryFileTest, FileFormIsReadWrite) {
  zend_string* path = nullptr;
  FILE* fp = php_open_temporary_file(nullptr, "zar-", &path);
  ASSERT_NE(fp, nullptr);
  ASSERT_GE(fputs("abc", fp), 0);
  rewind(fp);
  char buf[8] = {};
  EXPECT_EQ(fread(buf, 1, sizeof(buf), fp), 3u);
  EXPECT_STREQ(buf, "abc");
  fclose(fp);
  unlink(ZSTR_VAL(path));
  zend_string_release(path);
}

}  // namespace
