// Tests of object iterators (Zend/zend_iterators.h) and of the Traversable
// classes (Zend/zend_interfaces.h): iterators as refcounted objects of the
// store, classes implementing Iterator or IteratorAggregate walked through
// their methods, an internal class's own get_iterator wrapped in an
// InternalIterator, and spl_iterator_apply walking any of them as foreach
// does.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mock_zend/callable.h"
#include "mock_zend/class_builder.h"
#include "zend_async_ref/testing/exceptions.h"
#include "zend_async_ref/testing/request_fixture.h"

extern "C" {
#include "ext/spl/spl_iterators.h"
#include "php.h"
#include "tests/mock_zend/object_iterators_c.h"
}

namespace {

using mock_zend::Call;
using zar::testing::TakeExceptionText;

class MockZendObjectIteratorTest : public zar::testing::RequestFixture {};

// ---- An internal iterator over 0, 10, 20, ... (count elements) ----

struct CountingIterator {
  zend_object_iterator it;
  zend_long count;
  zend_long position;
  zval current;
  bool rewindable;
};

int counting_dtors = 0;

CountingIterator* Counting(zend_object_iterator* iter) {
  return reinterpret_cast<CountingIterator*>(iter);
}

void CountingDtor(zend_object_iterator* iter) {
  counting_dtors++;
  zval_ptr_dtor(&iter->data);
}
zend_result CountingValid(zend_object_iterator* iter) {
  CountingIterator* c = Counting(iter);
  return c->position < c->count ? SUCCESS : FAILURE;
}
zval* CountingCurrent(zend_object_iterator* iter) {
  CountingIterator* c = Counting(iter);
  ZVAL_LONG(&c->current, c->position * 10);
  return &c->current;
}
void CountingForward(zend_object_iterator* iter) { Counting(iter)->position++; }
void CountingRewind(zend_object_iterator* iter) {
  Counting(iter)->position = 0;
}

const zend_object_iterator_funcs kCountingFuncs = {
    CountingDtor,    CountingValid,  CountingCurrent, nullptr,
    CountingForward, CountingRewind, nullptr,         nullptr};
const zend_object_iterator_funcs kForwardOnlyFuncs = {
    CountingDtor,    CountingValid, CountingCurrent, nullptr,
    CountingForward, nullptr,       nullptr,         nullptr};

CountingIterator* NewCounting(zval* object, zend_long count, bool rewindable) {
  auto* iter =
      static_cast<CountingIterator*>(ecalloc(1, sizeof(CountingIterator)));
  zend_iterator_init(&iter->it);
  iter->it.funcs = rewindable ? &kCountingFuncs : &kForwardOnlyFuncs;
  if (object != nullptr) {
    ZVAL_COPY(&iter->it.data, object);
  } else {
    ZVAL_UNDEF(&iter->it.data);
  }
  iter->count = count;
  return iter;
}

zend_object_iterator* CountingGetIterator(zend_class_entry*, zval* object,
                                          int by_ref) {
  if (by_ref) {
    zend_throw_error(nullptr, "Cannot iterate Counter by reference");
    return nullptr;
  }
  return &NewCounting(object, 3, true)->it;
}

zend_object_iterator* ForwardOnlyGetIterator(zend_class_entry*, zval* object,
                                             int) {
  return &NewCounting(object, 3, false)->it;
}

// An internal class whose get_iterator is CountingGetIterator (set after
// registering, as php-async does) and whose getIterator() wraps it.
zend_class_entry* CounterClass(const char* name,
                               decltype(&CountingGetIterator) get_iterator) {
  zend_class_entry* ce =
      mock_zend::ClassBuilder(name)
          .Implements(zend_ce_aggregate)
          .Method("getIterator",
                  [](Call& call) {
                    zval self;
                    ZVAL_OBJ(&self, call.self());
                    zend_create_internal_iterator_zval(call.result(), &self);
                  })
          .Build();
  ce->get_iterator = get_iterator;
  return ce;
}

// What spl_iterator_apply saw: "key=value" per element.
std::vector<std::string> Walk(zval* object) {
  std::vector<std::string> seen;
  spl_iterator_apply(
      object,
      [](zend_object_iterator* iter, void* puser) {
        auto* out = static_cast<std::vector<std::string>*>(puser);
        zval* value = iter->funcs->get_current_data(iter);
        zval key;
        if (iter->funcs->get_current_key != nullptr) {
          iter->funcs->get_current_key(iter, &key);
        } else {
          ZVAL_LONG(&key, static_cast<zend_long>(iter->index));
        }
        zend_string* k = zval_get_string(&key);
        zend_string* v = zval_get_string(value);
        out->push_back(std::string(ZSTR_VAL(k)) + "=" + ZSTR_VAL(v));
        zend_string_release(k);
        zend_string_release(v);
        zval_ptr_dtor(&key);
        return ZEND_HASH_APPLY_KEEP;
      },
      &seen);
  return seen;
}

zval CallMethod(zval* object, const char* name) {
  zval retval;
  ZVAL_UNDEF(&retval);
  zend_call_method(Z_OBJ_P(object), nullptr, nullptr, name, strlen(name),
                   &retval, 0, nullptr, nullptr);
  return retval;
}

// Calls a method for its effect only.
void Invoke(zval* object, const char* name) {
  zval retval = CallMethod(object, name);
  zval_ptr_dtor(&retval);
}

TEST_F(MockZendObjectIteratorTest,
       AnIteratorIsAStoreObjectThatItsLastReleaseDestroysOnce) {
  counting_dtors = 0;
  const uint32_t live = zend_objects_store_live_count();
  CountingIterator* iter = NewCounting(nullptr, 1, true);
  EXPECT_EQ(GC_REFCOUNT(&iter->it.std), 1u);
  EXPECT_EQ(zend_objects_store_live_count(), live + 1);
  EXPECT_STREQ(ZSTR_VAL(iter->it.std.ce->name), "__iterator_wrapper");
  GC_ADDREF(&iter->it.std);
  zend_iterator_dtor(&iter->it);
  EXPECT_EQ(counting_dtors, 0);
  zend_iterator_dtor(&iter->it);
  EXPECT_EQ(counting_dtors, 1);
  EXPECT_EQ(zend_objects_store_live_count(), live);
}

TEST_F(MockZendObjectIteratorTest, UnwrapFindsTheIteratorAZvalHolds) {
  CountingIterator* iter = NewCounting(nullptr, 1, true);
  zval wrapped;
  ZVAL_OBJ(&wrapped, &iter->it.std);
  EXPECT_EQ(zend_iterator_unwrap(&wrapped), &iter->it);
  zval other;
  object_init_ex(&other, zend_standard_class_def);
  EXPECT_EQ(zend_iterator_unwrap(&other), nullptr);
  zval_ptr_dtor(&other);
  zval_ptr_dtor(&wrapped);
}

TEST_F(MockZendObjectIteratorTest, TheTraversableInterfacesAreRegistered) {
  ASSERT_NE(zend_ce_iterator, nullptr);
  ASSERT_NE(zend_ce_aggregate, nullptr);
  EXPECT_STREQ(ZSTR_VAL(zend_ce_iterator->name), "Iterator");
  EXPECT_STREQ(ZSTR_VAL(zend_ce_aggregate->name), "IteratorAggregate");
  EXPECT_TRUE(zend_ce_iterator->ce_flags & ZEND_ACC_INTERFACE);
  EXPECT_TRUE(instanceof_function(zend_ce_iterator, zend_ce_traversable));
  EXPECT_TRUE(instanceof_function(zend_ce_aggregate, zend_ce_traversable));
  ASSERT_NE(zend_ce_internal_iterator, nullptr);
  EXPECT_STREQ(ZSTR_VAL(zend_ce_internal_iterator->name), "InternalIterator");
  EXPECT_TRUE(zend_ce_internal_iterator->ce_flags & ZEND_ACC_FINAL);
  EXPECT_TRUE(instanceof_function(zend_ce_internal_iterator, zend_ce_iterator));
  EXPECT_NE(zend_ce_internal_iterator->get_iterator, nullptr);
}

TEST_F(MockZendObjectIteratorTest,
       AnIteratorClassIsWalkedThroughItsMethodsInForeachOrder) {
  static std::vector<std::string> calls;
  static zend_long position;
  calls.clear();
  zend_class_entry* ce =
      mock_zend::ClassBuilder("TwoStep")
          .Implements(zend_ce_iterator)
          .Method("rewind",
                  [](Call&) {
                    calls.push_back("rewind");
                    position = 0;
                  })
          .Method("valid",
                  [](Call& call) {
                    calls.push_back("valid");
                    ZVAL_BOOL(call.result(), position < 2);
                  })
          .Method("current",
                  [](Call& call) {
                    calls.push_back("current");
                    ZVAL_LONG(call.result(), 100 + position);
                  })
          .Method("key",
                  [](Call& call) {
                    calls.push_back("key");
                    ZVAL_STRING(call.result(), position == 0 ? "a" : "b");
                  })
          .Method("next",
                  [](Call&) {
                    calls.push_back("next");
                    position++;
                  })
          .Build();
  EXPECT_NE(ce->get_iterator, nullptr);
  zval object;
  object_init_ex(&object, ce);
  EXPECT_EQ(Walk(&object), (std::vector<std::string>{"a=100", "b=101"}));
  EXPECT_EQ(calls, (std::vector<std::string>{"rewind", "valid", "current",
                                             "key", "next", "valid", "current",
                                             "key", "next", "valid"}));
  zval_ptr_dtor(&object);
}

TEST_F(MockZendObjectIteratorTest, AnIteratorClassCannotBeIteratedByReference) {
  zend_class_entry* ce = mock_zend::ClassBuilder("PlainIterator")
                             .Implements(zend_ce_iterator)
                             .Build();
  ASSERT_NE(ce->get_iterator, nullptr);
  zval object;
  object_init_ex(&object, ce);
  EXPECT_EQ(ce->get_iterator(ce, &object, 1), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Error: An iterator cannot be used with foreach by reference");
  zval_ptr_dtor(&object);
}

TEST_F(MockZendObjectIteratorTest,
       AnAggregateIsWalkedThroughTheIteratorItsGetIteratorReturns) {
  zend_class_entry* counter = CounterClass("Counter", CountingGetIterator);
  static zend_class_entry* counter_ce;
  counter_ce = counter;
  zend_class_entry* ce =
      mock_zend::ClassBuilder("Wrapper")
          .Implements(zend_ce_aggregate)
          .Method("getIterator",
                  [](Call& call) { object_init_ex(call.result(), counter_ce); })
          .Build();
  EXPECT_EQ(ce->get_iterator, zend_user_it_get_new_iterator);
  zval object;
  object_init_ex(&object, ce);
  EXPECT_EQ(Walk(&object), (std::vector<std::string>{"0=0", "1=10", "2=20"}));
  zval_ptr_dtor(&object);
}

TEST_F(MockZendObjectIteratorTest,
       AGetIteratorReturningNoTraversableThrowsPhpsException) {
  zend_class_entry* ce =
      mock_zend::ClassBuilder("BadAggregate")
          .Implements(zend_ce_aggregate)
          .Method("getIterator",
                  [](Call& call) { ZVAL_LONG(call.result(), 1); })
          .Build();
  ASSERT_EQ(ce->get_iterator, zend_user_it_get_new_iterator);
  zval object;
  object_init_ex(&object, ce);
  EXPECT_EQ(ce->get_iterator(ce, &object, 0), nullptr);
  EXPECT_EQ(TakeExceptionText(),
            "Exception: Objects returned by BadAggregate::getIterator() must "
            "be traversable or implement interface Iterator");
  EXPECT_EQ(
      spl_iterator_apply(
          &object, [](zend_object_iterator*, void*) { return 0; }, nullptr),
      FAILURE);
  zend_clear_exception();
  zval_ptr_dtor(&object);
}

TEST_F(MockZendObjectIteratorTest,
       AnInternalClassKeepsTheGetIteratorItSetsAndSubclassesInheritIt) {
  zend_class_entry* ce = CounterClass("OwnIterator", CountingGetIterator);
  EXPECT_EQ(ce->get_iterator, CountingGetIterator);
  zend_class_entry* child =
      mock_zend::ClassBuilder("OwnIteratorChild").Extends(ce).Build();
  EXPECT_EQ(child->get_iterator, CountingGetIterator);
  zval object;
  object_init_ex(&object, child);
  EXPECT_EQ(Walk(&object), (std::vector<std::string>{"0=0", "1=10", "2=20"}));
  zval_ptr_dtor(&object);
}

TEST_F(MockZendObjectIteratorTest,
       CreateInternalIteratorWrapsTheClassIteratorInAnInternalIterator) {
  counting_dtors = 0;
  zend_class_entry* ce = CounterClass("Wrapped", CountingGetIterator);
  zval object;
  object_init_ex(&object, ce);
  zval internal = CallMethod(&object, "getIterator");
  ASSERT_EQ(Z_TYPE(internal), IS_OBJECT);
  EXPECT_EQ(Z_OBJCE(internal), zend_ce_internal_iterator);

  std::vector<std::string> seen;
  for (;;) {
    zval valid = CallMethod(&internal, "valid");
    if (Z_TYPE(valid) != IS_TRUE) break;
    zval key = CallMethod(&internal, "key");
    zval current = CallMethod(&internal, "current");
    seen.push_back(std::to_string(Z_LVAL(key)) + "=" +
                   std::to_string(Z_LVAL(current)));
    Invoke(&internal, "next");
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"0=0", "1=10", "2=20"}));
  Invoke(&internal, "rewind");
  zval current = CallMethod(&internal, "current");
  EXPECT_EQ(Z_LVAL(current), 0);
  // The InternalIterator is Traversable itself.
  EXPECT_EQ(Walk(&internal), (std::vector<std::string>{"0=0", "1=10", "2=20"}));
  zval_ptr_dtor(&internal);
  EXPECT_EQ(counting_dtors, 1);
  zval_ptr_dtor(&object);
}

