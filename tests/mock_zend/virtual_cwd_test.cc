// Tests of the VCWD_* file macros (zend_virtual_cwd.h, also via php.h):
// plain POSIX calls on the process's working directory.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

extern "C" {
#include "php.h"
}

namespace {

TEST(MockZendVirtualCwdTest, MacrosAreThePosixCalls) {
  char tmpl[] = "/tmp/zar-vcwd-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  const std::string sub = dir + "/sub";
  EXPECT_EQ(VCWD_MKDIR(sub.c_str(), 0700), 0);
  zend_stat_t st;
  ASSERT_EQ(VCWD_STAT(sub.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(VCWD_ACCESS(sub.c_str(), W_OK), 0);

  const std::string file = dir + "/a";
  const int fd = VCWD_OPEN_MODE(file.c_str(), O_CREAT | O_WRONLY, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(php_sys_fstat(fd, &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  close(fd);
  EXPECT_EQ(VCWD_CHMOD(file.c_str(), 0640), 0);
  ASSERT_EQ(VCWD_STAT(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  const std::string moved = sub + "/b";
  EXPECT_EQ(VCWD_RENAME(file.c_str(), moved.c_str()), 0);

  char resolved[MAXPATHLEN];
  const std::string indirect = dir + "/sub/../sub/b";
  ASSERT_EQ(VCWD_REALPATH(indirect.c_str(), resolved), resolved);
  char expected[MAXPATHLEN];
  ASSERT_NE(realpath(moved.c_str(), expected), nullptr);
  EXPECT_STREQ(resolved, expected);
  EXPECT_EQ(VCWD_REALPATH((dir + "/missing").c_str(), resolved), nullptr);

  EXPECT_EQ(VCWD_UNLINK(moved.c_str()), 0);
  EXPECT_NE(VCWD_ACCESS(moved.c_str(), F_OK), 0);
  EXPECT_EQ(VCWD_RMDIR(sub.c_str()), 0);
  EXPECT_EQ(VCWD_RMDIR(dir.c_str()), 0);
  EXPECT_GE(MAXPATHLEN, 256);
}

}  // namespace
