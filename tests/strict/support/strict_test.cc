#include "tests/strict/support/strict_test.h"

#include <cstring>

#include "core/extension.h"
#include "mock_zend/callable.h"
#include "mock_zend/inspect.h"
#include "mock_zend/methods.h"
#include "zend_async_ref/testing/request.h"

extern "C" {
#include "zend_async_ref/strict.h"
#include "zend_async_ref/trace.h"
}

namespace zar::strict_testing {
namespace {

constexpr char kPrefix[] = "zend-async-ref strict: ";

zend_long ints_made = 0;

bool MakeInt(zend_async_pool_t* /*pool*/, zval* result) {
  ZVAL_LONG(result, ++ints_made);
  return true;
}

}  // namespace

std::vector<zend_module_entry*> StrictTest::Modules() {
  return {&zar_async_module_entry};
}

void StrictTest::SetUp() {
  ints_made = 0;
  // Before the request starts: the quarantine and the pools' ledgers depend
  // on it from the beginning.
  zend_async_ref_strict_enable(true);
  ASSERT_EQ(zar::testing::StartEngine(Modules()), SUCCESS);
  // MINIT applied ZEND_ASYNC_REF_STRICT from the environment, if set.
  zend_async_ref_strict_enable(true);
  ASSERT_EQ(zar::testing::StartRequest(), SUCCESS);
  request_active_ = true;
}

bool StrictTest::RunMain(const std::function<void()>& main) {
  return zar::testing::RunMain(main);
}

php_mock_request_report StrictTest::EndRequest() {
  if (request_active_) {
    request_active_ = false;
    return zar::testing::EndRequest();
  }
  return php_mock_last_request_report();
}

void StrictTest::TearDown() {
  const php_mock_request_report report = EndRequest();
  EXPECT_EQ(report.leaked_blocks, 0u)
      << report.leaked_bytes << " bytes leaked (see stderr for each block)";
  EXPECT_EQ(report.objects_alive_at_shutdown, objects_alive_)
      << "objects still referenced when the request ended";
  EXPECT_EQ(zend_async_ref_strict_quarantined(), 0u);
  zar::testing::StopEngine();
  zend_async_ref_strict_enable(false);
}

std::vector<std::string> Diagnostics() {
  std::vector<std::string> diagnostics;
  for (const mock_zend::ReportedError& error : mock_zend::ReportedErrors()) {
    if (error.message.rfind(kPrefix, 0) != 0) continue;
    EXPECT_EQ(error.type, ZEND_ASYNC_REF_STRICT_LEVEL) << error.message;
    diagnostics.push_back(error.message.substr(strlen(kPrefix)));
  }
  return diagnostics;
}

zend_async_pool_t* IntPool(uint32_t max) {
  return ZEND_ASYNC_NEW_POOL(MakeInt, nullptr, nullptr, nullptr, nullptr, 0,
                             max, 0);
}

zend_object* PhpIntPool(uint32_t max) {
  zval args[7];
  mock_zend::MakeCallable(&args[0], [](mock_zend::Call& call) {
    ZVAL_LONG(call.result(), ++ints_made);
  });
  for (int i = 1; i < 5; i++) ZVAL_NULL(&args[i]);
  ZVAL_LONG(&args[5], 0);
  ZVAL_LONG(&args[6], max);
  mock_zend::Zval object = mock_zend::New(
      "Async\\Pool",
      {&args[0], &args[1], &args[2], &args[3], &args[4], &args[5], &args[6]});
  for (zval& arg : args) zval_ptr_dtor(&arg);
  EXPECT_FALSE(object.undef()) << "new Async\\Pool threw";
  if (object.undef()) return nullptr;
  zend_object* pool = object.obj();
  GC_ADDREF(pool);  // the caller's reference; `object` lets go of its own
  return pool;
}

std::string Info(zend_async_event_t* event) {
  zend_string* info = event->info(event);
  std::string text(ZSTR_VAL(info), ZSTR_LEN(info));
  zend_string_release(info);
  return text;
}

void ExpectInfoAndRelease(zend_async_pool_t* pool, const std::string& info) {
  EXPECT_EQ(Info(&pool->event), info);
  ZEND_ASYNC_EVENT_RELEASE(&pool->event);
}

void Ignore(zend_async_event_t*, zend_async_event_callback_t*, void*,
            zend_object*) {}
void KeepCallback(zend_async_event_callback_t*, zend_async_event_t*) {}

std::string TakeException() {
  if (EG(exception) == nullptr) return "";
  char text[256];
  zend_async_ref_describe_exception(EG(exception), text, sizeof(text));
  zend_clear_exception();
  return text;
}

}  // namespace zar::strict_testing
