// Tests of parking the exception in flight (mock_zend/exception_park.h,
// mock_zend/parked_exception.h): each chaining order, with nothing parked,
// nothing raised meanwhile, and both.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mock_zend/inspect.h"
#include "mock_zend/parked_exception.h"
#include "tests/mock_zend/exception_park_c.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace {

using mock_zend::ExceptionChain;
using Chain = std::vector<std::string>;

class MockZendExceptionParkTest : public zar::testing::RequestFixture {
 protected:
  void TearDown() override {
    zend_clear_exception();
    EXPECT_EQ(zend_objects_store_live_count(), 0u);
    RequestFixture::TearDown();
  }
};

// Parks what is in flight, raises Error "raised" meanwhile and unparks in
// `order`: the chain then in flight.
Chain RaiseWhileParked(zend_mock_exception_order order) {
  zend_mock_parked_exception parked = zend_mock_exception_park();
  zend_throw_error(nullptr, "raised");
  zend_mock_exception_unpark(&parked, order);
  return ExceptionChain(EG(exception));
}

TEST_F(MockZendExceptionParkTest, ParkMovesBothExceptionSlotsOutOfEg) {
  zend_object* saved = zend_throw_exception(nullptr, "saved", 0);
  zend_exception_save();
  zend_object* thrown = zend_throw_exception(nullptr, "in flight", 0);
  zend_mock_parked_exception parked = zend_mock_exception_park();
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(EG(prev_exception), nullptr);
  EXPECT_EQ(parked.exception, thrown);
  EXPECT_EQ(parked.prev_exception, saved);
  EXPECT_EQ(GC_REFCOUNT(thrown), 1u);
  EXPECT_EQ(GC_REFCOUNT(saved), 1u);
  zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_BECOMES_PREVIOUS);
  EXPECT_EQ(EG(exception), thrown);
  EXPECT_EQ(EG(prev_exception), saved);
  EXPECT_EQ(parked.exception, nullptr);
  EXPECT_EQ(parked.prev_exception, nullptr);
}

TEST_F(MockZendExceptionParkTest, NothingParkedNothingRaisedLeavesEgEmpty) {
  zend_mock_parked_exception parked = zend_mock_exception_park();
  EXPECT_EQ(parked.exception, nullptr);
  EXPECT_EQ(parked.prev_exception, nullptr);
  zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_STAYS_CURRENT);
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(EG(prev_exception), nullptr);
}

TEST_F(MockZendExceptionParkTest,
       NothingParkedKeepsTheExceptionRaisedMeanwhileInEitherOrder) {
  for (zend_mock_exception_order order :
       {ZEND_MOCK_PARKED_BECOMES_PREVIOUS, ZEND_MOCK_PARKED_STAYS_CURRENT}) {
    EXPECT_EQ(RaiseWhileParked(order), (Chain{"Error: raised"}))
        << "order " << order;
    zend_clear_exception();
  }
}

TEST_F(MockZendExceptionParkTest,
       NothingRaisedMeanwhilePutsTheParkedExceptionBackInEitherOrder) {
  for (zend_mock_exception_order order :
       {ZEND_MOCK_PARKED_BECOMES_PREVIOUS, ZEND_MOCK_PARKED_STAYS_CURRENT}) {
    zend_object* thrown = zend_throw_exception(nullptr, "parked", 0);
    zend_mock_parked_exception parked = zend_mock_exception_park();
    zend_mock_exception_unpark(&parked, order);
    EXPECT_EQ(EG(exception), thrown) << "order " << order;
    EXPECT_EQ(ExceptionChain(EG(exception)), (Chain{"Exception: parked"}));
    EXPECT_EQ(GC_REFCOUNT(thrown), 1u);
    zend_clear_exception();
  }
}

TEST_F(MockZendExceptionParkTest,
       ParkedBecomesPreviousOfTheExceptionRaisedMeanwhile) {
  zend_throw_exception(nullptr, "parked", 0);
  EXPECT_EQ(RaiseWhileParked(ZEND_MOCK_PARKED_BECOMES_PREVIOUS),
            (Chain{"Error: raised", "Exception: parked"}));
  EXPECT_EQ(EG(prev_exception), nullptr);
}

TEST_F(MockZendExceptionParkTest,
       ParkedBecomesPreviousMatchesZendExceptionRestore) {
  zend_throw_exception(nullptr, "parked", 0);
  zend_exception_save();
  zend_throw_error(nullptr, "raised");
  zend_exception_restore();
  const Chain by_php = ExceptionChain(EG(exception));
  zend_clear_exception();

  zend_throw_exception(nullptr, "parked", 0);
  EXPECT_EQ(RaiseWhileParked(ZEND_MOCK_PARKED_BECOMES_PREVIOUS), by_php);
}

