// Tests of the mock engine's cycle collector.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mock_zend/callable.h"
#include "mock_zend/class_builder.h"
#include "zend_async_ref/testing/request_fixture.h"

namespace {

class MockZendGcTest : public zar::testing::RequestFixture {
 protected:
  void SetUp() override {
    RequestFixture::SetUp();
    events_.clear();
    node_ce_ =
        mock_zend::ClassBuilder("Node")
            .Property("next")
            .Method("__destruct",
                    [this](mock_zend::Call& call) {
                      events_.push_back("destruct #" +
                                        std::to_string(call.self()->handle));
                    })
            .Build();
  }

  zend_object* NewNode() {
    zval z;
    EXPECT_EQ(object_init_ex(&z, node_ce_), SUCCESS);
    return Z_OBJ(z);
  }

  static void Link(zend_object* from, zend_object* to) {
    zval value;
    ZVAL_OBJ(&value, to);
    zend_update_property(nullptr, from, ZEND_STRL("next"), &value);
  }

  // A new array, [object], holding a reference of its own to `object`.
  static zval ArrayHolding(zend_object* object) {
    zval array;
    array_init(&array);
    GC_ADDREF(object);
    zval element;
    ZVAL_OBJ(&element, object);
    add_next_index_zval(&array, &element);
    return array;
  }

