// Conformance of the thread pool group's zval transfer functions
// (ZEND_ASYNC_THREAD_TRANSFER_ZVAL*, ZEND_ASYNC_THREAD_LOAD_ZVAL*,
// zend_async_thread_release_transferred_zval_fn), with php-async's
// semantics (thread.c, "Zval transfer"): values, identity, refusals and
// release. Objects, the ctx variants and transfer_obj are in
// zval_object_transfer_test.cc.
//
// Everything runs on the request's thread: the transferred graph is built
// and loaded in the same request, which is what a worker thread sees too.
// The fixture's TearDown fails a test that leaves a request block or an
// object alive; persistent memory is checked by running this binary under
// valgrind (docs/thread_pool.md).
//
// Ported from php-async tests/thread, thread_channel and thread_pool (the
// value-transfer scenarios); the list is in docs/thread_pool.md.

#include "tests/thread_pool/support/zval_transfer_test.h"

extern "C" {
#include "Zend/zend_async_API.h"
#include "php.h"
}

namespace {

using zar::testing::TakeExceptionText;
using zar::thread_pool_testing::Dump;
using zar::thread_pool_testing::ZvalTransferTest;

// ---- Values -----------------------------------------------------------------

TEST_F(ZvalTransferTest, ScalarsRoundTripUnchanged) {
  zval values[5];
  ZVAL_NULL(&values[0]);
  ZVAL_FALSE(&values[1]);
  ZVAL_TRUE(&values[2]);
  ZVAL_LONG(&values[3], -42);
  ZVAL_DOUBLE(&values[4], 2.5);
  for (const zval& value : values) {
    zval transferred;
    ASSERT_EQ(Transfer(&transferred, &value), "");
    EXPECT_EQ(Dump(&transferred), Dump(&value));
    zval loaded;
    ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &transferred);
    Release(&transferred);
    EXPECT_EQ(Dump(&loaded), Dump(&value));
  }
}

TEST_F(ZvalTransferTest, StringIsCopiedIntoPersistentMemory) {
  zval src;
  ZVAL_STRING(&src, "hello thread");
  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  ASSERT_EQ(Z_TYPE(transferred), IS_STRING);
  EXPECT_NE(Z_STR(transferred), Z_STR(src));
  EXPECT_TRUE(GC_FLAGS(Z_STR(transferred)) & IS_STR_PERSISTENT);
  EXPECT_STREQ(Z_STRVAL(transferred), "hello thread");

  zval loaded;
  ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &transferred);
  Release(&transferred);
  ASSERT_EQ(Z_TYPE(loaded), IS_STRING);
  EXPECT_FALSE(GC_FLAGS(Z_STR(loaded)) & IS_STR_PERSISTENT);
  EXPECT_STREQ(Z_STRVAL(loaded), "hello thread");
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, InternedStringIsCopiedLikeAnyOther) {
  zval src;
  ZVAL_STR(&src, zend_string_init_interned(ZEND_STRL("interned"), 1));
  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  EXPECT_NE(Z_STR(transferred), Z_STR(src));
  EXPECT_FALSE(ZSTR_IS_INTERNED(Z_STR(transferred)));
  EXPECT_TRUE(GC_FLAGS(Z_STR(transferred)) & IS_STR_PERSISTENT);
  Release(&transferred);
}

