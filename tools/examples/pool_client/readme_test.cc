// The test of the top-level README's "Testing your extension", compiled and
// run as written there.

#include <string>
#include <vector>

#include "core/extension.h"  // zar_async_module_entry: the async extension
#include "zend_async_ref/testing/coroutines.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "php_pool_client.h"
}

class PoolClientReadmeTest : public zar::testing::RequestFixture {
  std::vector<zend_module_entry*> Modules() override {
    return {&zar_async_module_entry, &pool_client_module_entry};
  }
};

TEST_F(PoolClientReadmeTest, ConcurrentQueriesOpenAConnectionEach) {
  std::vector<std::string> answers;
  RunMain([&] {  // the request's main script, then the scheduler after it
    for (const char* sql : {"a", "b"}) {
      zar::testing::Spawn([&answers, sql] {
        zval result;
        if (pool_client_query(sql, &result) == SUCCESS) {
          answers.push_back(Z_STRVAL(result));
          zval_ptr_dtor(&result);
        }
      });
    }
  });
  EXPECT_EQ(answers, (std::vector<std::string>{"conn#1: a", "conn#2: b"}));
}  // TearDown: fails the test if the request leaked or failed