TEST_F(MockZendExceptionParkTest,
       ParkedStaysCurrentAndTheExceptionRaisedMeanwhileBecomesItsPrevious) {
  zend_object* thrown = zend_throw_exception(nullptr, "parked", 0);
  EXPECT_EQ(RaiseWhileParked(ZEND_MOCK_PARKED_STAYS_CURRENT),
            (Chain{"Exception: parked", "Error: raised"}));
  EXPECT_EQ(EG(exception), thrown);
  EXPECT_EQ(EG(prev_exception), nullptr);
}

TEST_F(MockZendExceptionParkTest,
       ParkedStaysCurrentAppendsAfterTheParkedExceptionsOwnPrevious) {
  zend_throw_exception(nullptr, "cause", 0);
  zend_throw_exception(nullptr, "parked", 0);  // carries "cause"
  EXPECT_EQ(RaiseWhileParked(ZEND_MOCK_PARKED_STAYS_CURRENT),
            (Chain{"Exception: parked", "Exception: cause", "Error: raised"}));
}

// EG(prev_exception) after: "saved before" saved, parked, "saved
// meanwhile" saved, unparked by `order`. EG(exception) stays empty.
Chain SavedChainAfterUnparking(zend_mock_exception_order order) {
  zend_throw_exception(nullptr, "saved before", 0);
  zend_exception_save();
  zend_mock_parked_exception parked = zend_mock_exception_park();
  zend_throw_error(nullptr, "saved meanwhile");
  zend_exception_save();
  zend_mock_exception_unpark(&parked, order);
  EXPECT_EQ(EG(exception), nullptr);
  return ExceptionChain(EG(prev_exception));
}

TEST_F(MockZendExceptionParkTest, PrevExceptionSlotBecomesPreviousOfNewOne) {
  EXPECT_EQ(SavedChainAfterUnparking(ZEND_MOCK_PARKED_BECOMES_PREVIOUS),
            (Chain{"Error: saved meanwhile", "Exception: saved before"}));
}

TEST_F(MockZendExceptionParkTest, PrevExceptionSlotStaysCurrentWhenAsked) {
  EXPECT_EQ(SavedChainAfterUnparking(ZEND_MOCK_PARKED_STAYS_CURRENT),
            (Chain{"Exception: saved before", "Error: saved meanwhile"}));
}

TEST_F(MockZendExceptionParkTest, UnparkTwiceDoesNothingTheSecondTime) {
  zend_object* thrown = zend_throw_exception(nullptr, "parked", 0);
  zend_mock_parked_exception parked = zend_mock_exception_park();
  zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_STAYS_CURRENT);
  zend_mock_exception_unpark(&parked, ZEND_MOCK_PARKED_STAYS_CURRENT);
  EXPECT_EQ(EG(exception), thrown);
  EXPECT_EQ(ExceptionChain(EG(exception)), (Chain{"Exception: parked"}));
}

TEST_F(MockZendExceptionParkTest,
       TakeReturnsTheExceptionWithTheSavedOneChained) {
  zend_throw_exception(nullptr, "saved", 0);
  zend_exception_save();
  zend_throw_error(nullptr, "in flight");
  zend_object* taken = zend_mock_exception_take();
  EXPECT_EQ(EG(exception), nullptr);
  EXPECT_EQ(EG(prev_exception), nullptr);
  EXPECT_EQ(ExceptionChain(taken),
            (Chain{"Error: in flight", "Exception: saved"}));
  OBJ_RELEASE(taken);
}

TEST_F(MockZendExceptionParkTest, TakeWithNothingInFlightLeavesTheSavedOne) {
  zend_object* saved = zend_throw_exception(nullptr, "saved", 0);
  zend_exception_save();
  EXPECT_EQ(zend_mock_exception_take(), nullptr);
  EXPECT_EQ(EG(prev_exception), saved);
}

TEST_F(MockZendExceptionParkTest, ScopedParkingRestoresWhenTheScopeEnds) {
  zend_throw_exception(nullptr, "parked", 0);
  {
    mock_zend::ParkedException parked(ZEND_MOCK_PARKED_STAYS_CURRENT);
    EXPECT_EQ(EG(exception), nullptr);
    zend_throw_error(nullptr, "raised");
  }
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (Chain{"Exception: parked", "Error: raised"}));
}

TEST_F(MockZendExceptionParkTest, ScopedParkingRestoreEarlyRestoresOnce) {
  zend_throw_exception(nullptr, "parked", 0);
  {
    mock_zend::ParkedException parked(ZEND_MOCK_PARKED_BECOMES_PREVIOUS);
    zend_throw_error(nullptr, "raised");
    parked.Restore();
    EXPECT_EQ(ExceptionChain(EG(exception)),
              (Chain{"Error: raised", "Exception: parked"}));
  }
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (Chain{"Error: raised", "Exception: parked"}));
}

TEST_F(MockZendExceptionParkTest, CallableFromCWithTheOrderNamed) {
  zend_throw_exception(nullptr, "parked", 0);
  exception_park_c_throw_while_parked();
  EXPECT_EQ(ExceptionChain(EG(exception)),
            (Chain{"Exception: parked", "Error: raised in C"}));
}

}  // namespace
