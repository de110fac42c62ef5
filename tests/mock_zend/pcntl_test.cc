// Tests of the process-control extension's fork and wait functions
// (ext/pcntl/php_pcntl.h), called as PHP code calls them. Without the async
// extension nothing is registered for ZEND_ASYNC_BEFORE_FORK(), so
// pcntl_fork() forks as plain PHP's does.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <initializer_list>
#include <string>

#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "ext/pcntl/php_pcntl.h"
}

namespace {

class MockZendPcntlTest : public zar::testing::RequestFixture {
 protected:
  std::vector<zend_module_entry*> Modules() override {
    return {&pcntl_module_entry};
  }
};

// Calls the PHP function `name` with `args` (borrowed); the result.
zval Call(const char* name, std::initializer_list<zval*> args = {}) {
  zval function;
  ZVAL_STRING(&function, name);
  zval argv[4];
  uint32_t argc = 0;
  for (zval* arg : args) ZVAL_COPY_VALUE(&argv[argc++], arg);
  zval result;
  ZVAL_UNDEF(&result);
  call_user_function(nullptr, nullptr, &function, &result, argc, argv);
  zval_ptr_dtor(&function);
  return result;
}

zval Long(zend_long value) {
  zval z;
  ZVAL_LONG(&z, value);
  return z;
}

TEST_F(MockZendPcntlTest,
       ForkThenWaitpidGivesTheChildsStatusThroughAReference) {
  zval pid = Call("pcntl_fork");
  ASSERT_EQ(Z_TYPE(pid), IS_LONG);
  if (Z_LVAL(pid) == 0) _exit(5);  // the child
  ASSERT_GT(Z_LVAL(pid), 0);

  zval zero = Long(0);
  zval status;
  ZVAL_NEW_REF(&status, &zero);
  zval waited = Call("pcntl_waitpid", {&pid, &status});
  EXPECT_EQ(Z_LVAL(waited), Z_LVAL(pid));

  zval word;
  ZVAL_COPY(&word, Z_REFVAL(status));
  zval exited = Call("pcntl_wifexited", {&word});
  EXPECT_EQ(Z_TYPE(exited), IS_TRUE);
  zval code = Call("pcntl_wexitstatus", {&word});
  EXPECT_EQ(Z_LVAL(code), 5);
  zval_ptr_dtor(&status);
}

TEST_F(MockZendPcntlTest, WaitpidWithoutAChildReturnsMinusOne) {
  zval any = Long(-1);
  zval status = Long(0);  // by value: left alone
  zval options = Long(WNOHANG);
  zval waited = Call("pcntl_waitpid", {&any, &status, &options});
  EXPECT_EQ(Z_LVAL(waited), -1);
  EXPECT_EQ(Z_LVAL(status), 0);
}

TEST_F(MockZendPcntlTest, ForkTakesNoArguments) {
  zval extra = Long(1);
  zval result = Call("pcntl_fork", {&extra});
  EXPECT_EQ(Z_TYPE(result), IS_UNDEF);
  EXPECT_EQ(zar::testing::TakeExceptionText(),
            "ArgumentCountError: pcntl_fork() expects exactly 0 arguments, 1 "
            "given");
}

}  // namespace