TEST_F(MockZendObjectIteratorTest,
       AnInternalIteratorRewindsOnlyBeforeItsFirstStepWithoutRewindSupport) {
  zend_class_entry* ce = CounterClass("ForwardOnly", ForwardOnlyGetIterator);
  zval object;
  object_init_ex(&object, ce);
  zval internal = CallMethod(&object, "getIterator");
  Invoke(&internal, "rewind");
  EXPECT_EQ(EG(exception), nullptr);
  Invoke(&internal, "next");
  Invoke(&internal, "rewind");
  EXPECT_EQ(TakeExceptionText(), "Error: Iterator does not support rewinding");
  zval_ptr_dtor(&internal);
  zval_ptr_dtor(&object);
}

TEST_F(MockZendObjectIteratorTest,
       AnInternalIteratorCannotBeConstructedOrUsedUninitialized) {
  zval internal;
  object_init_ex(&internal, zend_ce_internal_iterator);
  Invoke(&internal, "current");
  EXPECT_EQ(TakeExceptionText(),
            "Error: The InternalIterator object has not been properly "
            "initialized");
  Invoke(&internal, "__construct");
  EXPECT_EQ(TakeExceptionText(),
            "Error: Cannot manually construct InternalIterator");
  zval_ptr_dtor(&internal);
}