TEST_F(ZvalTransferTest, NestedArraysRoundTripIntoPersistentTables) {
  zval inner, src;
  array_init(&inner);
  add_next_index_long(&inner, 1);
  add_next_index_string(&inner, "two");
  add_next_index_double(&inner, 3.5);
  array_init(&src);
  add_assoc_string(&src, "name", "worker");
  add_index_long(&src, 7, 70);
  add_assoc_zval(&src, "list", &inner);
  add_next_index_null(&src);

  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  ASSERT_EQ(Z_TYPE(transferred), IS_ARRAY);
  EXPECT_NE(Z_ARR(transferred), Z_ARR(src));
  EXPECT_TRUE(GC_FLAGS(Z_ARR(transferred)) & IS_ARRAY_PERSISTENT);
  zval* list = zend_hash_str_find(Z_ARR(transferred), ZEND_STRL("list"));
  ASSERT_NE(list, nullptr);
  EXPECT_TRUE(GC_FLAGS(Z_ARR_P(list)) & IS_ARRAY_PERSISTENT);
  EXPECT_EQ(Dump(&transferred), Dump(&src));

  zval loaded;
  ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &transferred);
  Release(&transferred);
  EXPECT_EQ(Dump(&loaded),
            "[\"name\"=>string(\"worker\"),7=>int(70),\"list\"=>[0=>int(1),1=>"
            "string(\"two\"),2=>float(3.5),],8=>null,]");
  EXPECT_FALSE(GC_FLAGS(Z_ARR(loaded)) & IS_ARRAY_PERSISTENT);
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, EmptyArrayRoundTrips) {
  zval src, loaded;
  array_init(&src);
  RoundTrip(&src, &loaded);
  ASSERT_EQ(Z_TYPE(loaded), IS_ARRAY);
  EXPECT_EQ(zend_hash_num_elements(Z_ARR(loaded)), 0u);
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, LargeStringAndArrayRoundTrip) {
  const std::string large(1024 * 1024, 'X');
  zval src, loaded;
  array_init(&src);
  add_next_index_stringl(&src, large.data(), large.size());
  zval map;
  array_init(&map);
  for (int i = 0; i < 1000; i++) {
    const std::string key = "key_" + std::to_string(i);
    const std::string value = "value_" + std::to_string(i);
    add_assoc_string_ex(&map, key.data(), key.size(), value.c_str());
  }
  add_next_index_zval(&src, &map);
  RoundTrip(&src, &loaded);

  zval* text = zend_hash_index_find(Z_ARR(loaded), 0);
  EXPECT_EQ(std::string(Z_STRVAL_P(text), Z_STRLEN_P(text)), large);
  HashTable* loaded_map = Z_ARR_P(zend_hash_index_find(Z_ARR(loaded), 1));
  EXPECT_EQ(zend_hash_num_elements(loaded_map), 1000u);
  EXPECT_STREQ(Z_STRVAL_P(zend_hash_str_find(loaded_map, ZEND_STRL("key_500"))),
               "value_500");
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

// ---- Identity ---------------------------------------------------------------

TEST_F(ZvalTransferTest, SameArrayTwiceIsCopiedOnceAndLoadedOnce) {
  zval shared, src;
  array_init(&shared);
  add_next_index_long(&shared, 1);
  Twice(&src, &shared);

  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  zval* first = zend_hash_index_find(Z_ARR(transferred), 0);
  zval* second = zend_hash_index_find(Z_ARR(transferred), 1);
  EXPECT_EQ(Z_ARR_P(first), Z_ARR_P(second));

  zval loaded;
  ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &transferred);
  Release(&transferred);
  first = zend_hash_index_find(Z_ARR(loaded), 0);
  second = zend_hash_index_find(Z_ARR(loaded), 1);
  EXPECT_EQ(Z_ARR_P(first), Z_ARR_P(second));
  EXPECT_EQ(GC_REFCOUNT(Z_ARR_P(first)), 2u);
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, SameStringTwiceSharesOneCopy) {
  zval text, src;
  ZVAL_STRING(&text, "shared text");
  Twice(&src, &text);

  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  zend_string* first = Z_STR_P(zend_hash_index_find(Z_ARR(transferred), 0));
  EXPECT_EQ(first, Z_STR_P(zend_hash_index_find(Z_ARR(transferred), 1)));
  EXPECT_EQ(GC_REFCOUNT(first), 2u);
  Release(&transferred);
  zval_ptr_dtor(&src);
}

// ---- Refusals ---------------------------------------------------------------

TEST_F(ZvalTransferTest, ObjectWithDynamicPropertiesIsRefused) {
  zval src;
  object_init(&src);
  zend_update_property_long(Z_OBJCE(src), Z_OBJ(src), ZEND_STRL("dyn"), 1);
  ExpectRefused(&src,
                "Cannot transfer object with dynamic properties between "
                "threads");
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, ResourceIsRefused) {
  zval src;
  NewResource(&src);
  ExpectRefused(&src, "Cannot transfer a resource between threads");
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, ReferenceIsRefused) {
  zend_reference reference;
  GC_SET_REFCOUNT(&reference, 1);
  GC_TYPE_INFO(&reference) = GC_REFERENCE;
  ZVAL_LONG(&reference.val, 1);
  reference.sources = nullptr;
  zval src;
  Z_REF(src) = &reference;
  Z_TYPE_INFO(src) = IS_REFERENCE_EX;
  ExpectRefused(&src, "Cannot transfer a reference between threads");
}