  std::vector<std::string> events_;
  zend_class_entry* node_ce_ = nullptr;
};

TEST_F(MockZendGcTest, ACycleThroughAClosureIsCollected) {
  zend_object* holder = NewNode();
  zval holder_zv;
  ZVAL_OBJ(&holder_zv, holder);
  zend_object* closure =
      mock_zend::NewClosure([](mock_zend::Call&) {}, {&holder_zv});
  zval closure_zv;
  ZVAL_OBJ(&closure_zv, closure);
  zend_update_property(nullptr, holder, ZEND_STRL("next"), &closure_zv);
  OBJ_RELEASE(closure);
  OBJ_RELEASE(holder);
  ASSERT_EQ(zend_objects_store_live_count(), 2u);  // kept alive by the cycle

  EXPECT_EQ(zend_gc_collect_cycles(), 2);
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
  EXPECT_EQ(events_, (std::vector<std::string>{"destruct #1"}));
}

TEST_F(MockZendGcTest, ACycleWithAnExternalReferenceIsNotCollected) {
  zend_object* a = NewNode();
  zend_object* b = NewNode();
  Link(a, b);
  Link(b, a);
  OBJ_RELEASE(b);  // `a` is still referenced from here
  EXPECT_EQ(zend_gc_collect_cycles(), 0);
  EXPECT_EQ(zend_objects_store_live_count(), 2u);
  EXPECT_TRUE(events_.empty());
  OBJ_RELEASE(a);
  EXPECT_EQ(zend_gc_collect_cycles(), 2);
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendGcTest, NothingIsCollectedWhileProtected) {
  zend_object* a = NewNode();
  zend_object* b = NewNode();
  Link(a, b);
  Link(b, a);
  OBJ_RELEASE(a);
  OBJ_RELEASE(b);
  EXPECT_FALSE(gc_protected());
  EXPECT_FALSE(gc_protect(true));
  EXPECT_TRUE(gc_protected());
  EXPECT_EQ(zend_gc_collect_cycles(), 0);
  EXPECT_EQ(zend_objects_store_live_count(), 2u);
  EXPECT_TRUE(gc_protect(false));
  EXPECT_FALSE(gc_protected());
  EXPECT_EQ(zend_gc_collect_cycles(), 2);
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendGcTest, GarbageHasItsDestructorAndFreeRunOnce) {
  zend_object* a = NewNode();
  zend_object* b = NewNode();
  zend_object* c = NewNode();
  Link(a, b);
  Link(b, c);
  Link(c, a);
  OBJ_RELEASE(a);
  OBJ_RELEASE(b);
  OBJ_RELEASE(c);
  EXPECT_EQ(zend_gc_collect_cycles(), 3);
  EXPECT_EQ(events_, (std::vector<std::string>{"destruct #1", "destruct #2",
                                               "destruct #3"}));
  EXPECT_EQ(zend_gc_collect_cycles(), 0);
  EXPECT_EQ(events_.size(), 3u);
}

TEST_F(MockZendGcTest, AnObjectHeldOnlyByALocalZvalIsNotGarbage) {
  zval local;
  object_init(&local);
  zval array;
  array_init(&array);
  zval element;
  object_init(&element);
  add_next_index_zval(&array, &element);  // the array owns `element`
  EXPECT_EQ(zend_gc_collect_cycles(), 0);
  EXPECT_EQ(zend_objects_store_live_count(), 2u);
  zval_ptr_dtor(&array);
  zval_ptr_dtor(&local);
}

TEST_F(MockZendGcTest, CyclesThroughArraysAndDynamicPropertiesAreFollowed) {
  zend_object* a = NewNode();
  zval self_array = ArrayHolding(a);
  // a->items = [a]: the cycle runs through an array in a dynamic property.
  zend_update_property(nullptr, a, ZEND_STRL("items"), &self_array);
  zval_ptr_dtor(&self_array);
  OBJ_RELEASE(a);
  EXPECT_EQ(zend_objects_store_live_count(), 1u);
  EXPECT_EQ(zend_gc_collect_cycles(), 1);
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendGcTest, ASharedArrayReferencedFromOutsideKeepsItsObjects) {
  zend_object* a = NewNode();
  zval shared = ArrayHolding(a);
  zend_update_property(nullptr, a, ZEND_STRL("items"), &shared);
  OBJ_RELEASE(a);
  // `shared` (refcount 2: here and in a->items) still reaches `a`.
  EXPECT_EQ(zend_gc_collect_cycles(), 0);
  EXPECT_EQ(zend_objects_store_live_count(), 1u);
  zval_ptr_dtor(&shared);
  EXPECT_EQ(zend_gc_collect_cycles(), 1);
}

TEST_F(MockZendGcTest, ADestructorThatResurrectsKeepsTheObjectAlive) {
  zval rescued;
  ZVAL_UNDEF(&rescued);
  zend_class_entry* ce = mock_zend::ClassBuilder("Phoenix")
                             .Property("next")
                             .Method("__destruct",
                                     [&](mock_zend::Call& call) {
                                       ZVAL_OBJ_COPY(&rescued, call.self());
                                     })
                             .Build();
  zval a;
  zval b;
  object_init_ex(&a, ce);
  object_init_ex(&b, node_ce_);
  Link(Z_OBJ(a), Z_OBJ(b));
  Link(Z_OBJ(b), Z_OBJ(a));
  zend_object* phoenix = Z_OBJ(a);
  zval_ptr_dtor(&a);
  zval_ptr_dtor(&b);
  EXPECT_EQ(zend_gc_collect_cycles(), 0);
  ASSERT_EQ(Z_TYPE(rescued), IS_OBJECT);
  EXPECT_EQ(Z_OBJ(rescued), phoenix);
  EXPECT_EQ(zend_objects_store_live_count(), 2u);
  zval_ptr_dtor(&rescued);
  EXPECT_EQ(zend_gc_collect_cycles(), 2);  // destructors do not run again
  EXPECT_EQ(events_, (std::vector<std::string>{"destruct #2"}));
  EXPECT_EQ(zend_objects_store_live_count(), 0u);
}

TEST_F(MockZendGcTest, GcEnableKeepsAFlagAndReturnsThePreviousValue) {
  EXPECT_TRUE(gc_enabled());
  EXPECT_TRUE(gc_enable(false));
  EXPECT_FALSE(gc_enabled());
  EXPECT_FALSE(gc_enable(true));
  EXPECT_TRUE(gc_enabled());
}

TEST_F(MockZendGcTest, TheGcBufferIsSharedAndEmptiedByCreate) {
  zend_get_gc_buffer* buffer = zend_get_gc_buffer_create();
  zval values[100];
  for (zval& value : values) {
    ZVAL_STRING(&value, "x");
    zend_get_gc_buffer_add_zval(buffer, &value);
  }
  zval number;
  ZVAL_LONG(&number, 1);
  zend_get_gc_buffer_add_zval(buffer, &number);  // not refcounted: skipped
  zval* table = nullptr;
  int n = 0;
  zend_get_gc_buffer_use(buffer, &table, &n);
  EXPECT_EQ(n, 100);
  EXPECT_EQ(Z_STR(table[99]), Z_STR(values[99]));
  EXPECT_EQ(zend_get_gc_buffer_create(), buffer);
  zend_get_gc_buffer_use(buffer, &table, &n);
  EXPECT_EQ(n, 0);
  for (zval& value : values) zval_ptr_dtor(&value);
}

}  // namespace