TEST_F(MockZendObjectIteratorTest,
       SplIteratorApplyStopsWhenTheCallbackSaysSoOrThrows) {
  zend_class_entry* ce = CounterClass("Stopper", CountingGetIterator);
  zval object;
  object_init_ex(&object, ce);
  zend_ulong calls = 0;
  EXPECT_EQ(spl_iterator_apply(
                &object,
                [](zend_object_iterator* iter, void* puser) {
                  *static_cast<zend_ulong*>(puser) = iter->index + 1;
                  return iter->index == 1 ? ZEND_HASH_APPLY_STOP
                                          : ZEND_HASH_APPLY_KEEP;
                },
                &calls),
            SUCCESS);
  EXPECT_EQ(calls, 2u);
  calls = 0;
  EXPECT_EQ(spl_iterator_apply(
                &object,
                [](zend_object_iterator*, void* puser) {
                  ++*static_cast<zend_ulong*>(puser);
                  zend_throw_exception(zend_ce_exception, "stop here", 0);
                  return ZEND_HASH_APPLY_KEEP;
                },
                &calls),
            FAILURE);
  EXPECT_EQ(calls, 1u);
  EXPECT_EQ(TakeExceptionText(), "Exception: stop here");
  zval_ptr_dtor(&object);
}

TEST_F(MockZendObjectIteratorTest, IteratorsAreDefinedAndDrivenFromC) {
  EXPECT_EQ(object_iterators_c_check(), 0);
}

}  // namespace