TEST_F(ZvalTransferTest, UnsupportedTypeIsRefused) {
  zval target, src;
  ZVAL_LONG(&target, 1);
  ZVAL_INDIRECT(&src, &target);
  ExpectRefused(&src,
                "Cannot transfer zval of unsupported type between threads");
}

// Builds `levels` arrays nested in each other, the innermost holding 1.
void Nest(zval* out, int levels) {
  ZVAL_LONG(out, 1);
  for (int i = 0; i < levels; i++) {
    zval outer;
    array_init(&outer);
    add_next_index_zval(&outer, out);
    ZVAL_COPY_VALUE(out, &outer);
  }
}

TEST_F(ZvalTransferTest, FiveHundredTwelveLevelsOfNestingAreAccepted) {
  zval src, loaded;
  Nest(&src, 512);
  RoundTrip(&src, &loaded);
  EXPECT_EQ(Z_TYPE(loaded), IS_ARRAY);
  zval_ptr_dtor(&loaded);
  zval_ptr_dtor(&src);
}

TEST_F(ZvalTransferTest, DeeperNestingIsRefusedWithTheDepthMessage) {
  zval src;
  Nest(&src, 513);
  ExpectRefused(&src,
                "Maximum nesting depth exceeded during thread data transfer");
  zval_ptr_dtor(&src);
}

// The partial copy (strings, a table, a cyclic shell) is freed before the
// throw: valgrind reports no persistent block lost for this test.
TEST_F(ZvalTransferTest, RefusalFreesThePartialCopy) {
  zend_class_entry* holder = DeclareClass("XferHolder", {"self", "bad"});
  zend_object* object = New(holder);
  SetObject(object, "self", object);
  zval resource;
  NewResource(&resource);
  Set(object, "bad", &resource);
  zval_ptr_dtor(&resource);

  zval list, src;
  array_init(&list);
  add_next_index_string(&list, "before");
  array_init(&src);
  add_assoc_zval(&src, "list", &list);
  zval item;
  ZVAL_OBJ(&item, object);
  add_assoc_zval(&src, "holder", &item);
  add_assoc_string(&src, "after", "never copied");

  ExpectRefused(&src, "Cannot transfer a resource between threads");

  SetNull(object, "self");
  zval_ptr_dtor(&src);
}

// ---- IS_PTR -----------------------------------------------------------------

TEST_F(ZvalTransferTest, PointerIsPassedThroughAndLoadsAsNull) {
  static int payload = 5;
  zval src;
  ZVAL_PTR(&src, &payload);
  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  ASSERT_EQ(Z_TYPE(transferred), IS_PTR);
  EXPECT_EQ(Z_PTR(transferred), &payload);
  zval loaded;
  ZEND_ASYNC_THREAD_LOAD_ZVAL_TOPLEVEL(&loaded, &transferred);
  EXPECT_EQ(Z_TYPE(loaded), IS_NULL);
  Release(&transferred);
  EXPECT_EQ(payload, 5);
}

// ---- Release ----------------------------------------------------------------

// Shared tables, shared and cyclic shells, shared strings: each is freed
// once (valgrind: no invalid free, nothing lost).
TEST_F(ZvalTransferTest, ReleaseFreesASharedCyclicGraphOnce) {
  zend_class_entry* node = DeclareClass("XferGraph", {"peer", "data"});
  auto [a, b] = NewLinkedPair(node, "peer", "peer");
  zval data;
  array_init(&data);
  add_next_index_string(&data, "payload");
  Set(a, "data", &data);
  Set(b, "data", &data);

  zval src, item;
  array_init(&src);
  ZVAL_OBJ(&item, a);
  add_next_index_zval(&src, &item);
  ZVAL_OBJ(&item, b);
  add_next_index_zval(&src, &item);
  add_next_index_zval(&src, &data);

  zval transferred;
  ASSERT_EQ(Transfer(&transferred, &src), "");
  Release(&transferred);
  EXPECT_EQ(Z_TYPE(transferred), IS_UNDEF);

  SetNull(a, "peer");
  zval_ptr_dtor(&src);
}

}  // namespace
