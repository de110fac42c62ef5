// Tests of calling PHP from C++ (mock_zend/methods.h): methods and
// constructors, with PHP's errors.

#include "mock_zend/methods.h"

#include <gtest/gtest.h>

#include <string>

#include "mock_zend/callable.h"
#include "mock_zend/class_builder.h"
#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "Zend/zend_exceptions.h"
}

namespace {

using mock_zend::Call;
using mock_zend::Zval;
using zar::testing::TakeExceptionText;

class MockZendMethodsTest : public zar::testing::RequestFixture {};

// A class whose constructor keeps its arguments' sum in `sum` (and throws
// for a negative one), with sum() and addAll(a, b, c).
zend_class_entry* Summer() {
  return mock_zend::ClassBuilder("Summer")
      .Property("sum")
      .Method("__construct",
              [](Call& call) {
                zend_long sum = 0;
                for (uint32_t i = 0; i < call.argc(); i++) {
                  sum += Z_LVAL_P(call.arg(i));
                }
                if (sum < 0) {
                  zend_throw_exception(zend_ce_exception, "negative", 0);
                  return;
                }
                zend_update_property_long(nullptr, call.self(),
                                          ZEND_STRL("sum"), sum);
              })
      .Method("addAll",
              [](Call& call) {
                zend_long sum = 0;
                for (uint32_t i = 0; i < call.argc(); i++) {
                  sum += Z_LVAL_P(call.arg(i));
                }
                ZVAL_LONG(call.result(), sum);
              })
      .Method(
          "fail",
          [](Call&) { zend_throw_exception(zend_ce_exception, "failed", 0); })
      .Build();
}

zend_long SumOf(Zval& object) {
  zval rv;
  zval* sum =
      zend_read_property(nullptr, object.obj(), ZEND_STRL("sum"), true, &rv);
  return Z_TYPE_P(sum) == IS_LONG ? Z_LVAL_P(sum) : -1;
}

TEST_F(MockZendMethodsTest, CallMethodPassesEveryArgumentAndGivesTheResult) {
  Summer();
  Zval object = mock_zend::New("Summer");
  Zval one = Zval::Long(1), two = Zval::Long(2), four = Zval::Long(4);
  Zval sum = mock_zend::CallMethod(object, "ADDALL",
                                   {one.get(), two.get(), four.get()});
  EXPECT_EQ(sum.lval(), 7);
  EXPECT_EQ(Z_REFCOUNTED_P(one.get()), false);  // ints: nothing held
}

TEST_F(MockZendMethodsTest, CallMethodLeavesTheCalleesExceptionInFlight) {
  Summer();
  Zval object = mock_zend::New("Summer");
  EXPECT_TRUE(mock_zend::CallMethod(object, "fail").undef());
  EXPECT_EQ(TakeExceptionText(), "Exception: failed");
}

TEST_F(MockZendMethodsTest, CallMethodOfAMissingMethodThrowsPhpsError) {
  Summer();
  Zval object = mock_zend::New("Summer");
  EXPECT_TRUE(mock_zend::CallMethod(object, "nope").undef());
  EXPECT_EQ(TakeExceptionText(),
            "Error: Call to undefined method Summer::nope()");
}

TEST_F(MockZendMethodsTest, NewRunsTheConstructorWithTheArguments) {
  zend_class_entry* ce = Summer();
  Zval two = Zval::Long(2), three = Zval::Long(3);
  Zval object = mock_zend::New(ce, {two.get(), three.get()});
  ASSERT_EQ(object.type(), IS_OBJECT);
  EXPECT_EQ(object.obj()->ce, ce);
  EXPECT_EQ(SumOf(object), 5);
}

TEST_F(MockZendMethodsTest, NewWhoseConstructorThrowsLetsGoOfTheObject) {
  Summer();
  const uint32_t alive = zend_objects_store_live_count();
  Zval minus = Zval::Long(-1);
  EXPECT_TRUE(mock_zend::New("Summer", {minus.get()}).undef());
  EXPECT_EQ(TakeExceptionText(), "Exception: negative");
  EXPECT_EQ(zend_objects_store_live_count(), alive);
}

TEST_F(MockZendMethodsTest, NewOfAnUnknownClassThrowsPhpsError) {
  EXPECT_TRUE(mock_zend::New("Nowhere").undef());
  EXPECT_EQ(TakeExceptionText(), "Error: Class \"Nowhere\" not found");
}

TEST_F(MockZendMethodsTest, LookupClassFindsARegisteredClassInAnyCase) {
  zend_class_entry* summer = Summer();
  EXPECT_EQ(mock_zend::LookupClass("Summer"), summer);
  EXPECT_EQ(mock_zend::LookupClass("sUMMER"), summer);
  EXPECT_EQ(mock_zend::LookupClass("Exception"), zend_ce_exception);
  EXPECT_EQ(mock_zend::LookupClass("Nowhere"), nullptr);
  EXPECT_EQ(EG(exception), nullptr);
}

}  // namespace
